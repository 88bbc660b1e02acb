/**
 * The write side of the saver: planning how a message list is stored (full, or a delta on the channel's
 * last list) and which message records a transaction adds.
 */
import type { IDBPTransaction } from "idb";
import { commonPrefix, sizeOf, type EncodedMessage } from "./encoding.ts";
import { settle } from "./idb.ts";
import type { BlobKey, ChannelVersion, CheckpointDB, MessageListValue, StoreName } from "./schema.ts";

export type Tx<M extends IDBTransactionMode> = IDBPTransaction<CheckpointDB, StoreName[], M>;

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
