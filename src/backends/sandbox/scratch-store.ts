/**
 * ScratchStore: the offline shell's `/tmp`, a {@link FileStore} in memory with
 * a cap on the bytes it holds altogether. A mutation that would take it over
 * the cap fails as a whole (`ENOSPC`, nothing of it applied), so a command
 * that doubles a file in `/tmp` until memory runs out stops at the cap with a
 * clear error instead of taking the worker down.
 */
import { byteLength } from "../file-ops.ts";
import { mapSnapshot, pathsBelow, stagedMutation, type FileSnapshot, type FileStore, type FileTx, type StoredFile } from "../file-store.ts";

/** `/tmp` of one shell session holds at most this many bytes (64 MiB). */
export const DEFAULT_MAX_SCRATCH_BYTES = 64 * 1024 * 1024;

export class ScratchStore implements FileStore {
  readonly maxBytes: number;
  readonly #files = new Map<string, StoredFile>();
  #bytes = 0;

  constructor(maxBytes = DEFAULT_MAX_SCRATCH_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Drops every file (the session ended). */
  clear(): void {
    this.#files.clear();
    this.#bytes = 0;
  }

  async get(path: string): Promise<StoredFile | undefined> {
    return this.#files.get(path);
  }

  async snapshot(): Promise<FileSnapshot> {
    return mapSnapshot(new Map(this.#files));
  }

  /** @throws an `ENOSPC` error (with `code`) when the unit would take `/tmp` over {@link maxBytes}; nothing is applied. */
  mutate<T>(what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    const snapshot = mapSnapshot(this.#files);
    return stagedMutation(
      {
        get: async (path) => this.#files.get(path)?.data,
        isDir: async (dir) => snapshot.isDir(dir),
        below: async (dir) => pathsBelow(this.#files.keys(), dir),
      },
      body,
      (changes) => {
        let bytes = this.#bytes;
        const sized: Array<[string, StoredFile | null]> = [];
        for (const [path, data] of changes) {
          const file = data ? { data, size: byteLength(data) } : null;
          bytes += (file?.size ?? 0) - (this.#files.get(path)?.size ?? 0);
          sized.push([path, file]);
        }
        if (bytes > this.maxBytes) {
          const mb = Math.round(this.maxBytes / 1024 / 1024);
          throw Object.assign(new Error(`ENOSPC: no space left on device: /tmp holds at most ${mb} MB, ${what}`), { code: "ENOSPC" });
        }
        for (const [path, file] of sized) {
          if (file) this.#files.set(path, file);
          else this.#files.delete(path);
        }
        this.#bytes = bytes;
      },
    );
  }
}
