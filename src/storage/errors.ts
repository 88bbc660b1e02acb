/**
 * Errors raised by the IndexedDB storage layer. They carry a `code` (see
 * core/errors.ts), so callers can branch on it after the error crossed a
 * worker boundary.
 */
import { DeeptabError } from "../core/errors.ts";

export type StorageErrorCode =
  /** The origin ran out of storage quota; the transaction was rolled back. */
  | "quota_exceeded"
  /** IndexedDB is missing, refused to open, or another tab blocks an upgrade. */
  | "unavailable"
  /** A transaction failed or was aborted for another reason; nothing was written. */
  | "transaction_failed"
  /** The `RunnableConfig` lacks a field the operation needs (e.g. `thread_id`). */
  | "invalid_config"
  /** An operation the store does not know (an unknown batch operation or match type). */
  | "invalid_request"
  /** A stored record references data that is missing or malformed. */
  | "corrupt_record";

export class StorageError extends DeeptabError<StorageErrorCode> {
  /** For `corrupt_record`: the thread and checkpoint the record belongs to, when known. */
  readonly threadId: string | undefined;
  readonly checkpointId: string | undefined;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown; threadId?: string; checkpointId?: string }) {
    super(code, message, options);
    this.name = "StorageError";
    this.threadId = options?.threadId;
    this.checkpointId = options?.checkpointId;
  }
}
