/**
 * IndexedDBFiles: the storage under {@link IndexedDBBackend}. One database
 * ("deeptab-files" by default, version 1) with one object store `files` keyed
 * by `[scope, path]` (value: the {@link FileData} and its byte size) and an
 * index `by_scope`. A scope is one workspace; deeptab uses the thread id.
 *
 * Reads are served from an in-memory index per scope: every file of the scope
 * (path → data and size), loaded once with a single `getAll` over `by_scope`
 * in one transaction, then kept in sync by every mutation made through this
 * instance. Other tabs' mutations reach it through a BroadcastChannel, which
 * drops the stale scope so the next read reloads it. At most
 * `maxCachedScopes` scopes stay loaded (least recently used are dropped).
 *
 * Mutations never trust the index: each runs in one readwrite transaction
 * that reads what it checks (existence, implied directories) from the
 * database and writes in the same transaction, so check + put is atomic even
 * across tabs.
 *
 * Effect records (version 2, object store `effects`, keyed by
 * `[scope, thread, step, call, what]`): a mutation made for a tool call
 * (FileStore's `once`) stores its result in its own transaction, and a re-run
 * of the same call (its step run again after a fault) gets that result back
 * without changing anything. Files and checkpoints live in different
 * databases and LangGraph saves the checkpoint after the step, so one
 * transaction cannot hold both; the record makes the re-run agree with what
 * the first run did instead. A thread keeps only the records of its latest
 * step that wrote (the step before it was saved, or it would have been
 * re-run), and deleting a scope deletes its records.
 */
import type { DBSchema, IDBPObjectStore } from "idb";
import { LazyConnection, runTransaction, uniqueIndexKeys } from "../storage/idb.ts";
import { byteLength } from "./file-ops.ts";
import type { FileTx, StoredFile } from "./file-store.ts";
import type { FileData } from "./protocol.ts";
import type { CallIdentity } from "./runtime.ts";

const DEFAULT_FILES_DB = "deeptab-files";
const VERSION = 2;

interface FileRecord {
  scope: string;
  path: string;
  data: FileData;
  size: number;
}

/** A tool call's completed mutation: its result, as the call got it. */
interface EffectRecord {
  result: unknown;
}

type EffectKey = [scope: string, thread: string, step: string, call: string, what: string];

interface FilesDB extends DBSchema {
  files: { key: [string, string]; value: FileRecord; indexes: { by_scope: string } };
  effects: { key: EffectKey; value: EffectRecord };
}

/** A scope's files, path → file. Read-only to callers. */
export type ScopeIndex = ReadonlyMap<string, StoredFile>;

/** Options of {@link IndexedDBFiles}; it uses the global `indexedDB` (in Node tests, fake-indexeddb/auto). */
export interface IndexedDBFilesOptions {
  /** Database name; default "deeptab-files". */
  dbName?: string;
  /** How many scopes keep their index in memory; default 8. */
  maxCachedScopes?: number;
}

type Store = IDBPObjectStore<FilesDB, ["files"], "files", "readwrite">;

/**
 * Shared storage of workspace files: one connection and one index cache for
 * every backend built on it.
 *
 * @throws {StorageError} `unavailable` when IndexedDB is missing or refuses to
 *   open; `quota_exceeded` when a mutation ran out of storage quota (its
 *   transaction was rolled back, nothing of it was written, the index is
 *   unchanged); `transaction_failed` when IndexedDB failed a transaction
 *   otherwise. Nothing else is thrown.
 */
export class IndexedDBFiles {
  readonly dbName: string;
  readonly #conn: LazyConnection<FilesDB>;
  readonly #maxCached: number;
  readonly #indexes = new Map<string, Promise<Map<string, StoredFile>>>();
  #channel: BroadcastChannel | undefined;

  constructor(options: IndexedDBFilesOptions = {}) {
    this.dbName = options.dbName ?? DEFAULT_FILES_DB;
    this.#maxCached = Math.max(1, options.maxCachedScopes ?? 8);
    this.#conn = new LazyConnection<FilesDB>(
      this.dbName,
      VERSION,
      (db, oldVersion) => {
        if (oldVersion < 1) db.createObjectStore("files", { keyPath: ["scope", "path"] }).createIndex("by_scope", "scope");
        if (oldVersion < 2) db.createObjectStore("effects");
      },
      () => this.#indexes.clear(),
    );
    if (typeof BroadcastChannel === "function") {
      const channel = new BroadcastChannel(`deeptab-files:${this.dbName}`);
      channel.onmessage = (event: MessageEvent<unknown>) => {
        const scope = (event.data as { scope?: unknown } | null)?.scope;
        if (typeof scope === "string") this.#indexes.delete(scope);
      };
      // Node: do not keep the process alive for invalidations.
      (channel as { unref?: () => void }).unref?.();
      this.#channel = channel;
    }
  }

  /** The scope's files, loaded with one `getAll` on first use. */
  index(scope: string): Promise<ScopeIndex> {
    let loading = this.#indexes.get(scope);
    if (loading) {
      this.#indexes.delete(scope);
      this.#indexes.set(scope, loading);
      return loading;
    }
    loading = this.#load(scope);
    this.#indexes.set(scope, loading);
    loading.catch(() => {
      if (this.#indexes.get(scope) === loading) this.#indexes.delete(scope);
    });
    while (this.#indexes.size > this.#maxCached) this.#indexes.delete(this.#indexes.keys().next().value!);
    return loading;
  }

  async #load(scope: string): Promise<Map<string, StoredFile>> {
    const records = await runTransaction(this.#conn, ["files"], "readonly", `load files of scope "${scope}"`, (tx) =>
      tx.objectStore("files").index("by_scope").getAll(scope),
    );
    return new Map(records.map((r) => [r.path, { data: r.data, size: r.size }]));
  }

  /**
   * Runs `body` in one readwrite transaction over the scope's files. Its
   * changes reach the index after the transaction commits; if it fails,
   * nothing was written. With `effect` (the tool call it is made for), a
   * mutation that changed something records its result in the same
   * transaction, and one this call already made returns that result without
   * running `body` (see the module's effect records).
   */
  async mutate<T>(scope: string, what: string, body: (tx: FileTx) => Promise<T>, effect?: CallIdentity): Promise<T> {
    const changes: Array<[string, StoredFile | null]> = [];
    const stores: Array<"files" | "effects"> = effect ? ["files", "effects"] : ["files"];
    const result = await runTransaction(this.#conn, stores, "readwrite", what, async (tx) => {
      const store: Store = tx.objectStore("files");
      const key: EffectKey | undefined = effect && [scope, effect.thread, effect.step, effect.call, what];
      if (key) {
        const done = await tx.objectStore("effects").get(key);
        if (done) return done.result as T;
      }
      const out = await body({
        get: async (path) => (await store.get([scope, path]))?.data,
        isDir: async (dir) =>
          dir === "/" || (await store.getKey(IDBKeyRange.bound([scope, dir + "/"], [scope, dir + "0"], false, true))) !== undefined,
        below: async (dir) => {
          const prefix = dir === "/" ? "/" : dir + "/";
          const range = IDBKeyRange.bound([scope, prefix], [scope, prefix.slice(0, -1) + "0"], false, true);
          const keys = (await store.getAllKeys(range)) as Array<[string, string]>;
          return keys.map(([, path]) => path).sort();
        },
        put: async (path, data) => {
          const size = byteLength(data);
          await store.put({ scope, path, data, size });
          changes.push([path, { data, size }]);
        },
        delete: async (path) => {
          await store.delete([scope, path]);
          changes.push([path, null]);
        },
      });
      if (key && changes.length > 0) {
        const effects = tx.objectStore("effects");
        const [, thread, step] = key;
        // The thread's records of other steps go: those steps were saved, or this one would not run.
        await effects.delete(IDBKeyRange.bound([scope, thread], [scope, thread, step], false, true));
        await effects.delete(IDBKeyRange.bound([scope, thread, step, []], [scope, thread, []], true, true));
        await effects.put({ result: out }, key);
      }
      return out;
    });
    if (changes.length > 0) {
      await this.#apply(scope, changes);
      this.#channel?.postMessage({ scope });
    }
    return result;
  }

  /** Patches a loaded (or loading) index; idempotent, so a load racing the commit is safe. */
  async #apply(scope: string, changes: Array<[string, StoredFile | null]>): Promise<void> {
    const loading = this.#indexes.get(scope);
    if (!loading) return;
    const index = await loading.catch(() => undefined);
    if (!index) return;
    for (const [path, file] of changes) {
      if (file) index.set(path, file);
      else index.delete(path);
    }
  }

  /** Deletes every file of `scope` (one transaction); returns how many there were. */
  async deleteScope(scope: string): Promise<number> {
    const range = IDBKeyRange.bound([scope], [scope, []]);
    const count = await runTransaction(this.#conn, ["files", "effects"], "readwrite", `delete scope "${scope}"`, async (tx) => {
      const store = tx.objectStore("files");
      const n = await store.count(range);
      await store.delete(range);
      await tx.objectStore("effects").delete(IDBKeyRange.bound([scope], [scope, []]));
      return n;
    });
    this.#indexes.delete(scope);
    this.#channel?.postMessage({ scope });
    return count;
  }

  /** Every scope holding at least one file, sorted. */
  async listScopes(): Promise<string[]> {
    return runTransaction(this.#conn, ["files"], "readonly", "list scopes", (tx) =>
      uniqueIndexKeys(tx.objectStore("files").index("by_scope")),
    );
  }

  /**
   * Closes the connection and drops the indexes. The instance stays usable (it
   * reopens on next use) but no longer hears other tabs' invalidations.
   */
  async close(): Promise<void> {
    this.#indexes.clear();
    this.#channel?.close();
    this.#channel = undefined;
    await this.#conn.close();
  }
}
