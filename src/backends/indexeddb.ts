/**
 * IndexedDBBackend: a persistent workspace filesystem, one scope (deeptab: one
 * thread) per backend, with exactly StateBackend's semantics and messages.
 * Storage, the per-scope index that serves ls/read/grep/glob/download, and
 * the atomic mutations live in {@link IndexedDBFiles}.
 */
import {
  fileDataFromBytes,
  fileDataToBytes,
  globFiles,
  grepFiles,
  isImpliedDir,
  listChildren,
  newFileData,
  readSlice,
} from "./file-ops.ts";
import { IndexedDBFiles, type FilesTx, type IndexedDBFilesOptions, type ScopeIndex } from "./indexeddb-files.ts";
import { normalizePath } from "./paths.ts";
import {
  isBackendError,
  type BackendError,
  type BackendProtocol,
  type DownloadOutcome,
  type EditOutcome,
  type FileInfo,
  type GrepMatch,
  type Outcome,
  type ReadSlice,
  type UploadOutcome,
} from "./protocol.ts";
import { rootThreadId, type BackendFactory, type BackendRuntime } from "./runtime.ts";
import { alreadyExists, directoryNotFound, editedFileData, isDirectoryError, notFound } from "./file-errors.ts";

export { IndexedDBFiles, DEFAULT_FILES_DB, type IndexedDBFilesOptions } from "./indexeddb-files.ts";

function* metaEntries(index: ScopeIndex): Iterable<[string, { size: number; modifiedAt: string }]> {
  for (const [path, file] of index) yield [path, { size: file.size, modifiedAt: file.data.modifiedAt }];
}

async function missingInTx(tx: FilesTx, path: string): Promise<BackendError> {
  return (await tx.isDir(path)) ? isDirectoryError(path) : notFound(path);
}

function missingIn(index: ScopeIndex, path: string): BackendError {
  return isImpliedDir(path, index.keys()) ? isDirectoryError(path) : notFound(path);
}

/**
 * Files of one scope in IndexedDB. Expected failures are {@link BackendError}
 * values, as for every backend. Each mutation (write, edit, delete, a whole
 * `uploadFiles` call) is one readwrite transaction: all of it or nothing.
 *
 * @throws {StorageError} only for an unavailable medium: `unavailable` when
 *   IndexedDB is missing or refuses to open; `quota_exceeded` when a mutation
 *   ran out of storage quota (rolled back: the file is unchanged; thrown, not
 *   returned, since {@link BackendErrorCode} has no quota code and the agent
 *   cannot fix it); `transaction_failed` when IndexedDB failed otherwise.
 */
export class IndexedDBBackend implements BackendProtocol {
  readonly scope: string;
  readonly files: IndexedDBFiles;
  readonly #now: () => string;

  constructor(files: IndexedDBFiles, scope = "default", now: () => string = () => new Date().toISOString()) {
    this.files = files;
    this.scope = scope;
    this.#now = now;
  }

  #index(): Promise<ScopeIndex> {
    return this.files.index(this.scope);
  }

  #mutate<T>(what: string, body: (tx: FilesTx) => Promise<T>): Promise<T> {
    return this.files.mutate(this.scope, what, body);
  }

  async ls(raw: string): Promise<Outcome<FileInfo[]>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const index = await this.#index();
    const file = index.get(path);
    if (file) return [{ path, isDir: false, size: file.size }];
    if (!isImpliedDir(path, index.keys())) return directoryNotFound(path);
    return listChildren(path, metaEntries(index));
  }

  async read(raw: string, offset = 0, limit = 100): Promise<Outcome<ReadSlice>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const index = await this.#index();
    const file = index.get(path);
    return file ? readSlice(path, file.data, offset, limit) : missingIn(index, path);
  }

  async write(raw: string, content: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    return this.#mutate(`write ${path}`, async (tx) => {
      if (path === "/" || (await tx.isDir(path))) return isDirectoryError(path);
      if (await tx.get(path)) return alreadyExists(path);
      await tx.put(path, newFileData(content, this.#now()));
      return { path };
    });
  }

  async edit(raw: string, oldString: string, newString: string, replaceAll = false): Promise<Outcome<EditOutcome>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    return this.#mutate(`edit ${path}`, async (tx): Promise<Outcome<EditOutcome>> => {
      const data = await tx.get(path);
      if (!data) return missingInTx(tx, path);
      const edited = editedFileData(path, data, oldString, newString, replaceAll, this.#now());
      if (isBackendError(edited)) return edited;
      await tx.put(path, edited.data);
      return { path, occurrences: edited.occurrences };
    });
  }

  async delete(raw: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    return this.#mutate(`delete ${path}`, async (tx): Promise<Outcome<{ path: string }>> => {
      if (!(await tx.get(path))) return missingInTx(tx, path);
      await tx.delete(path);
      return { path };
    });
  }

  async grep(pattern: string, raw = "/", glob?: string): Promise<Outcome<GrepMatch[]>> {
    const root = normalizePath(raw);
    return isBackendError(root) ? root : grepFiles(await this.#index(), (f) => f.data, pattern, root, glob);
  }


  async glob(pattern: string, raw = "/"): Promise<Outcome<FileInfo[]>> {
    const root = normalizePath(raw);
    return isBackendError(root) ? root : globFiles(await this.#index(), (f) => ({ size: f.size, modifiedAt: f.data.modifiedAt }), pattern, root);
  }


  /** All files in one transaction: either every valid one is stored or (on a thrown storage error) none. */
  async uploadFiles(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]> {
    return this.#mutate(`upload ${files.length} files`, async (tx) => {
      const out: UploadOutcome[] = [];
      for (const { path: raw, content } of files) {
        const path = normalizePath(raw);
        if (isBackendError(path)) {
          out.push({ path: raw, error: path.error });
          continue;
        }
        if (path === "/" || (await tx.isDir(path))) {
          out.push({ path, error: "is_directory" });
          continue;
        }
        const prev = await tx.get(path);
        await tx.put(path, fileDataFromBytes(content, this.#now(), prev?.createdAt));
        out.push({ path });
      }
      return out;
    });
  }

  async downloadFiles(paths: string[]): Promise<DownloadOutcome[]> {
    const index = await this.#index();
    return paths.map((raw) => {
      const path = normalizePath(raw);
      if (isBackendError(path)) return { path: raw, error: path.error };
      const file = index.get(path);
      if (!file) return { path, error: isImpliedDir(path, index.keys()) ? ("is_directory" as const) : ("file_not_found" as const) };
      return { path, content: fileDataToBytes(file.data) };
    });
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
  const factory = (rt: BackendRuntime) => new IndexedDBBackend(files, scopeOf(rt), rt.now);
  return Object.assign(factory, {
    files,
    deleteScope: (scope: string) => files.deleteScope(scope),
    listScopes: () => files.listScopes(),
    close: () => files.close(),
  });
}
