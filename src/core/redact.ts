/**
 * Keys and tokens out of error texts. Provider errors echo what they were
 * sent ("Incorrect API key provided: sk-…"), and an error's text is stored
 * (tool results, checkpoints), exported, shown and sent back to a model. One
 * function hides, before any of that, the keys configured (whatever their
 * shape) and anything shaped like a key: OpenAI and Anthropic keys (`sk-…`,
 * `sk-ant-…`, `sk-proj-…`, masked echoes included) and `Bearer …` tokens.
 */

/** What a hidden key is replaced with. */
export const KEY_HIDDEN = "[key hidden]";

/** Configured keys shorter than this are not hidden (they would hide ordinary words). */
export const MIN_SECRET_LENGTH = 4;

const KEY_SHAPES: readonly RegExp[] = [
  // sk-…, sk-ant-api03-…, sk-proj-…, sk-or-v1-…; OpenAI's masked echo (sk-proj-****abcd) too.
  /\bsk-[A-Za-z0-9_*-]{8,}/g,
  // An Authorization header's token, wherever it is echoed.
  /\b(Bearer\s+)[A-Za-z0-9._~+/*=-]{8,}/gi,
];

/** `text` with every secret of `secrets` and every key-shaped token replaced by {@link KEY_HIDDEN}. */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  // Longest first, so a key containing another is hidden whole.
  const known = [...new Set(secrets)]
    .filter((s) => typeof s === "string" && s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  for (const secret of known) out = out.split(secret).join(KEY_HIDDEN);
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
