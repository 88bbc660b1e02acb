/**
 * Keys and tokens out of error texts. Provider errors echo what they were
 * sent ("Incorrect API key provided: sk-…"), sometimes encoded (a URL's
 * query, a Basic-auth header's base64, a hex dump, a JSON string), and an
 * error's text is stored (tool results, checkpoints), exported, shown and
 * sent back to a model. One function hides, before any of that, every form of
 * the keys configured (whatever their shape; see {@link secretForms}), any
 * long piece of one (see {@link partialLength}), and anything shaped like a
 * key: OpenAI and Anthropic keys (`sk-…`, `sk-ant-…`, `sk-proj-…`, masked
 * echoes included) and `Bearer …` tokens.
 */

/** What a hidden key is replaced with. */
export const KEY_HIDDEN = "[key hidden]";

/** Configured keys shorter than this are not hidden (they would hide ordinary words). */
const MIN_SECRET_LENGTH = 4;

/** An encoded form shorter than this is not hidden on its own (4 base64 characters occur anywhere in base64 data). */
const MIN_FORM_LENGTH = 8;

/** Keys shorter than this are hidden whole (in every form), never by pieces: a piece would be most of a short key. */
const MIN_PARTIAL_SECRET_LENGTH = 12;

const KEY_SHAPES: readonly RegExp[] = [
  // sk-…, sk-ant-api03-…, sk-proj-…, sk-or-v1-…; OpenAI's masked echo (sk-proj-****abcd) too.
  /\bsk-[A-Za-z0-9_*-]{8,}/g,
  // An Authorization header's token, wherever it is echoed.
  /\b(Bearer\s+)[A-Za-z0-9._~+/*=-]{8,}/gi,
];

/**
 * How long a piece of `secret` must be to be hidden where it appears alone (a truncated echo, "key sk-proj-Zq8t…
 * is invalid"): a third of the key, at least 8 and at most 16 characters. 8 characters of a key (≈ 48 bits) never
 * turn up in text by chance, while a shorter piece of a human-chosen token could be an ordinary word ("local-",
 * "server"); a third keeps a medium key's pieces from being mostly its structured part; 16 (≈ 95 bits) is enough for
 * any key, so a long key (Anthropic's 108 characters) is not left showing pieces of 35.
 */
export function partialLength(secret: string): number {
  return Math.min(16, Math.max(8, Math.ceil(secret.length / 3)));
}

const encoder = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The base64 characters that depend on `bytes` alone when they sit `offset` bytes (0, 1 or 2) past a multiple of 3
 * inside longer data: the text every base64 of a string containing `bytes` at that alignment contains (Basic auth's
 * `user:key`, a JSON document holding the key, the key itself with padding).
 */
function base64Core(bytes: Uint8Array, offset: number): string {
  const padded = new Uint8Array(offset + bytes.length + 2);
  padded.set(bytes, offset);
  const encoded = base64(padded);
  const first = Math.ceil((8 * offset) / 6);
  const end = Math.floor((8 * (offset + bytes.length)) / 6);
  return encoded.slice(first, end);
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
/** JSON string text without its quotes. */
const jsonInner = (text: string) => JSON.stringify(text).slice(1, -1);
/** Percent-encoding with lower-case hex digits (some encoders write `%2f`). */
const lowerPercent = (text: string) => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/**
 * Every form `secret` takes in text a server or a client may echo: as it is; URL-encoded (encodeURIComponent, a
 * form's `+` for spaces, lower-case hex); JSON-escaped (once and twice); hex (both cases) of its UTF-8 bytes; and the
 * base64 and base64url characters it becomes at each of the three byte alignments (so the base64 of any text holding
 * it, `user:key` included), plainly and URL-encoded. Forms shorter than {@link MIN_FORM_LENGTH} are left out, the key
 * itself excepted. Pure; longest first.
 */
export function secretForms(secret: string): string[] {
  const bytes = encoder.encode(secret);
  const uri = encodeURIComponent(secret);
  const derived = [uri, uri.replace(/%20/g, "+"), lowerPercent(uri), jsonInner(secret), jsonInner(jsonInner(secret))];
  derived.push(hex(bytes), hex(bytes).toUpperCase());
  // The key's own base64 whole (its last character encodes a few of the key's bits), padded and not.
  const whole = base64(bytes);
  const wholeUrl = whole.replace(/\+/g, "-").replace(/\//g, "_");
  derived.push(whole, whole.replace(/=+$/, ""), wholeUrl, wholeUrl.replace(/=+$/, ""));
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    const url = core.replace(/\+/g, "-").replace(/\//g, "_");
    derived.push(core, url, encodeURIComponent(core));
  }
  const forms = new Set([secret, ...derived.filter((form) => form.length >= MIN_FORM_LENGTH)]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every run of characters covered by a piece (of {@link partialLength}) of a secret hidden. */
function hidePieces(text: string, secrets: readonly string[]): string {
  const covered = new Uint8Array(text.length);
  let any = false;
  for (const secret of secrets) {
    if (secret.length < MIN_PARTIAL_SECRET_LENGTH) continue;
    const n = partialLength(secret);
    if (text.length < n) continue;
    const pieces = new Set<string>();
    for (let i = 0; i + n <= secret.length; i++) pieces.add(secret.slice(i, i + n));
    for (let i = 0; i + n <= text.length; i++) {
      if (!pieces.has(text.slice(i, i + n))) continue;
      covered.fill(1, i, i + n);
      any = true;
    }
  }
  // Each run of covered characters becomes one mark.
  return any ? text.replace(/[^]/g, (c, i: number) => (!covered[i] ? c : covered[i - 1] ? "" : KEY_HIDDEN)) : text;
}

/**
 * `text` with every form of every secret of `secrets` (`secretForms`), every piece of one at least
 * `partialLength` long, and every key-shaped token replaced by {@link KEY_HIDDEN}.
 */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  const known = [...new Set(secrets)].filter((s) => typeof s === "string" && s.length >= MIN_SECRET_LENGTH);
  // Longest first, so a key containing another (or a form containing another's) is hidden whole.
  const forms = [...new Set(known.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(KEY_HIDDEN);
  out = hidePieces(out, known);
  out = out.replace(KEY_SHAPES[0]!, KEY_HIDDEN);
  return out.replace(KEY_SHAPES[1]!, (_m, bearer: string) => `${bearer}${KEY_HIDDEN}`);
}

/**
 * Hides secrets in a thrown error's own text, in place (message and stack),
 * and returns it: whatever stores or shows the error later sees it hidden.
 * Values that are not Errors are returned as they are.
 */
export function redactError<E>(err: E, redact: (text: string) => string): E {
  if (!(err instanceof Error)) return err;
  try {
    err.message = redact(err.message);
    if (typeof err.stack === "string") err.stack = redact(err.stack);
  } catch {
    // A frozen error or one whose fields cannot be set: its text is redacted where it becomes text instead.
  }
  return err;
}

/** Fields where LangChain's provider clients keep their key. */
const KEY_FIELDS = ["apiKey", "openAIApiKey", "anthropicApiKey"] as const;

/** The keys a LangChain chat model holds (its client's `apiKey` fields), to hide in its errors. */
export function keysOfModel(model: unknown): string[] {
  if (typeof model !== "object" || model === null) return [];
  const fields = model as Record<string, unknown>;
  return KEY_FIELDS.map((field) => fields[field]).filter((value): value is string => typeof value === "string");
}
