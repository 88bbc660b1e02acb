/**
 * StoreBackend: files kept in a LangGraph BaseStore under a namespace, shared
 * by every thread (deeptab routes /memories/ here). Item key = path, value =
 * FileData. A mutation is staged and applied as one `store.batch` (which
 * IndexedDBStore runs as one transaction).
 */
import { AsyncBatchedStore, type BaseStore, type Operation } from "@langchain/langgraph/web";
import { byteLength } from "./file-ops.ts";
import { FileBackend } from "./file-backend.ts";
import { exclusive, mapSnapshot, stagedMutation, type FileStore, type FileTx, type StoredFile } from "./file-store.ts";
import type { FileData } from "./protocol.ts";

const PAGE = 1_000;

function isFileData(v: unknown): v is FileData {
  return (
    typeof v === "object" && v !== null && typeof (v as FileData).content === "string" && typeof (v as FileData).modifiedAt === "string"
  );
}

/** FileData as a store item value. */
function asValue(data: FileData): Record<string, unknown> {
  return { ...data };
}

class StoreFileStore implements FileStore {
  readonly #store: BaseStore;
  readonly #ns: string[];

  constructor(store: BaseStore, namespace: string[]) {
    this.#store = store;
    this.#ns = namespace;
  }

  async #data(path: string): Promise<FileData | undefined> {
    const item = await this.#store.get(this.#ns, path);
    return item && isFileData(item.value) ? item.value : undefined;
  }

  async get(path: string): Promise<StoredFile | undefined> {
    const data = await this.#data(path);
    return data ? { data, size: byteLength(data) } : undefined;
  }

  async snapshot() {
    const files = new Map<string, StoredFile>();
    const ns = this.#ns.join("/");
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#store.search(this.#ns, { limit: PAGE, offset });
      for (const item of page) {
        if (isFileData(item.value) && item.namespace.join("/") === ns)
          files.set(item.key, { data: item.value, size: byteLength(item.value) });
      }
      if (page.length < PAGE) return mapSnapshot(files);
    }
  }

  /**
   * A BaseStore has no transaction spanning a read and a batch, so units of
   * one namespace take a lock: within this realm per underlying store, and
   * across tabs and workers (a Web Lock) for a store with a database name
   * (IndexedDBStore).
   */
  mutate<T>(_what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    // Each graph run wraps the store in its own AsyncBatchedStore: the lock belongs to the store inside (a protected field).
    const store = this.#store instanceof AsyncBatchedStore ? (this.#store as unknown as { store: BaseStore }).store : this.#store;
    const dbName = (store as { dbName?: unknown }).dbName;
    const ns = this.#ns.join(":");
    const lockName = typeof dbName === "string" ? `deeptab-store-files:${dbName}:${ns}` : undefined;
    return exclusive(store, ns, () => this.#mutate(body), lockName);
  }

  #mutate<T>(body: (tx: FileTx) => Promise<T>): Promise<T> {
    return stagedMutation(
      { get: (path) => this.#data(path), isDir: async (dir) => (await this.snapshot()).isDir(dir) },
      body,
      async (changes) => {
        const store = this.#store;
        // LangGraph hands nodes an AsyncBatchedStore: it has no `batch` of its own, but gathers the
        // operations issued in one tick into one batch of the store it wraps.
        if (store instanceof AsyncBatchedStore) {
          await Promise.all(
            [...changes].map(([key, data]) => (data ? store.put(this.#ns, key, asValue(data)) : store.delete(this.#ns, key))),
          );
          return;
        }
        await store.batch([...changes].map(([key, data]): Operation => ({ namespace: this.#ns, key, value: data ? asValue(data) : null })));
      },
    );
  }
}

export class StoreBackend extends FileBackend {
  constructor(store: BaseStore, namespace: string[] = ["filesystem"], now: () => string = () => new Date().toISOString()) {
    super(new StoreFileStore(store, namespace), now);
  }
}
