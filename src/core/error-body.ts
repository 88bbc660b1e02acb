/**
 * A provider's error body never becomes text that is kept. The provider SDKs put the body of an HTTP error into the
 * error's message when it has no `message` of its own (Anthropic's always: `401 {"type":"error","error":{…},
 * "request_id":…}`; OpenAI's for any body without `error.message`; a plain-text or HTML body as it is), and that
 * message is stored in checkpoints (a node's failure, a subagent's tool result), exported, shown and sent back to the
 * model. What is kept instead is the status and the message the body gives, on one line and bounded.
 */

/** The longest plain message kept of a provider's error (the status included). */
export const MAX_ERROR_TEXT = 300;

/** What stands for a body that gives no message of its own. */
export const NO_MESSAGE = "(the provider's response gave no message)";

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

/** The message a parsed body gives: `error.message`, `message`, `error` or `detail` when a string. */
function messageOfBody(body: unknown): string | undefined {
  if (typeof body === "string") return messageOfText(body);
  if (!isFields(body)) return undefined;
  const inner = isFields(body.error) ? body.error : undefined;
  for (const value of [inner?.message, body.message, body.error, body.detail]) {
    if (typeof value === "string" && value.trim()) return messageOfText(value);
  }
  return undefined;
}

/** The message a body's text gives: a JSON body's own message, or a plain text's first line (never HTML). */
function messageOfText(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      return messageOfBody(JSON.parse(trimmed));
    } catch {
      return undefined;
    }
  }
  if (trimmed.startsWith("<")) return undefined;
  return trimmed.split("\n")[0]?.trim() || undefined;
}

/** `text` cut to `max` characters, an ellipsis marking the cut. */
function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The plain message of a provider's HTTP error (an Error with a numeric `status` of 400 or more): `<status> <the
 * message its body gives>`, one line, at most {@link MAX_ERROR_TEXT} characters; undefined for any other value. The
 * body is read from the SDK's parsed `error` field, else from the message the SDK made of it.
 */
export function providerErrorText(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const { status, error } = err as Error & { status?: unknown; error?: unknown };
  if (typeof status !== "number" || status < 400) return undefined;
  const prefix = `${status} `;
  const own = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  const said = messageOfBody(error) ?? messageOfText(own);
  return bounded(`${prefix}${said ?? NO_MESSAGE}`, MAX_ERROR_TEXT);
}

/**
 * A provider's HTTP error with its body dropped, in place: the message becomes {@link providerErrorText} (the stack
 * says it too), and the SDK's parsed body keeps only its `type` and `code` (which classify the failure). Any other
 * value is returned as it is.
 */
export function dropErrorBody<E>(err: E): E {
  const text = providerErrorText(err);
  if (text === undefined || !(err instanceof Error)) return err;
  try {
    const before = err.message;
    err.message = text;
    if (typeof err.stack === "string") err.stack = err.stack.includes(before) ? err.stack.replace(before, text) : `${err.name}: ${text}`;
    const fields = err as Error & { error?: unknown };
    if ("error" in fields) {
      const body = isFields(fields.error) ? (isFields(fields.error.error) ? fields.error.error : fields.error) : {};
      fields.error = {
        message: text,
        ...(typeof body.type === "string" ? { type: body.type } : {}),
        ...(typeof body.code === "string" ? { code: body.code } : {}),
      };
    }
  } catch {
    // A frozen error: its text is redacted (and bounded by the caller) where it becomes text instead.
  }
  return err;
}
