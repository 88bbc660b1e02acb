/**
 * Errors thrown by the harness at construction or on a broken setup. They
 * carry a `code` so callers can branch without `instanceof` (which does not
 * survive postMessage across the worker boundary).
 */
export type HarnessErrorCode =
  | "tool_name_collision"
  | "required_middleware"
  | "invalid_option"
  | "context_overflow"
  | "unsupported_backend";

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  constructor(code: HarnessErrorCode, message: string) {
    super(message);
    this.name = "HarnessError";
    this.code = code;
  }
}

/** A plain, structured-cloneable view of any error. */
export interface ErrorInfo {
  name: string;
  message: string;
  code?: string;
}

export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, ...(typeof code === "string" ? { code } : {}) };
  }
  return { name: "Error", message: String(err) };
}
