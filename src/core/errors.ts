/**
 * The one coded error of deeptab, and its plain form. Every layer may import
 * this leaf module.
 *
 * Thrown errors are for broken setups and unavailable media; expected
 * failures are values (see result.ts). A thrown deeptab error always carries
 * a string `code`, so callers branch on it rather than on `instanceof`, which
 * does not survive postMessage across the worker boundary.
 */
import { jsonText, safeString } from "./json-text.ts";

/** The base of every error deeptab throws: a `code` to branch on and a message for people. */
export class DeeptabError<C extends string = string> extends Error {
  readonly code: C;
  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DeeptabError";
    this.code = code;
  }
}

/** A plain, structured-cloneable view of any error (what crosses postMessage). */
export interface ErrorInfo {
  name: string;
  message: string;
  code?: string;
  /** A provider's HTTP status (e.g. 401, 429), when the error carries one. */
  status?: number;
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : undefined;
}

/**
 * Any thrown value as {@link ErrorInfo}. Non-Error values keep their text: a
 * thrown string is the message; `undefined` says so rather than vanishing.
 * Never throws.
 */
export function toErrorInfo(err: unknown): ErrorInfo {
  try {
    return errorInfo(err);
  } catch {
    // A getter or Proxy trap of the thrown value threw.
    return { name: "Error", message: describeThrown(err) };
  }
}

function errorInfo(err: unknown): ErrorInfo {
  if (err instanceof Error) {
    const { code, status } = err as { code?: unknown; status?: unknown };
    return {
      name: err.name,
      message: err.message,
      ...(typeof code === "string" ? { code } : {}),
      ...(typeof status === "number" ? { status } : {}),
    };
  }
  const message = stringField(err, "message");
  if (message !== undefined) {
    const code = stringField(err, "code");
    return { name: stringField(err, "name") ?? "Error", message, ...(code ? { code } : {}) };
  }
  return { name: "Error", message: describeThrown(err) };
}

/** The text of a thrown value that is not an Error (a string, a number, `undefined`, an object). Never throws. */
export function describeThrown(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined was thrown";
  if (value === null) return "null was thrown";
  try {
    if (value instanceof Error) return safeString(value.message);
  } catch {
    // A Proxy or a getter that throws: shown as a value below.
  }
  return jsonText(value);
}
