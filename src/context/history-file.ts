import { isBackendError, type BackendProtocol } from "../backends/protocol.ts";

export const HISTORY_DIR = "/conversation_history";

export function historyPathFor(threadId: unknown): string {
  const id = typeof threadId === "string" && threadId ? threadId.replace(/[^A-Za-z0-9_.-]/g, "_") : "default";
  return `${HISTORY_DIR}/${id}.md`;
}

/**
 * Appends a section to a history file through the backend. Returns an error
 * message instead of throwing when the backend refuses; the caller then keeps
 * the conversation unsummarized rather than lose the evicted span.
 */
export async function appendSection(backend: BackendProtocol, path: string, section: string): Promise<string | undefined> {
  const existing = await backend.read(path, 0, Number.MAX_SAFE_INTEGER);
  if (isBackendError(existing)) {
    if (existing.error !== "file_not_found") return existing.message;
    const created = await backend.write(path, section);
    return isBackendError(created) ? created.message : undefined;
  }
  const content = existing.lines.join("\n") + "\n\n" + section;
  if (backend.uploadFiles) {
    const [res] = await backend.uploadFiles([{ path, content: new TextEncoder().encode(content) }]);
    return res?.error ? `could not update ${path}: ${res.error}` : undefined;
  }
  // write_file replaces a whole file (deepagentsjs #674).
  const written = await backend.write(path, content);
  return isBackendError(written) ? written.message : undefined;
}
