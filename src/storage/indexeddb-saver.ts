/**
 * A LangGraph checkpoint saver on IndexedDB, for graphs that run in a tab or
 * a worker: `new IndexedDBSaver("deeptab")`, then pass it as `checkpointer`
 * to `createDeepAgent` or any `StateGraph.compile`.
 *
 * Storage stays linear in the length of a thread: channel values are written
 * only when their version changes, and message lists (the channel that
 * changes every step) are stored as lists of message keys, each message once
 * in the `messages` store, with each list a delta on the previous one (a full
 * list every `snapshotEvery` versions). See `schema.ts` for the layout.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  WRITES_IDX_MAP,
  copyCheckpoint,
  getCheckpointId,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { isBaseMessage } from "@langchain/core/messages";
import { encodeMessages, isMessageList, keyString, prefixRange, sizeOf, type EncodedMessage, type EncodingMemo } from "./encoding.ts";
import { err, ok, type Result } from "../core/result.ts";
import { StorageError } from "./errors.ts";
import { runTransaction, settle, toStorageError, uniqueIndexKeys, type LazyConnection } from "./idb.ts";
import { decodeTuple, readTuple, type ListCache } from "./read.ts";
import { planList, writeMessages, type ListHead, type ListPlan, type Tx } from "./write.ts";
import {
  ALL_STORES,
  checkpointConnection,
  type BlobKey,
  type CheckpointDB,
  type CheckpointKey,
  type CheckpointRecord,
  type SerializedValue,
  type StoreName,
  type WriteKey,
  type WriteRecord,
  type WriteValue,
} from "./schema.ts";

/**
 * Options of {@link IndexedDBSaver}. The saver uses the global `indexedDB`
 * (in Node tests, `import "fake-indexeddb/auto"`).
 */
export interface IndexedDBSaverOptions {
  /** Serializer; defaults to LangGraph's `JsonPlusSerializer`, which round-trips LangChain messages. */
  serde?: SerializerProtocol;
  /** Longest chain of message-list deltas before a full list is stored again. Default 64. */
  snapshotEvery?: number;
}

/** Counters of what this instance has committed, for benchmarks and diagnostics. */
export interface SaverStats {
  /** Sum of the sizes of keys and records written in committed transactions (see `sizeOf`). */
  bytesWritten: number;
  recordsWritten: number;
}

/** Outcome of {@link IndexedDBSaver.open}: an expected failure is a value, not a throw. */
export type OpenResult = Result<null, StorageError>;

const PAGE = 50;
const CACHE_ENTRIES = 64;

function threadIdOf(config: RunnableConfig, operation: string): string {
  const id: unknown = config.configurable?.thread_id;
  if (typeof id !== "string" || id === "") {
    throw new StorageError(
      "invalid_config",
      `${operation}: config.configurable.thread_id must be a non-empty string, ` +
        'e.g. graph.invoke(input, { configurable: { thread_id: "t1" } })',
    );
  }
  return id;
}

function recordThread(record: unknown): string | undefined {
  const id = (record as { thread_id?: unknown } | null)?.thread_id;
  return typeof id === "string" ? id : undefined;
}

function recordCheckpoint(record: unknown): string | undefined {
  const id = (record as { checkpoint_id?: unknown } | null)?.checkpoint_id;
  return typeof id === "string" ? id : undefined;
}

/**
 * Runs a read of one checkpoint. A failure that is not a storage failure
 * (bytes that do not deserialize, a record of the wrong shape) means the
 * record is corrupt: it becomes `corrupt_record` naming the thread and
 * checkpoint; storage failures and other codes pass through.
 */
async function asCorrupt<T>(threadId: string | undefined, checkpointId: () => string | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (cause) {
    const where = `thread ${threadId ?? "?"}, checkpoint ${checkpointId() ?? "?"}`;
    if (cause instanceof StorageError) {
      if (cause.code !== "corrupt_record" || cause.checkpointId) throw cause;
      throw new StorageError("corrupt_record", `${where}: ${cause.message}`, { cause, threadId, checkpointId: checkpointId() });
    }
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    throw new StorageError("corrupt_record", `${where}: the stored checkpoint cannot be read (${detail})`, {
      cause,
      threadId,
      checkpointId: checkpointId(),
    });
  }
}

/**
 * IndexedDB-backed `BaseCheckpointSaver`.
 *
 * Every `put`, `putWrites` and `deleteThread` is one IndexedDB transaction:
 * either all of its records are committed or none are, so a crash, a closed
 * tab or a quota error leaves the previous checkpoint intact and readable.
 * Reads never hold a transaction across a `yield`.
 *
 * Messages are treated as immutable values: each message object is
 * serialized once and reused while its constructor fields are unchanged
 * (`===`); one mutated deep inside a field after it was checkpointed is not
 * re-serialized (replace it, as `messagesStateReducer` does by id).
 *
 * Channel versions from {@link getNextVersion} are `n + 1 + fraction` with a
 * random fraction, so two branches forked from one checkpoint never share a
 * (channel, version) blob key.
 *
 * Several savers may open one database (two agents, two tabs, a page and its
 * worker): they read and write the same threads. `storageKey` names that
 * database, and `createDeepAgent` allows one run per thread at a time across
 * every saver with the same key, in this realm and, through a Web Lock, in
 * other tabs and workers; a second run is refused with `thread_busy`.
 *
 * Errors: every method rejects with a {@link StorageError}:
 * - `invalid_config` when `put`/`putWrites` get no `thread_id` (or
 *   `putWrites` no `checkpoint_id`); `getTuple` returns `undefined` instead;
 * - `quota_exceeded` when the origin is out of storage (nothing was written);
 * - `unavailable` when IndexedDB cannot be opened (see {@link open} to get
 *   this as a value);
 * - `transaction_failed` when a transaction aborts for another reason;
 * - `corrupt_record` when a stored record cannot be read, or one it refers to
 *   (a message, a channel value, a list it extends) is missing.
 * Errors thrown by `serde` propagate unchanged, before any transaction opens.
 */
export class IndexedDBSaver extends BaseCheckpointSaver<number> {
  readonly dbName: string;
  /** `indexeddb:<dbName>`: equal for every saver over this database (see the class comment). */
  readonly storageKey: string;
  readonly stats: SaverStats = { bytesWritten: 0, recordsWritten: 0 };
  private readonly snapshotEvery: number;
  private readonly conn: LazyConnection<CheckpointDB>;
  /** Serialized messages by message object (see `EncodingMemo` for when an entry is reused). */
  private readonly memo: EncodingMemo = new WeakMap();
  /** Resolved message-key lists by blob key. */
  private readonly lists: ListCache = new Map();
  /** Last list written or read per (thread, ns, channel): the base of the next delta. */
  private readonly heads = new Map<string, ListHead>();

  constructor(dbName: string, options: IndexedDBSaverOptions = {}) {
    super(options.serde);
    this.dbName = dbName;
    this.storageKey = `indexeddb:${dbName}`;
    this.conn = checkpointConnection(dbName);
    this.snapshotEvery = Math.max(1, options.snapshotEvery ?? 64);
  }

  /** Opens the database now; resolves to `{ ok: false, error }` instead of throwing when IndexedDB is unusable. */
  async open(): Promise<OpenResult> {
    try {
      await this.conn.get();
      return ok(null);
    } catch (cause) {
      return err(toStorageError("open", cause) ?? new StorageError("unavailable", `open: ${String(cause)}`, { cause }));
    }
  }

  /** Closes the connection; the next call reopens it. */
  async close(): Promise<void> {
    await this.conn.close();
  }

  override getNextVersion(current: number | undefined): number {
    const whole = current === undefined ? 0 : Math.floor(Number(current)) || 0;
    // An exact integer divided once: the result prints with at most 6 decimals.
    return ((whole + 1) * 1_000_000 + 1 + Math.floor(Math.random() * 999_998)) / 1_000_000;
  }

  /** Runs `body` in one transaction on this saver's database (see `runTransaction`). */
  private withTx<M extends IDBTransactionMode, T>(
    stores: StoreName[],
    mode: M,
    operation: string,
    body: (tx: Tx<M>) => Promise<T>,
  ): Promise<T> {
    return runTransaction(this.conn, stores, mode, operation, body);
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId: unknown = config.configurable?.thread_id;
    if (typeof threadId !== "string" || threadId === "") return undefined;
    const ns: string = config.configurable?.checkpoint_ns ?? "";
    const checkpointId = getCheckpointId(config);
    let found: CheckpointRecord | undefined;
    return asCorrupt(
      threadId,
      () => found?.checkpoint_id ?? checkpointId,
      async () => {
        const raw = await this.withTx(ALL_STORES, "readonly", "getTuple", async (tx) => {
          const store = tx.objectStore("checkpoints");
          found = checkpointId
            ? await store.get([threadId, ns, checkpointId])
            : (await store.openCursor(prefixRange([threadId, ns]), "prev"))?.value;
          return found ? readTuple(tx, found, this.lists, this.snapshotEvery) : undefined;
        });
        if (!raw) return undefined;
        const tuple = await decodeTuple(this.serde, raw, undefined, () => this.getNextVersion(undefined));
        this.rememberHeads(raw.record, raw.lists);
        return tuple;
      },
    );
  }

  /**
   * Checkpoints newest first (per thread and namespace), filtered by
   * `config.configurable` (`thread_id`, `checkpoint_ns`, `checkpoint_id`),
   * `before` (checkpoint ids strictly lower), `filter` (metadata fields equal
   * with `===`) and `limit`.
   */
  override async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let remaining = options.limit;
    if (remaining !== undefined && remaining <= 0) return;
    const threadId: string | undefined = config.configurable?.thread_id;
    const ns: string | undefined = config.configurable?.checkpoint_ns;
    const onlyId: string | undefined = config.configurable?.checkpoint_id || undefined;
    const beforeId: string | undefined = before?.configurable?.checkpoint_id || undefined;
    const prefix: string[] = threadId === undefined ? [] : ns === undefined ? [threadId] : [threadId, ns];
    const lower: IDBValidKey | undefined = prefix.length ? prefix : undefined;
    let upper: IDBValidKey | undefined = prefix.length ? [...prefix, []] : undefined;
    if (prefix.length === 2 && beforeId !== undefined) upper = [...prefix, beforeId];
    let upperOpen = upper !== undefined && prefix.length === 2 && beforeId !== undefined;

    for (;;) {
      const range =
        lower !== undefined && upper !== undefined
          ? IDBKeyRange.bound(lower, upper, false, upperOpen)
          : upper !== undefined
            ? IDBKeyRange.upperBound(upper, upperOpen)
            : undefined;
      const page = await this.withTx(["checkpoints"], "readonly", "list", async (tx) => {
        const records: CheckpointRecord[] = [];
        let last: CheckpointKey | undefined;
        let cursor = await tx.objectStore("checkpoints").openCursor(range, "prev");
        while (cursor && records.length < PAGE) {
          const rec = cursor.value;
          last = cursor.primaryKey;
          if (
            (ns === undefined || rec.checkpoint_ns === ns) &&
            (onlyId === undefined || rec.checkpoint_id === onlyId) &&
            (beforeId === undefined || rec.checkpoint_id < beforeId)
          ) {
            records.push(rec);
          }
          cursor = await cursor.continue();
        }
        return { records, last, more: cursor !== null };
      });
      for (const record of page.records) {
        const tuple = await asCorrupt(
          recordThread(record),
          () => recordCheckpoint(record),
          async () => {
            const metadata = (await this.serde.loadsTyped(record.metadata.type, record.metadata.bytes)) as CheckpointMetadata;
            const fields = metadata as Record<string, unknown>;
            if (filter && !Object.entries(filter).every(([k, v]) => fields[k] === v)) return undefined;
            const raw = await this.withTx(ALL_STORES, "readonly", "list", (tx) => readTuple(tx, record, this.lists, this.snapshotEvery));
            return decodeTuple(this.serde, raw, metadata, () => this.getNextVersion(undefined));
          },
        );
        if (!tuple) continue;
        yield tuple;
        if (remaining !== undefined && --remaining <= 0) return;
      }
      if (!page.more || page.last === undefined) return;
      upper = page.last;
      upperOpen = true;
    }
  }

  /**
   * Stores `checkpoint` with the values of the channels in `newVersions`
   * (other channels keep the blob of their unchanged version), in one
   * transaction.
   */
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = threadIdOf(config, "put");
    const ns: string = config.configurable?.checkpoint_ns ?? "";
    const parentId: string | undefined = config.configurable?.checkpoint_id || undefined;
    const { channel_values: values, channel_versions: versions, ...rest } = copyCheckpoint(checkpoint);
    const [[ckType, ckBytes], [mdType, mdBytes]] = await Promise.all([this.serde.dumpsTyped(rest), this.serde.dumpsTyped(metadata)]);
    const record: CheckpointRecord = {
      thread_id: threadId,
      checkpoint_ns: ns,
      checkpoint_id: checkpoint.id,
      ...(parentId !== undefined ? { parent_checkpoint_id: parentId } : {}),
      v: checkpoint.v,
      versions,
      checkpoint: { t: "v", type: ckType, bytes: ckBytes },
      metadata: { t: "v", type: mdType, bytes: mdBytes },
    };

    const valueBlobs: Array<{ key: BlobKey; value: SerializedValue }> = [];
    const listPlans: ListPlan[] = [];
    for (const [channel, version] of Object.entries(newVersions)) {
      if (!Object.prototype.hasOwnProperty.call(values, channel)) continue;
      const value = values[channel];
      const key: BlobKey = [threadId, ns, channel, version];
      if (isMessageList(value)) {
        const head = this.heads.get(keyString(key.slice(0, 3)));
        listPlans.push(planList(key, await encodeMessages(this.serde, value, this.memo), head, this.snapshotEvery));
      } else {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        valueBlobs.push({ key, value: { t: "v", type, bytes } });
      }
    }

    // Channels with a value: written now, or (unchanged since an earlier checkpoint) already stored.
    const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
    const valued = Object.keys(values).filter((c) => has(versions, c));
    const writtenNow = new Set(valued.filter((c) => has(newVersions, c) && newVersions[c] === versions[c]));

    const chosen = await this.withTx(["checkpoints", "blobs", "messages"], "readwrite", "put", async (tx) => {
      const blobs = tx.objectStore("blobs");
      const stored = await Promise.all(
        valued.map(async (c) => writtenNow.has(c) || (await blobs.getKey([threadId, ns, c, versions[c]!])) !== undefined),
      );
      record.valued = valued.filter((_, i) => stored[i]);
      const picks = await Promise.all(
        listPlans.map(async (plan) => {
          if (plan.delta && (await blobs.getKey(plan.delta.baseKey)) !== undefined) {
            return { plan, value: plan.delta.record, messages: plan.delta.messages };
          }
          return { plan, value: plan.full, messages: plan.messages };
        }),
      );
      const added = await writeMessages(
        tx,
        threadId,
        picks.flatMap((p) => p.messages),
      );
      let bytes = added.bytes;
      let records = added.records + 1;
      const puts: Promise<unknown>[] = [];
      for (const { key, value } of valueBlobs) {
        puts.push(settle(blobs.put(value, key)));
        bytes += sizeOf(key) + sizeOf(value);
        records += 1;
      }
      for (const { plan, value } of picks) {
        puts.push(settle(blobs.put(value, plan.key)));
        bytes += sizeOf(plan.key) + sizeOf(value);
        records += 1;
      }
      puts.push(settle(tx.objectStore("checkpoints").put(record)));
      bytes += sizeOf(record);
      await Promise.all(puts);
      return { picks, bytes, records };
    });

    this.stats.bytesWritten += chosen.bytes;
    this.stats.recordsWritten += chosen.records;
    for (const { plan, value } of chosen.picks) {
      this.remember(plan.key, plan.keys, value.depth);
    }
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  /**
   * Stores the writes of task `taskId` against the checkpoint in `config`, in
   * one transaction. A regular write already stored under the same
   * (task, index) is kept, as in `MemorySaver`; special writes (errors,
   * interrupts) replace.
   */
  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = threadIdOf(config, "putWrites");
    const ns: string = config.configurable?.checkpoint_ns ?? "";
    const checkpointId: string | undefined = config.configurable?.checkpoint_id || undefined;
    if (checkpointId === undefined) {
      throw new StorageError("invalid_config", "putWrites: config.configurable.checkpoint_id is required");
    }
    const entries = await Promise.all(
      writes.map(async ([channel, value], i) => {
        const key: WriteKey = [threadId, ns, checkpointId, taskId, WRITES_IDX_MAP[channel] ?? i];
        const single = isBaseMessage(value);
        if (single || isMessageList(value)) {
          const messages = await encodeMessages(this.serde, single ? [value] : value, this.memo);
          const stored: WriteValue = { t: "m", keys: messages.map((m) => m.ref), single };
          return { key, record: { channel, task_path: taskPath ?? "", value: stored } satisfies WriteRecord, messages };
        }
        const [type, bytes] = await this.serde.dumpsTyped(value);
        const record: WriteRecord = { channel, task_path: taskPath ?? "", value: { t: "v", type, bytes } };
        return { key, record, messages: [] as EncodedMessage[] };
      }),
    );
    const written = await this.withTx(["writes", "messages"], "readwrite", "putWrites", async (tx) => {
      const store = tx.objectStore("writes");
      const existing = await Promise.all(entries.map((e) => (e.key[4] >= 0 ? store.getKey(e.key) : undefined)));
      const kept = entries.filter((_, i) => existing[i] === undefined);
      const counted = await writeMessages(
        tx,
        threadId,
        kept.flatMap((e) => e.messages),
      );
      const puts: Promise<unknown>[] = [];
      for (const e of kept) puts.push(settle(store.put(e.record, e.key)));
      await Promise.all(puts);
      return {
        bytes: counted.bytes + kept.reduce((n, e) => n + sizeOf(e.key) + sizeOf(e.record), 0),
        records: counted.records + kept.length,
      };
    });
    this.stats.bytesWritten += written.bytes;
    this.stats.recordsWritten += written.records;
  }

  /** Deletes every checkpoint, blob, message and write of `threadId`, in one transaction. */
  override async deleteThread(threadId: string): Promise<void> {
    await this.withTx(ALL_STORES, "readwrite", "deleteThread", async (tx) => {
      const range = prefixRange([threadId]);
      await Promise.all(ALL_STORES.map((name) => tx.objectStore(name).delete(range)));
    });
    this.lists.clear();
    this.heads.clear();
  }

  /**
   * The checkpoint tree of a thread's namespace without reading any channel
   * value: each checkpoint's id and parent, oldest first (ids sort by time).
   * Branches (edits, retries) are the leaves of this tree.
   */
  async checkpointTree(threadId: string, ns = ""): Promise<Array<{ id: string; parentId?: string }>> {
    return this.withTx(["checkpoints"], "readonly", "checkpointTree", async (tx) => {
      const out: Array<{ id: string; parentId?: string }> = [];
      let cursor = await tx.objectStore("checkpoints").openCursor(prefixRange([threadId, ns]));
      while (cursor) {
        const rec = cursor.value;
        out.push(rec.parent_checkpoint_id ? { id: rec.checkpoint_id, parentId: rec.parent_checkpoint_id } : { id: rec.checkpoint_id });
        cursor = await cursor.continue();
      }
      return out;
    });
  }

  /** Thread ids that have at least one checkpoint, in key order. */
  async listThreads(): Promise<string[]> {
    return this.withTx(["checkpoints"], "readonly", "listThreads", (tx) =>
      uniqueIndexKeys(tx.objectStore("checkpoints").index("by_thread")),
    );
  }

  private remember(key: BlobKey, keys: string[], depth: number): void {
    this.heads.set(keyString(key.slice(0, 3)), { version: key[3], keys, depth });
    this.lists.set(keyString(key), { keys, depth });
    while (this.lists.size > CACHE_ENTRIES) this.lists.delete(this.lists.keys().next().value as string);
    while (this.heads.size > CACHE_ENTRIES) this.heads.delete(this.heads.keys().next().value as string);
  }

  private rememberHeads(record: CheckpointRecord, lists: Map<string, { keys: string[]; depth: number }>): void {
    for (const [channel, list] of lists) {
      this.remember([record.thread_id, record.checkpoint_ns, channel, record.versions[channel]!], list.keys, list.depth);
    }
  }
}
