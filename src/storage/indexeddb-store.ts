/**
 * IndexedDBStore: LangGraph's key-value {@link BaseStore} persisted in
 * IndexedDB (deeptab keeps `/memories/` and `/skills/` in it, shared by every
 * thread). Same semantics as `InMemoryStore` without vector search: reads of
 * a batch see the state before the batch, puts of one key are de-duplicated
 * (last wins), a `null` value deletes.
 *
 * Schema (database "deeptab-store" by default, version 1): one object store
 * `items` keyed by `[ns, key]`, where `ns` is the namespace joined with ":"
 * (labels cannot contain ":"), with an index `by_ns` on `ns` that serves
 * `listNamespaces` (a unique key cursor) and namespace-prefix searches (a key
 * range).
 *
 * Differences from InMemoryStore, both deliberate: results come in
 * `(namespace, key)` order rather than insertion order, and a namespace
 * whose items were all deleted is no longer listed by `listNamespaces`.
 */
import {
  BaseStore,
  validateNamespace,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import type { DBSchema, IDBPTransaction } from "idb";
import { StorageError } from "./errors.ts";
import { LazyConnection, runTransaction, uniqueIndexKeys } from "./idb.ts";

const DEFAULT_STORE_DB = "deeptab-store";
const VERSION = 1;
const SEP = ":";
/** The character after {@link SEP}: `[ns + ":", ns + ";")` spans every descendant namespace. */
const SEP_NEXT = ";";

interface ItemRecord {
  ns: string;
  key: string;
  namespace: string[];
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

interface StoreDB extends DBSchema {
  items: { key: [string, string]; value: ItemRecord; indexes: { by_ns: string } };
}

type Tx = IDBPTransaction<StoreDB, ["items"], "readonly" | "readwrite">;

/** Options of {@link IndexedDBStore}; it uses the global `indexedDB` (in Node tests, fake-indexeddb/auto). */
export interface IndexedDBStoreOptions {
  /** Database name; default "deeptab-store". */
  dbName?: string;
}

type FilterOperator = "$eq" | "$ne" | "$gt" | "$gte" | "$lt" | "$lte" | "$in" | "$nin";
const OPERATORS = new Set<string>(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

function isFilterOperators(v: unknown): v is Partial<Record<FilterOperator, unknown>> {
  return typeof v === "object" && v !== null && Object.keys(v).every((k) => OPERATORS.has(k));
}

/** The same comparison as LangGraph's `compareValues` (used by InMemoryStore's filter). */
function compareValues(itemValue: unknown, filterValue: unknown): boolean {
  if (!isFilterOperators(filterValue)) return itemValue === filterValue;
  return (Object.keys(filterValue) as FilterOperator[]).every((op) => {
    const value = filterValue[op];
    switch (op) {
      case "$eq":
        return itemValue === value;
      case "$ne":
        return itemValue !== value;
      case "$gt":
        return Number(itemValue) > Number(value);
      case "$gte":
        return Number(itemValue) >= Number(value);
      case "$lt":
        return Number(itemValue) < Number(value);
      case "$lte":
        return Number(itemValue) <= Number(value);
      case "$in":
        return Array.isArray(value) ? value.includes(itemValue) : false;
      case "$nin":
        return Array.isArray(value) ? !value.includes(itemValue) : true;
    }
  });
}

function matches(condition: MatchCondition, ns: string[]): boolean {
  const { matchType, path } = condition;
  if (path.length > ns.length) return false;
  const start = matchType === "prefix" ? 0 : ns.length - path.length;
  if (matchType !== "prefix" && matchType !== "suffix")
    throw new StorageError("invalid_request", `Unsupported match type: ${String(matchType)}`);
  return path.every((label, i) => label === "*" || ns[start + i] === label);
}

function toItem(r: ItemRecord): Item {
  return { value: r.value, key: r.key, namespace: r.namespace, createdAt: r.createdAt, updatedAt: r.updatedAt };
}

function isGet(op: Operation): op is GetOperation {
  return "key" in op && "namespace" in op && !("value" in op);
}

function isPut(op: Operation): op is PutOperation {
  return "key" in op && "namespace" in op && "value" in op;
}

/**
 * A LangGraph store in IndexedDB. Every `batch` runs in one IndexedDB
 * transaction (readwrite when it holds a put), so its puts land together or
 * not at all.
 *
 * @throws {InvalidNamespaceError} for a namespace InMemoryStore would reject
 *   (empty, a label with "." or ":", ...), before anything is read or written.
 * @throws {StorageError} `unavailable` when IndexedDB is missing or refuses to
 *   open; `quota_exceeded` when a batch ran out of storage quota (it was
 *   rolled back: no put of it was applied); `transaction_failed` when
 *   IndexedDB failed the batch otherwise (e.g. a value it cannot clone).
 */
export class IndexedDBStore extends BaseStore {
  readonly dbName: string;
  readonly #conn: LazyConnection<StoreDB>;

  constructor(options: IndexedDBStoreOptions = {}) {
    super();
    this.dbName = options.dbName ?? DEFAULT_STORE_DB;
    this.#conn = new LazyConnection<StoreDB>(this.dbName, VERSION, (db, oldVersion) => {
      if (oldVersion < 1) db.createObjectStore("items", { keyPath: ["ns", "key"] }).createIndex("by_ns", "ns");
    });
  }

  /** Opens the database now rather than on first use. */
  override async start(): Promise<void> {
    await this.#conn.get();
  }

  /** Closes the connection; a later call reopens it. */
  override async stop(): Promise<void> {
    await this.#conn.close();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    for (const op of operations) {
      if ("namespace" in op) validateNamespace(op.namespace, { allowReservedRoot: true });
      if ("namespacePrefix" in op && op.namespacePrefix.length > 0) validateNamespace(op.namespacePrefix, { allowReservedRoot: true });
    }
    if (operations.length === 0) return [] as OperationResults<Op>;
    const writes = operations.some(isPut);
    const results = await runTransaction(
      this.#conn,
      ["items"],
      writes ? "readwrite" : "readonly",
      "IndexedDBStore.batch",
      async (tx: Tx) => {
        const out: unknown[] = [];
        const puts = new Map<string, PutOperation>();
        for (const op of operations) {
          if (isGet(op)) out.push(await this.#get(tx, op));
          else if ("namespacePrefix" in op) out.push(await this.#search(tx, op));
          else if (isPut(op)) {
            puts.set(JSON.stringify([op.namespace, op.key]), op);
            out.push(null);
          } else if ("matchConditions" in op || "maxDepth" in op || "limit" in op) out.push(await this.#listNamespaces(tx, op));
          else throw new StorageError("invalid_request", `IndexedDBStore.batch: unknown operation ${JSON.stringify(op)}`);
        }
        if (puts.size > 0) await this.#put(tx, [...puts.values()]);
        return out;
      },
    );
    return results as OperationResults<Op>;
  }

  async #get(tx: Tx, op: GetOperation): Promise<Item | null> {
    const record = await tx.objectStore("items").get([op.namespace.join(SEP), op.key]);
    return record ? toItem(record) : null;
  }

  async #search(tx: Tx, op: SearchOperation): Promise<SearchItem[]> {
    const prefix = op.namespacePrefix.join(SEP);
    const records = await tx
      .objectStore("items")
      .getAll(prefix === "" ? undefined : IDBKeyRange.bound([prefix], [prefix + SEP_NEXT], false, true));
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    const out: SearchItem[] = [];
    let skipped = 0;
    for (const r of records) {
      if (prefix !== "" && r.ns !== prefix && !r.ns.startsWith(prefix + SEP)) continue;
      if (op.filter && !Object.entries(op.filter).every(([k, v]) => compareValues(r.value[k], v))) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      if (out.length >= limit) break;
      out.push({ ...toItem(r), score: undefined });
    }
    return out;
  }

  async #listNamespaces(tx: Tx, op: ListNamespacesOperation): Promise<string[][]> {
    let namespaces = (await uniqueIndexKeys(tx.objectStore("items").index("by_ns"))).map((ns) => ns.split(SEP));
    const conditions = op.matchConditions ?? [];
    if (conditions.length > 0) namespaces = namespaces.filter((ns) => conditions.every((c) => matches(c, ns)));
    if (op.maxDepth !== undefined) {
      const depth = op.maxDepth;
      namespaces = [...new Set(namespaces.map((ns) => ns.slice(0, depth).join(SEP)))].map((ns) => ns.split(SEP));
    }
    namespaces.sort((a, b) => a.join(SEP).localeCompare(b.join(SEP)));
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }

  async #put(tx: Tx, ops: PutOperation[]): Promise<void> {
    const store = (tx as IDBPTransaction<StoreDB, ["items"], "readwrite">).objectStore("items");
    const now = new Date();
    await Promise.all(
      ops.map(async (op) => {
        const ns = op.namespace.join(SEP);
        if (op.value === null) return store.delete([ns, op.key]);
        const prev = await store.get([ns, op.key]);
        const record: ItemRecord = {
          ns,
          key: op.key,
          namespace: [...op.namespace],
          value: op.value,
          createdAt: prev?.createdAt ?? now,
          updatedAt: now,
        };
        await store.put(record);
        return undefined;
      }),
    );
  }
}
