/**
 * deeptab's filesystem layout in the worker (a CompositeBackend):
 *
 * | path                                             | backend                     | lifetime     |
 * |--------------------------------------------------|-----------------------------|--------------|
 * | `/` workspace, incl. `/large_tool_results/`,     | IndexedDB files, scoped to  | the thread   |
 * | `/conversation_history/`                         | the thread                  |              |
 * | `/memories/`                                     | IndexedDB store             | all threads  |
 */
import { compositeBackend } from "../backends/composite.ts";
import { fileDataFromBytes, fileDataToBytes } from "../backends/file-ops.ts";
import { indexedDBBackend } from "../backends/indexeddb.ts";
import { isBackendError, type FileData } from "../backends/protocol.ts";
import { createBackendRuntime, resolveBackend, type BackendFactory } from "../backends/runtime.ts";
import { StoreBackend } from "../backends/store.ts";
import { IndexedDBStore } from "../storage/indexeddb-store.ts";

export interface Layout {
  backend: BackendFactory;
  store: IndexedDBStore;
  /** Every file a thread sees (workspace and memories), by path. */
  files(threadId: string): Promise<Record<string, FileData>>;
  /** Removes a thread's workspace files (memories stay). */
  deleteThreadFiles(threadId: string): Promise<number>;
  /** Writes files into a thread's workspace, keeping each file's `modifiedAt` (one transaction per timestamp). */
  uploadThreadFiles(threadId: string, files: Record<string, FileData>): Promise<void>;
}

export function createLayout(prefix = "deeptab"): Layout {
  const workspace = indexedDBBackend({ dbName: `${prefix}-files` });
  const store = new IndexedDBStore({ dbName: `${prefix}-store` });
  const backend = compositeBackend(workspace, { "/memories/": () => new StoreBackend(store, ["memories"]) });
  return {
    backend,
    store,
    async files(threadId) {
      const b = resolveBackend(backend, createBackendRuntime({}, { configurable: { thread_id: threadId } }));
      const listed = await b.glob("**/*", "/");
      if (isBackendError(listed)) return {};
      const downloads = await b.downloadFiles!(listed.map((f) => f.path));
      const out: Record<string, FileData> = {};
      for (const [i, d] of downloads.entries()) {
        if (d.content) out[d.path] = fileDataFromBytes(d.content, listed[i]!.modifiedAt ?? new Date(0).toISOString());
      }
      return out;
    },
    deleteThreadFiles: (threadId) => workspace.deleteScope(threadId),
    async uploadThreadFiles(threadId, files) {
      const byTime = new Map<string, Array<{ path: string; content: Uint8Array }>>();
      for (const [path, data] of Object.entries(files)) {
        const group = byTime.get(data.modifiedAt) ?? [];
        group.push({ path, content: fileDataToBytes(data) });
        byTime.set(data.modifiedAt, group);
      }
      for (const [time, group] of byTime) {
        const rt = createBackendRuntime({}, { configurable: { thread_id: threadId } }, () => time);
        await workspace(rt).uploadFiles(group);
      }
    },
  };
}
