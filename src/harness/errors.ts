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
  /** A provider's HTTP status (e.g. 401, 429), when the error carries one. */
  status?: number;
}

export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof Error) {
    const { code, status } = err as { code?: unknown; status?: unknown };
    return {
      name: err.name,
      message: err.message,
      ...(typeof code === "string" ? { code } : {}),
      ...(typeof status === "number" ? { status } : {}),
    };
  }
  return { name: "Error", message: String(err) };
}
