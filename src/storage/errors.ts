/**
 * Errors raised by the IndexedDB storage layer. Like `HarnessError` they carry
 * a `code` string, so callers can branch on it after the error crossed a
 * worker boundary (where `instanceof` no longer holds).
 */
export type StorageErrorCode =
  /** The origin ran out of storage quota; the transaction was rolled back. */
  | "quota_exceeded"
  /** IndexedDB is missing, refused to open, or another tab blocks an upgrade. */
  | "unavailable"
  /** A transaction failed or was aborted for another reason; nothing was written. */
  | "transaction_failed"
  /** The `RunnableConfig` lacks a field the operation needs (e.g. `thread_id`). */
  | "invalid_config"
  /** A stored record references data that is missing or malformed. */
  | "corrupt_record";

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageError";
    this.code = code;
  }
}

/** The `name` of a DOMException-like error, if any. */
function errorName(err: unknown): string | undefined {
  if (typeof err === "object" && err !== null && "name" in err) {
    const name = (err as { name: unknown }).name;
    return typeof name === "string" ? name : undefined;
  }
  return undefined;
}

/** True when `err` (or the transaction's own error) is a quota failure. */
export function isQuotaError(...errs: unknown[]): boolean {
  return errs.some((e) => errorName(e) === "QuotaExceededError");
}

/**
 * Normalise anything thrown by IndexedDB during `operation` into a
 * {@link StorageError}. `txError` is the transaction's `error` property, which
 * holds the real cause (e.g. QuotaExceededError) when a request only reports
 * `AbortError`.
 */
export function toStorageError(operation: string, err: unknown, txError?: unknown): StorageError {
  if (err instanceof StorageError) return err;
  if (isQuotaError(err, txError)) {
    return new StorageError(
      "quota_exceeded",
      `${operation}: storage quota exceeded; the transaction was rolled back and earlier checkpoints are intact`,
      { cause: err },
    );
  }
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new StorageError("transaction_failed", `${operation}: ${detail}`, { cause: err });
}
