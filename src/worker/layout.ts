/**
 * deeptab's filesystem layout in the worker (a CompositeBackend):
 *
 * | path                                             | backend                     | lifetime     |
 * |--------------------------------------------------|-----------------------------|--------------|
 * | `/` workspace, incl. `/uploads/`,                | IndexedDB files scoped to   | the thread   |
 * | `/large_tool_results/`, `/conversation_history/` | the thread (+ the sandbox)  |              |
 * | `/memories/`                                     | IndexedDB store             | all threads  |
 * | `/skills/`                                       | IndexedDB store             | all threads  |
 *
 * The workspace route is the active sandbox's backend (the offline shell or
 * WebContainer over the same IndexedDB files), so commands see the files.
 */
import { compositeBackend } from "../backends/composite.ts";
import { fileDataToBytes } from "../backends/file-ops.ts";
import { indexedDBBackend, type IndexedDBBackendFactory } from "../backends/indexeddb.ts";
import type { FileData } from "../backends/protocol.ts";
import {
  callIdentity,
  createBackendRuntime,
  resolveBackend,
  rootThreadId,
  type BackendFactory,
  type BackendRuntime,
} from "../backends/runtime.ts";
import { deleteStoreEffects, StoreBackend, storeStepGuard } from "../backends/store.ts";
import { IndexedDBStore } from "../storage/indexeddb-store.ts";
import { readAllFiles } from "./threads/files.ts";
import type { WorkspaceSnapshots } from "./threads/snapshots.ts";
import { ModelReplies } from "./runs/model-replies.ts";

/**
 * Paths under these prefixes are shared by every thread (not part of a thread's workspace or export): the routes of
 * the composite, each a reserved place no agent's starter file may aim at (agent-folders/reserved.ts; layout.test.ts).
 */
export const SHARED_ROUTES = ["/memories/", "/skills/"] as const;

export interface Layout {
  workspace: IndexedDBBackendFactory;
  store: IndexedDBStore;
  /** The whole filesystem with `workspaceRoute` (a sandbox over `workspace`, or `workspace` itself) at `/`. */
  backend(workspaceRoute: BackendFactory): BackendFactory;
  /** Every file a thread sees (workspace and shared routes), by path. */
  files(threadId: string): Promise<Record<string, FileData>>;
  /** Removes a thread's workspace files and its records of shared-file effects (memories and skills stay). */
  deleteThreadFiles(threadId: string): Promise<number>;
  /**
   * The workspace recorded at each turn's start and end (threads/snapshots.ts), in `store`; deleted with the thread's
   * files. One per layout, loaded on first use (a first turn's worker code does not carry it).
   */
  snapshots(): Promise<WorkspaceSnapshots>;
  /** Writes files into a thread's workspace, keeping each file's `modifiedAt` (one transaction per timestamp). */
  uploadThreadFiles(threadId: string, files: Record<string, FileData>): Promise<void>;
}

export function createLayout(prefix = "deeptab"): Layout {
  const workspace = indexedDBBackend({ dbName: `${prefix}-files` });
  const store = new IndexedDBStore({ dbName: `${prefix}-store` });
  const routes = {
    // Built per tool call (its identity), so a call re-run after a storage fault changes nothing twice.
    "/memories/": (rt: BackendRuntime) =>
      new StoreBackend(store, ["memories"], rt.now, callIdentity(rt.config), storeStepGuard(rt, store, ["memories"])),
    "/skills/": (rt: BackendRuntime) =>
      new StoreBackend(store, ["skills"], rt.now, callIdentity(rt.config), storeStepGuard(rt, store, ["skills"])),
  } satisfies Record<(typeof SHARED_ROUTES)[number], BackendFactory>;
  const backend = (workspaceRoute: BackendFactory) => compositeBackend(workspaceRoute, routes);
  const plain = backend(workspace);
  let snapshotsLoaded: Promise<WorkspaceSnapshots> | undefined;
  const snapshots = () => (snapshotsLoaded ??= import("./threads/snapshots.ts").then((m) => new m.WorkspaceSnapshots(store)));
  return {
    workspace,
    store,
    snapshots,
    backend,
    files: (threadId) => readAllFiles(resolveBackend(plain, createBackendRuntime({}, { configurable: { thread_id: threadId } }))),
    async deleteThreadFiles(threadId) {
      const own = (id: string) => rootThreadId(id) === threadId;
      for (const ns of ["memories", "skills"]) await deleteStoreEffects(store, [ns], own);
      // The thread's recorded workspace (threads/snapshots.ts) goes with it.
      await (await snapshots()).deleteThread(threadId);
      // So do its recorded model replies (runs/model-replies.ts).
      await new ModelReplies(store).deleteThread(threadId);
      return workspace.deleteScope(threadId);
    },
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
