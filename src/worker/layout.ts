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
import { fileDataFromBytes } from "../backends/file-ops.ts";
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
  };
}
