/**
 * StateBackend: files kept in graph state, scoped to the thread and
 * checkpointed with it. Reads see this call's own writes; writes land in
 * `runtime.pendingFiles` and reach state through the tool's update. A delete
 * is an explicit `null` marker, so it survives being merged into a parent's
 * state.
 */
import { byteLength } from "./file-ops.ts";
import { FileBackend } from "./file-backend.ts";
import { mapSnapshot, stagedMutation, type FileStore, type FileTx, type StoredFile } from "./file-store.ts";
import type { FileData, FilesUpdate } from "./protocol.ts";
import type { BackendRuntime } from "./runtime.ts";

const sizes = new WeakMap<FileData, number>();

/** A stored file whose byte size is computed (once per FileData) only when asked for. */
function stored(data: FileData): StoredFile {
  return {
    data,
    get size() {
      let n = sizes.get(data);
      if (n === undefined) sizes.set(data, (n = byteLength(data)));
      return n;
    },
  };
}

/** The files of a tool call: state as of the step, overlaid with the call's pending changes. */
class StateFileStore implements FileStore {
  readonly #rt: BackendRuntime;

  constructor(runtime: BackendRuntime) {
    this.#rt = runtime;
  }

  #data(path: string): FileData | undefined {
    if (path in this.#rt.pendingFiles) return this.#rt.pendingFiles[path] ?? undefined;
    return this.#rt.stateFiles[path];
  }

  async get(path: string): Promise<StoredFile | undefined> {
    const data = this.#data(path);
    return data ? stored(data) : undefined;
  }

  async snapshot() {
    const files = new Map<string, StoredFile>();
    for (const [path, data] of Object.entries(this.#rt.stateFiles)) {
      if (!(path in this.#rt.pendingFiles)) files.set(path, stored(data));
    }
    for (const [path, data] of Object.entries(this.#rt.pendingFiles)) if (data) files.set(path, stored(data));
    return mapSnapshot(files);
  }

  mutate<T>(_what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    return stagedMutation(
      { get: async (path) => this.#data(path), isDir: async (dir) => (await this.snapshot()).isDir(dir) },
      body,
      (changes) => {
        for (const [path, data] of changes) this.#rt.pendingFiles[path] = data;
      },
    );
  }
}

export class StateBackend extends FileBackend {
  constructor(runtime: BackendRuntime) {
    super(new StateFileStore(runtime), runtime.now);
  }
}

/** The `files` channel reducer: merge, with `null` deleting. */
export function filesReducer(current: Record<string, FileData> | undefined, update: FilesUpdate | undefined): Record<string, FileData> {
  const next: Record<string, FileData> = { ...(current ?? {}) };
  for (const [path, data] of Object.entries(update ?? {})) {
    if (data === null) delete next[path];
    else next[path] = data;
  }
  return next;
}
