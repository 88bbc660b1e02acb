/**
 * FileBackend: the backend protocol implemented once, over any
 * {@link FileStore}. Every file backend (graph state, LangGraph store,
 * IndexedDB, the shell's own files) is this class plus a store adapter, so
 * paths, error values and edge cases are the same everywhere.
 *
 * Beyond the protocol's contract it guarantees:
 * - a path cannot be both a file and a directory: writing below a file, or a
 *   file where a directory is implied, is refused;
 * - paths are compared after Unicode NFC normalization (see paths.ts);
 * - every mutation is one atomic unit of the store;
 * - `write` creates a missing file or replaces an existing one whole
 *   (deepagentsjs 1.12, #674);
 * - `write` and `edit` never make a file over `MAX_FILE_WRITE_BYTES` (file-ops.ts;
 *   `file_too_large`, nothing written); `uploadFiles` (the user's uploads,
 *   imports) is not held to it;
 * - `addFiles` writes a batch all or none, never over a file with other
 *   content (an agent's seed files: worker/threads/thread-agents.ts);
 * - given the step's {@link StepGuard} (stores shared beyond graph state), a
 *   write or delete of a file a sibling call changed after the version this
 *   call knew is merged or refused with `conflict`, never a silent lost
 *   update (step-guard.ts);
 * - write, edit and delete are each their tool call's effect (`once`): run
 *   again by the same call, they answer what they answered the first time
 *   on a store that records it (see FileStore).
 */
import { checkedNewContent, directoryNotFound, editedFileData, fileAncestorError, isDirectoryError, notFound } from "./file-errors.ts";
import { fileDataFromBytes, fileDataToBytes, globFiles, grepFiles, listChildren, newFileData, readSlice } from "./file-ops.ts";
import type { FileSnapshot, FileStore, FileTx } from "./file-store.ts";
import { normalizePath } from "./paths.ts";
import { sameBytes } from "../core/bytes.ts";
import { err, ok, type Result } from "../core/result.ts";
import { guardedDelete, guardedWrite, guardReady, noteChange, type StepGuard } from "./step-guard.ts";
import {
  backendError,
  isBackendError,
  type BackendError,
  type BackendProtocol,
  type DeleteOptions,
  type DownloadOutcome,
  type EditOutcome,
  type FileInfo,
  type GrepMatch,
  type Outcome,
  type ReadSlice,
  type UploadOutcome,
} from "./protocol.ts";

/** A file {@link FileBackend.addFiles} refused: its path and why (`already_exists`, `is_directory`, `invalid_path`…). */
export interface AddFilesRefusal extends BackendError {
  readonly path: string;
}

/** The proper ancestors of a normalized path, nearest last ("/a/b/c" → "/a", "/a/b"). */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf("/", 1); i !== -1; i = path.indexOf("/", i + 1)) out.push(path.slice(0, i));
  return out;
}

/** Why `path` cannot hold a new file in this unit, if it cannot. */
async function placementError(tx: FileTx, path: string): Promise<BackendError | undefined> {
  if (path === "/" || (await tx.isDir(path))) return isDirectoryError(path);
  for (const dir of ancestors(path)) if (await tx.get(dir)) return fileAncestorError(path, dir);
  return undefined;
}

function missingIn(snapshot: FileSnapshot, path: string): BackendError {
  return snapshot.isDir(path) ? isDirectoryError(path) : notFound(path);
}

async function missingInTx(tx: FileTx, path: string): Promise<BackendError> {
  return (await tx.isDir(path)) ? isDirectoryError(path) : notFound(path);
}

/** Mutations made for a tool call: a re-run of the call returns the first run's result (see FileStore's contract). */
const ONCE = { once: true } as const;

export class FileBackend implements BackendProtocol {
  /** The storage under this backend (a shell runs its commands over the same store). */
  readonly store: FileStore;
  readonly #store: FileStore;
  readonly #now: () => string;
  readonly #guard: StepGuard | undefined;
  /** The step guard it was built with (a shell over these files takes it on). */
  get stepGuard(): StepGuard | undefined {
    return this.#guard;
  }

  /** `guard`: the step's ledger as this call sees it, for a store shared by the step's calls (see step-guard.ts). */
  constructor(store: FileStore, now: () => string = () => new Date().toISOString(), guard?: StepGuard) {
    this.store = store;
    this.#store = store;
    this.#now = now;
    this.#guard = guard;
  }

  async ls(raw: string): Promise<Outcome<FileInfo[]>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const file = await this.#store.get(path);
    if (file) return [{ path, isDir: false, size: file.size }];
    const snapshot = await this.#store.snapshot();
    if (!snapshot.isDir(path)) return directoryNotFound(path);
    return listChildren(path, snapshot.entries());
  }

  async read(raw: string, offset = 0, limit = 100): Promise<Outcome<ReadSlice>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const file = await this.#store.get(path);
    if (file) return readSlice(path, file.data, offset, limit);
    return missingIn(await this.#store.snapshot(), path);
  }

  async write(raw: string, content: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const tooLarge = checkedNewContent(path, content);
    if (tooLarge) return tooLarge;
    const algorithm = await guardReady(this.#guard);
    return this.#store.mutate(
      `write ${path}`,
      async (tx): Promise<Outcome<{ path: string }>> => {
        // An existing file is replaced whole, keeping its creation time (deepagentsjs #674).
        const prev = await tx.get(path);
        const refused = prev ? undefined : await placementError(tx, path);
        if (refused) return refused;
        const now = this.#now();
        const data = guardedWrite(this.#guard, algorithm, path, prev ?? null, newFileData(content, now, prev?.createdAt ?? now));
        if (isBackendError(data)) return data;
        await tx.put(path, data);
        noteChange(this.#guard, path, prev ?? null, data);
        return { path };
      },
      ONCE,
    );
  }

  async edit(raw: string, oldString: string, newString: string, replaceAll = false): Promise<Outcome<EditOutcome>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    return this.#store.mutate(
      `edit ${path}`,
      async (tx): Promise<Outcome<EditOutcome>> => {
        const data = await tx.get(path);
        if (!data) return missingInTx(tx, path);
        const edited = editedFileData(path, data, oldString, newString, replaceAll, this.#now());
        if (isBackendError(edited)) return edited;
        await tx.put(path, edited.data);
        noteChange(this.#guard, path, data, edited.data);
        return { path, occurrences: edited.occurrences };
      },
      ONCE,
    );
  }

  /** A file, or a directory with every file below it (directories are implied, so an emptied one is gone too). */
  async delete(raw: string, options: DeleteOptions = {}): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    return this.#store.mutate(
      `delete ${path}`,
      async (tx): Promise<Outcome<{ path: string }>> => {
        const paths = (await tx.get(path)) ? [path] : await tx.below(path);
        if (paths.length === 0) return notFound(path);
        const refused = options.refuse?.(paths);
        if (refused) return refused;
        const current = await Promise.all(paths.map(async (p) => (await tx.get(p)) ?? null));
        for (const [i, p] of paths.entries()) {
          const clash = guardedDelete(this.#guard, p, current[i]!);
          if (clash) return clash;
        }
        for (const [i, p] of paths.entries()) {
          await tx.delete(p);
          noteChange(this.#guard, p, current[i]!, null);
        }
        return { path };
      },
      ONCE,
    );
  }

  async grep(pattern: string, raw = "/", glob?: string): Promise<Outcome<GrepMatch[]>> {
    const root = normalizePath(raw);
    if (isBackendError(root)) return root;
    return grepFiles((await this.#store.snapshot()).entries(), pattern, root, glob);
  }

  async glob(pattern: string, raw = "/"): Promise<Outcome<FileInfo[]>> {
    const root = normalizePath(raw);
    if (isBackendError(root)) return root;
    return globFiles((await this.#store.snapshot()).entries(), pattern, root);
  }

  /** All files in one unit of the store: every valid one is stored, or (on a thrown storage error) none. */
  async uploadFiles(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]> {
    return this.#store.mutate(`upload ${files.length} files`, async (tx) => {
      const out: UploadOutcome[] = [];
      for (const { path: raw, content } of files) {
        const path = normalizePath(raw);
        if (isBackendError(path)) {
          out.push({ path: raw, error: path.error });
          continue;
        }
        const prev = await tx.get(path);
        const refused = prev ? undefined : await placementError(tx, path);
        if (refused) {
          out.push({ path, error: refused.error });
          continue;
        }
        await tx.put(path, fileDataFromBytes(content, this.#now(), prev?.createdAt));
        out.push({ path });
      }
      return out;
    });
  }

  /**
   * Adds files in one unit of the store, all or none: nothing is written when any path is invalid, cannot hold a
   * file (a folder there, a file above it, two of the batch one inside the other) or already holds a file with other
   * content, which is never overwritten (`already_exists`; one with the same bytes is left as it is). A storage
   * failure mid-batch (quota) throws with nothing written, as every mutation does. Returns the paths written, or every
   * refused path with its reason.
   */
  async addFiles(files: ReadonlyArray<{ path: string; content: Uint8Array }>): Promise<Result<string[], AddFilesRefusal[]>> {
    const refused: AddFilesRefusal[] = [];
    const batch = new Map<string, Uint8Array>();
    for (const { path: raw, content } of files) {
      const path = normalizePath(raw);
      if (isBackendError(path)) refused.push({ path: raw, ...path });
      else if (batch.has(path)) refused.push({ path, error: "invalid_argument", message: `${path} appears twice in the batch` });
      else batch.set(path, content);
    }
    for (const path of batch.keys()) {
      const above = ancestors(path).find((dir) => batch.has(dir));
      if (above) refused.push({ path, ...fileAncestorError(path, above) });
    }
    return this.#store.mutate(`add ${batch.size} files`, async (tx): Promise<Result<string[], AddFilesRefusal[]>> => {
      const puts: Array<[string, Uint8Array]> = [];
      for (const [path, content] of batch) {
        const prev = await tx.get(path);
        if (prev && sameBytes(fileDataToBytes(prev), content)) continue;
        const why = prev ? backendError("already_exists", `${path} already exists (with other content)`) : await placementError(tx, path);
        if (why) refused.push({ path, ...why });
        else puts.push([path, content]);
      }
      if (refused.length) return err(refused);
      const now = this.#now();
      for (const [path, content] of puts) await tx.put(path, fileDataFromBytes(content, now));
      return ok(puts.map(([path]) => path));
    });
  }

  async downloadFiles(paths: string[]): Promise<DownloadOutcome[]> {
    let snapshot: FileSnapshot | undefined;
    const out: DownloadOutcome[] = [];
    for (const raw of paths) {
      const path = normalizePath(raw);
      if (isBackendError(path)) {
        out.push({ path: raw, error: path.error });
        continue;
      }
      const file = await this.#store.get(path);
      if (file) {
        out.push({ path, content: fileDataToBytes(file.data) });
        continue;
      }
      snapshot ??= await this.#store.snapshot();
      out.push({ path, error: snapshot.isDir(path) ? "is_directory" : "file_not_found" });
    }
    return out;
  }
}
