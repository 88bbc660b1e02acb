/**
 * MemoryFileStore: a FileStore in a Map, for backends whose files live only
 * as long as the object (the offline shell's default and its `/tmp`, tests).
 * Mutations are staged and applied together, one unit at a time, so a
 * failing one changes nothing. With a byte cap, a unit that would take the
 * store over it fails as a whole with the cap's error.
 */
import { byteLength } from "./file-ops.ts";
import {
  exclusive,
  mapSnapshot,
  pathsBelow,
  stagedMutation,
  type FileSnapshot,
  type FileStore,
  type FileTx,
  type StoredFile,
} from "./file-store.ts";
import type { FileData } from "./protocol.ts";

/** A cap on the bytes a {@link MemoryFileStore} holds altogether. */
export interface ByteCap {
  readonly maxBytes: number;
  /** The error a unit that would take the store over `maxBytes` fails with, given the unit's `what`. */
  readonly full: (what: string) => Error;
}

export class MemoryFileStore implements FileStore {
  /** The most bytes the store holds (Infinity without a cap). */
  readonly maxBytes: number;
  readonly #cap: ByteCap | undefined;
  readonly #files = new Map<string, StoredFile>();
  #bytes = 0;

  constructor(initial: Record<string, FileData> = {}, cap?: ByteCap) {
    this.maxBytes = cap?.maxBytes ?? Infinity;
    this.#cap = cap;
    for (const [path, data] of Object.entries(initial)) {
      const file = { data, size: byteLength(data) };
      this.#files.set(path, file);
      this.#bytes += file.size;
    }
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Drops every file. */
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

  /** @throws the cap's `full` error when the unit would take the store over {@link maxBytes}; nothing is applied. */
  mutate<T>(what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    // One unit at a time: a unit awaits between its reads and its commit.
    return exclusive(this, "", () => this.mutateNow(what, body));
  }

  /** One unit, staged and applied whole, without waiting for the store's other units (see {@link mutate}). */
  protected mutateNow<T>(what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
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
        if (this.#cap && bytes > this.#cap.maxBytes) throw this.#cap.full(what);
        for (const [path, file] of sized) {
          if (file) this.#files.set(path, file);
          else this.#files.delete(path);
        }
        this.#bytes = bytes;
      },
    );
  }
}
