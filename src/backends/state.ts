/**
 * StateBackend: files kept in graph state, scoped to the thread and
 * checkpointed with it. Reads see this call's own writes; writes land in
 * `runtime.pendingFiles` and reach state through the tool's update. A delete
 * is an explicit `null` marker, so it survives being merged into a parent's
 * state.
 */
import { byteLength } from "./file-ops.ts";
import { FileBackend } from "./file-backend.ts";
import { mapSnapshot, pathsBelow, stagedMutation, type FileStore, type FileTx, type StoredFile } from "./file-store.ts";
import type { FileData, FilesUpdate } from "./protocol.ts";
import type { BackendRuntime } from "./runtime.ts";
import { callLabel } from "./step-file-notes.ts";

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

/**
 * The files of a tool call: state as of the step, overlaid with the changes
 * of the step's calls so far (see step-files.ts); this call's own changes
 * are also recorded in its `pendingFiles`, which become its update.
 */
class StateFileStore implements FileStore {
  readonly #rt: BackendRuntime;

  constructor(runtime: BackendRuntime) {
    this.#rt = runtime;
  }

  async get(path: string): Promise<StoredFile | undefined> {
    const data = this.#rt.stepFiles.get(path);
    return data ? stored(data) : undefined;
  }

  async snapshot() {
    const files = new Map<string, StoredFile>();
    for (const [path, data] of this.#rt.stepFiles.entries()) files.set(path, stored(data));
    return mapSnapshot(files);
  }

  mutate<T>(_what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    const step = this.#rt.stepFiles;
    const base = {
      get: async (path: string) => step.get(path),
      isDir: async (dir: string) => step.isDir(dir),
      below: async (dir: string) =>
        pathsBelow(
          Array.from(step.entries(), ([path]) => path),
          dir,
        ),
    };
    const call = (this.#rt.config as { toolCall?: { name: string; id?: string } }).toolCall;
    const by = call && callLabel(call);
    return step.exclusive(() =>
      stagedMutation(base, body, (changes) => {
        for (const [path, data] of changes) {
          this.#rt.pendingFiles[path] = data;
          step.set(path, data, by);
        }
      }),
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
