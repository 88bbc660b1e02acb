import {
  byteLength,
  fileDataFromBytes,
  fileDataToBytes,
  fileInfoOf,
  globFiles,
  grepFiles,
  isImpliedDir,
  listChildren,
  newFileData,
  readSlice,
} from "./file-ops.ts";
import { alreadyExists, directoryNotFound, editedFileData, isDirectoryError, notFound } from "./file-errors.ts";
import { normalizePath } from "./paths.ts";
import {
  isBackendError,
  type BackendProtocol,
  type DownloadOutcome,
  type EditOutcome,
  type FileData,
  type FileInfo,
  type GrepMatch,
  type Outcome,
  type ReadSlice,
  type UploadOutcome,
} from "./protocol.ts";
import type { BackendRuntime } from "./runtime.ts";

export { isDirectoryError, notFound } from "./file-errors.ts";

/**
 * Files kept in graph state, scoped to the thread and checkpointed with it.
 * Reads see this call's own writes; writes land in `runtime.pendingFiles` and
 * reach state through the tool's update. A delete is an explicit `null`
 * marker, so it survives being merged into a parent's state.
 */
export class StateBackend implements BackendProtocol {
  readonly #rt: BackendRuntime;

  constructor(runtime: BackendRuntime) {
    this.#rt = runtime;
  }

  #get(path: string): FileData | undefined {
    if (path in this.#rt.pendingFiles) return this.#rt.pendingFiles[path] ?? undefined;
    return this.#rt.stateFiles[path];
  }

  *#entries(): Iterable<[string, FileData]> {
    for (const [path, data] of Object.entries(this.#rt.stateFiles)) {
      if (!(path in this.#rt.pendingFiles)) yield [path, data];
    }
    for (const [path, data] of Object.entries(this.#rt.pendingFiles)) if (data) yield [path, data];
  }

  *#paths(): Iterable<string> {
    for (const [path] of this.#entries()) yield path;
  }

  #set(path: string, data: FileData | null): void {
    this.#rt.pendingFiles[path] = data;
  }

  async ls(rawPath: string): Promise<Outcome<FileInfo[]>> {
    const path = normalizePath(rawPath);
    if (isBackendError(path)) return path;
    if (this.#get(path)) return [{ path, isDir: false, size: byteLength(this.#get(path)!) }];
    if (!isImpliedDir(path, this.#paths())) {
      return directoryNotFound(path);
    }
    return listChildren(path, this.#metaEntries());
  }

  *#metaEntries(): Iterable<[string, { size: number; modifiedAt: string }]> {
    for (const [path, data] of this.#entries()) yield [path, fileInfoOf(data)];
  }

  async read(rawPath: string, offset = 0, limit = 100): Promise<Outcome<ReadSlice>> {
    const path = normalizePath(rawPath);
    if (isBackendError(path)) return path;
    const data = this.#get(path);
    if (!data) return isImpliedDir(path, this.#paths()) ? isDirectoryError(path) : notFound(path);
    return readSlice(path, data, offset, limit);
  }

  async write(rawPath: string, content: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(rawPath);
    if (isBackendError(path)) return path;
    if (path === "/" || isImpliedDir(path, this.#paths())) return isDirectoryError(path);
    if (this.#get(path)) {
      return alreadyExists(path);
    }
    this.#set(path, newFileData(content, this.#rt.now()));
    return { path };
  }

  async edit(rawPath: string, oldString: string, newString: string, replaceAll = false): Promise<Outcome<EditOutcome>> {
    const path = normalizePath(rawPath);
    if (isBackendError(path)) return path;
    const data = this.#get(path);
    if (!data) return isImpliedDir(path, this.#paths()) ? isDirectoryError(path) : notFound(path);
    const edited = editedFileData(path, data, oldString, newString, replaceAll, this.#rt.now());
    if (isBackendError(edited)) return edited;
    this.#set(path, edited.data);
    return { path, occurrences: edited.occurrences };
  }

  async grep(pattern: string, rawPath = "/", glob?: string): Promise<Outcome<GrepMatch[]>> {
    const root = normalizePath(rawPath);
    return isBackendError(root) ? root : grepFiles(this.#entries(), (d) => d, pattern, root, glob);
  }


  async glob(pattern: string, rawPath = "/"): Promise<Outcome<FileInfo[]>> {
    const root = normalizePath(rawPath);
    return isBackendError(root) ? root : globFiles(this.#entries(), fileInfoOf, pattern, root);
  }


  async delete(rawPath: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(rawPath);
    if (isBackendError(path)) return path;
    if (!this.#get(path)) return isImpliedDir(path, this.#paths()) ? isDirectoryError(path) : notFound(path);
    this.#set(path, null);
    return { path };
  }

  async uploadFiles(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]> {
    return files.map(({ path: raw, content }) => {
      const path = normalizePath(raw);
      if (isBackendError(path)) return { path: raw, error: path.error };
      if (path === "/" || isImpliedDir(path, this.#paths())) return { path, error: "is_directory" as const };
      const prev = this.#get(path);
      this.#set(path, fileDataFromBytes(content, this.#rt.now(), prev?.createdAt));
      return { path };
    });
  }

  async downloadFiles(paths: string[]): Promise<DownloadOutcome[]> {
    return paths.map((raw) => {
      const path = normalizePath(raw);
      if (isBackendError(path)) return { path: raw, error: path.error };
      const data = this.#get(path);
      if (!data) return { path, error: isImpliedDir(path, this.#paths()) ? ("is_directory" as const) : ("file_not_found" as const) };
      return { path, content: fileDataToBytes(data) };
    });
  }
}

/** The `files` channel reducer: merge, with `null` deleting. */
export function filesReducer(
  current: Record<string, FileData> | undefined,
  update: Record<string, FileData | null> | undefined,
): Record<string, FileData> {
  const next: Record<string, FileData> = { ...(current ?? {}) };
  for (const [path, data] of Object.entries(update ?? {})) {
    if (data === null) delete next[path];
    else next[path] = data;
  }
  return next;
}
