/**
 * The write side of the saver: running one transaction to completion, and
 * planning how a message list is stored (full, or a delta on the channel's
 * last list) and which message records a transaction adds.
 */
import type { IDBPTransaction } from "idb";
import { commonPrefix, sizeOf, type EncodedMessage } from "./encoding.ts";
import { toStorageError } from "./errors.ts";
import type { BlobKey, ChannelVersion, CheckpointDB, Db, MessageListValue, StoreName } from "./schema.ts";

export type Tx<M extends IDBTransactionMode> = IDBPTransaction<CheckpointDB, StoreName[], M>;

/**
 * Marks a request's promise as handled: when a later request in the same
 * transaction throws synchronously, the transaction aborts and the requests
 * already issued reject with AbortError after nobody awaits them.
 */
export function settle<T>(request: Promise<T>): Promise<T> {
  request.catch(() => undefined);
  return request;
}

/**
 * Runs `body` in one transaction and waits for it to commit. `body` must only
 * await IndexedDB requests of `tx` (any other await lets the transaction
 * auto-commit early). Any failure aborts the transaction, so none of its
 * writes persist, and is rethrown as a `StorageError`.
 *
 * @param db the connection; `reset` drops it so the next `db()` reopens
 *   (used once when the connection was closed under us, e.g. by another tab).
 */
export async function runTx<M extends IDBTransactionMode, T>(
  db: () => Promise<Db>,
  reset: () => void,
  stores: StoreName[],
  mode: M,
  operation: string,
  body: (tx: Tx<M>) => Promise<T>,
): Promise<T> {
  let tx: Tx<M>;
  try {
    tx = (await db()).transaction(stores, mode) as Tx<M>;
  } catch (err) {
    reset();
    try {
      tx = (await db()).transaction(stores, mode) as Tx<M>;
    } catch (again) {
      throw toStorageError(operation, again ?? err);
    }
  }
  const done = tx.done;
  done.catch(() => undefined);
  try {
    const result = await body(tx);
    await done;
    return result;
  } catch (err) {
    const txError = tx.error;
    try {
      tx.abort();
    } catch {
      // already committed or aborted
    }
    throw toStorageError(operation, err, txError);
  }
}

/** The last list written or read for one (thread, ns, channel). */
export interface ListHead {
  version: ChannelVersion;
  keys: string[];
  depth: number;
}

export interface ListPlan {
  key: BlobKey;
  /** The list's message refs, in order. */
  keys: string[];
  full: MessageListValue;
  messages: EncodedMessage[];
  /** A delta on `head`, used if its base blob still exists when the transaction runs. */
  delta?: { record: MessageListValue; baseKey: BlobKey; messages: EncodedMessage[] };
}

/** Plans a message-list blob: the full list, and a delta on `head` when they share a prefix and the chain is short enough. */
export function planList(key: BlobKey, messages: EncodedMessage[], head: ListHead | undefined, snapshotEvery: number): ListPlan {
  const keys = messages.map((m) => m.ref);
  const plan: ListPlan = { key, keys, messages, full: { t: "m", keys, keep: 0, depth: 0 } };
  if (head && head.version !== key[3] && head.depth + 1 < snapshotEvery) {
    const keep = commonPrefix(head.keys, keys);
    if (keep > 0) {
      plan.delta = {
        record: { t: "m", keys: keys.slice(keep), base: head.version, keep, depth: head.depth + 1 },
        baseKey: [key[0], key[1], key[2], head.version],
        messages: messages.slice(keep),
      };
    }
  }
  return plan;
}

/** Adds the message records not stored yet; returns what it added. Call inside a readwrite transaction. */
export async function writeMessages(
  tx: Tx<"readwrite">,
  threadId: string,
  messages: EncodedMessage[],
): Promise<{ bytes: number; records: number }> {
  const unique = [...new Map(messages.map((m) => [m.key, m])).values()];
  const store = tx.objectStore("messages");
  const present = await Promise.all(unique.map((m) => store.getKey([threadId, m.key])));
  const missing = unique.filter((_, i) => present[i] === undefined);
  const puts: Promise<unknown>[] = [];
  for (const m of missing) puts.push(settle(store.put(m.record, [threadId, m.key])));
  await Promise.all(puts);
  const bytes = missing.reduce((n, m) => n + sizeOf([threadId, m.key]) + sizeOf(m.record), 0);
  return { bytes, records: missing.length };
}
