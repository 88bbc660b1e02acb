/**
 * MemoryFileStore: a FileStore in a Map, for backends whose files live only
 * as long as the object (the offline shell's default, tests). Mutations are
 * staged and applied together, so a failing one changes nothing.
 */
import { byteLength } from "./file-ops.ts";
import { exclusive, mapSnapshot, pathsBelow, stagedMutation, type FileStore, type FileTx, type StoredFile } from "./file-store.ts";
import type { FileData } from "./protocol.ts";

export class MemoryFileStore implements FileStore {
  readonly #files = new Map<string, StoredFile>();

  constructor(initial: Record<string, FileData> = {}) {
    for (const [path, data] of Object.entries(initial)) this.#files.set(path, { data, size: byteLength(data) });
  }

  async get(path: string): Promise<StoredFile | undefined> {
    return this.#files.get(path);
  }

  async snapshot() {
    return mapSnapshot(new Map(this.#files));
  }

  mutate<T>(_what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    // One unit at a time: a unit awaits between its reads and its commit.
    return exclusive(this, "", () => this.#mutate(body));
  }

  #mutate<T>(body: (tx: FileTx) => Promise<T>): Promise<T> {
    const snapshot = mapSnapshot(this.#files);
    return stagedMutation(
      {
        get: async (path) => this.#files.get(path)?.data,
        isDir: async (dir) => snapshot.isDir(dir),
        below: async (dir) => pathsBelow(this.#files.keys(), dir),
      },
      body,
      (changes) => {
        for (const [path, data] of changes) {
          if (data) this.#files.set(path, { data, size: byteLength(data) });
          else this.#files.delete(path);
        }
      },
    );
  }
}
