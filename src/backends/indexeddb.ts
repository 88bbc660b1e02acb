/**
 * IndexedDBBackend: a persistent workspace filesystem, one scope (deeptab: one
 * thread) per backend, with exactly StateBackend's semantics and messages
 * (both are {@link FileBackend}). Storage, the per-scope index that serves
 * ls/read/grep/glob/download, and the atomic mutations live in
 * {@link IndexedDBFiles}.
 */
import { FileBackend } from "./file-backend.ts";
import { mapSnapshot, type FileStore, type FileTx, type MutateOptions } from "./file-store.ts";
import { IndexedDBFiles, type IndexedDBFilesOptions } from "./indexeddb-files.ts";
import { stepGuard, type StepGuard } from "./step-guard.ts";
import { callIdentity, rootThreadId, type BackendFactory, type BackendRuntime, type CallIdentity } from "./runtime.ts";

export { IndexedDBFiles, type IndexedDBFilesOptions } from "./indexeddb-files.ts";

class ScopeFileStore implements FileStore {
  readonly #files: IndexedDBFiles;
  readonly #scope: string;
  readonly #call: CallIdentity | undefined;

  constructor(files: IndexedDBFiles, scope: string, call: CallIdentity | undefined) {
    this.#files = files;
    this.#scope = scope;
    this.#call = call;
  }

  async get(path: string) {
    return (await this.#files.index(this.#scope)).get(path);
  }

  async snapshot() {
    return mapSnapshot(await this.#files.index(this.#scope));
  }

  mutate<T>(what: string, body: (tx: FileTx) => Promise<T>, options?: MutateOptions): Promise<T> {
    return this.#files.mutate(this.#scope, what, body, options?.once ? this.#call : undefined);
  }
}

/**
 * Files of one scope in IndexedDB. Expected failures are BackendError values,
 * as for every backend. Each mutation (write, edit, delete, a whole
 * `uploadFiles` call) is one readwrite transaction: all of it or nothing.
 * Built for a tool call (`call`), its write, edit and delete are recorded
 * with their result, so the call re-run after a fault answers as it did and
 * changes nothing twice (see IndexedDBFiles' effect records).
 *
 * @throws {StorageError} only for an unavailable medium: `unavailable` when
 *   IndexedDB is missing or refuses to open; `quota_exceeded` when a mutation
 *   ran out of storage quota (rolled back: the file is unchanged; thrown, not
 *   returned, since the agent cannot fix it); `transaction_failed` when
 *   IndexedDB failed otherwise.
 */
export class IndexedDBBackend extends FileBackend {
  readonly scope: string;
  readonly files: IndexedDBFiles;

  constructor(
    files: IndexedDBFiles,
    scope = "default",
    now: () => string = () => new Date().toISOString(),
    call?: CallIdentity,
    guard?: StepGuard,
  ) {
    super(new ScopeFileStore(files, scope, call), now, guard);
    this.files = files;
    this.scope = scope;
  }
}

export interface IndexedDBBackendOptions extends IndexedDBFilesOptions {
  /** The scope of a call; default `rt.config.configurable.thread_id ?? "default"`. */
  scope?: (rt: BackendRuntime) => string;
}

/** A {@link BackendFactory} sharing one {@link IndexedDBFiles} across calls, plus scope management. */
export interface IndexedDBBackendFactory extends BackendFactory {
  (runtime: BackendRuntime): IndexedDBBackend;
  readonly files: IndexedDBFiles;
  /** Deletes every file of a scope (when its thread is deleted); returns how many. */
  deleteScope(scope: string): Promise<number>;
  /** Scopes holding at least one file, sorted. */
  listScopes(): Promise<string[]>;
  close(): Promise<void>;
}

/** The scope of a call: its thread, with subagents sharing their parent's workspace. */
export function threadScope(rt: BackendRuntime): string {
  const id: unknown = rt.config.configurable?.thread_id;
  return rootThreadId(typeof id === "string" || typeof id === "number" ? String(id) : "default");
}

/**
 * `backend: indexedDBBackend()` gives each tool call an {@link IndexedDBBackend}
 * for its thread; every call shares one connection and one index cache.
 */
export function indexedDBBackend(options: IndexedDBBackendOptions = {}): IndexedDBBackendFactory {
  const files = new IndexedDBFiles(options);
  const scopeOf = options.scope ?? threadScope;
  const factory = (rt: BackendRuntime) => {
    const scope = scopeOf(rt);
    return new IndexedDBBackend(files, scope, rt.now, callIdentity(rt.config), stepGuard(rt, files, scope));
  };
  return Object.assign(factory, {
    files,
    deleteScope: (scope: string) => files.deleteScope(scope),
    listScopes: () => files.listScopes(),
    close: () => files.close(),
  });
}
