/**
 * The files the offline shell's file tools see: the workspace store, with `/tmp` served by the shell session's
 * scratch store and the session's empty directories (made with `mkdir`) counted as directories, so `write_file`,
 * `read_file`, `ls` and `cat`, `mkdir` agree on one tree, as they do in deepagentsjs' sandboxes (one filesystem
 * for the tools and the shell). shell-fs.ts is the shell's side of the same routing.
 */
import { mapSnapshot, type FileSnapshot, type FileStore, type FileTx, type MutateOptions, type StoredFile } from "../file-store.ts";
import { isWithin } from "../paths.ts";
import type { ShellSession } from "./shell-session.ts";

/** A normalized path in the session's /tmp. */
function isTmpPath(path: string): boolean {
  return path === "/tmp" || path.startsWith("/tmp/");
}

/** Is `dir` one of the session's empty directories, or above one? */
function sessionHoldsDir(session: ShellSession, dir: string): boolean {
  if (dir === "/tmp") return true;
  for (const d of session.dirs.keys()) if (isWithin(d, dir)) return true;
  return false;
}

export class ShellFileStore implements FileStore {
  readonly #workspace: FileStore;
  readonly #session: ShellSession;

  constructor(workspace: FileStore, session: ShellSession) {
    this.#workspace = workspace;
    this.#session = session;
  }

  #storeOf(path: string): FileStore {
    return isTmpPath(path) ? this.#session.tmp : this.#workspace;
  }

  get(path: string): Promise<StoredFile | undefined> {
    return this.#storeOf(path).get(path);
  }

  async snapshot(): Promise<FileSnapshot> {
    const [workspace, tmp] = await Promise.all([this.#workspace.snapshot(), this.#session.tmp.snapshot()]);
    const files = new Map<string, StoredFile>();
    // Workspace files under /tmp (written before /tmp was the session's) are shadowed, as the shell never saw them.
    for (const [path, file] of workspace.entries()) if (!isTmpPath(path)) files.set(path, file);
    for (const [path, file] of tmp.entries()) files.set(path, file);
    const merged = mapSnapshot(files);
    return { ...merged, isDir: (dir) => merged.isDir(dir) || sessionHoldsDir(this.#session, dir) };
  }

  /**
   * One unit over both stores: the workspace's unit around the scratch store's, so a failing body changes
   * neither; the scratch store commits first (in memory), so a workspace commit that fails after it (storage
   * refused) can leave a /tmp change, which is scratch.
   */
  mutate<T>(what: string, body: (tx: FileTx) => Promise<T>, options?: MutateOptions): Promise<T> {
    return this.#workspace.mutate(
      what,
      (ws) =>
        this.#session.tmp.mutate(what, (tmp) => {
          const of = (path: string) => (isTmpPath(path) ? tmp : ws);
          return body({
            get: (path) => of(path).get(path),
            isDir: async (dir) => sessionHoldsDir(this.#session, dir) || (await of(dir).isDir(dir)),
            below: async (dir) => {
              if (isTmpPath(dir)) return tmp.below(dir);
              const [inWorkspace, inTmp] = await Promise.all([ws.below(dir), dir === "/" ? tmp.below("/tmp") : []]);
              return [...inWorkspace.filter((p) => !isTmpPath(p)), ...inTmp].sort();
            },
            put: (path, data) => of(path).put(path, data),
            delete: (path) => of(path).delete(path),
          });
        }),
      options,
    );
  }
}
