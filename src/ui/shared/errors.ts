/** What the UI says about an error; quota errors get advice instead of the raw message. */
import type { ErrorInfo } from "../../protocol/errors.ts";

export function describeError(error: ErrorInfo): string {
  if (error.code === "quota_exceeded")
    return "Storage is full: free space by deleting threads (export them first to keep a copy). Nothing was half-written.";
  // Expected failures carry a code and a message written for people; the class name is noise there.
  return error.code ? error.message : `${error.name}: ${error.message}`;
}

/** Bytes as a short human string (KB, MB, GB). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u === 0 ? n : n.toFixed(1)} ${units[u]}`;
}
