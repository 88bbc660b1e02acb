/**
 * Reading checkpoints back: `readTuple` gathers every record a checkpoint
 * needs inside one read transaction (IndexedDB requests only, no other
 * awaits), `decodeTuple` deserializes them afterwards with the saver's serde.
 */
import type { IDBPTransaction } from "idb";
import {
  TASKS,
  compareWritesSortKeys,
  maxChannelVersion,
  writesSortKey,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { keyString, parseRef, prefixRange, restoreId } from "./encoding.ts";
import { StorageError } from "./errors.ts";
import type {
  BlobKey,
  ChannelVersion,
  CheckpointDB,
  CheckpointRecord,
  MessageListValue,
  MessageRecord,
  SerializedValue,
  StoreName,
  WriteKey,
  WriteRecord,
} from "./schema.ts";

type ReadTx = IDBPTransaction<CheckpointDB, StoreName[], "readonly">;

/** Resolved message-key lists by `keyString(blobKey)`; insertion-ordered, trimmed by the saver. */
export type ListCache = Map<string, { keys: string[]; depth: number }>;

type RawValue = SerializedValue | { t: "m"; messages: Array<{ record: MessageRecord; id: string | undefined }>; single?: boolean };

interface RawWrite {
  taskId: string;
  idx: number;
  record: WriteRecord;
  value: RawValue;
}

export interface RawTuple {
  record: CheckpointRecord;
  channels: Map<string, RawValue>;
  /** Message-key lists read for list-valued channels, for the saver's delta heads. */
  lists: Map<string, { keys: string[]; depth: number }>;
  writes: RawWrite[];
  /** Pending sends of the parent, for checkpoints older than format v4. */
  sends?: RawWrite[];
}

function corrupt(message: string): StorageError {
  return new StorageError("corrupt_record", message);
}

/** Follows a message list's delta chain back to a full list (or a cached one). */
async function resolveList(tx: ReadTx, key: BlobKey, head: MessageListValue, cache: ListCache, snapshotEvery: number): Promise<string[]> {
  const cached = cache.get(keyString(key));
  if (cached) return cached.keys;
  const blobs = tx.objectStore("blobs");
  const chain: MessageListValue[] = [head];
  let base: string[] = [];
  let current = head;
  while (current.base !== undefined) {
    const baseKey: BlobKey = [key[0], key[1], key[2], current.base];
    const hit = cache.get(keyString(baseKey));
    if (hit) {
      base = hit.keys;
      break;
    }
    if (chain.length > snapshotEvery + 1) throw corrupt(`message list ${keyString(key)}: delta chain does not end`);
    const next = await blobs.get(baseKey);
    if (!next || next.t !== "m") throw corrupt(`message list ${keyString(key)}: base version ${String(current.base)} is missing`);
    chain.push(next);
    current = next;
  }
  let keys = base;
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    const link = chain[i]!;
    if (link.keep > keys.length) throw corrupt(`message list ${keyString(key)}: keeps ${link.keep} of ${keys.length} keys`);
    keys = keys.slice(0, link.keep).concat(link.keys);
  }
  return keys;
}

/** The records behind message refs (`key~id`), with the ids to put back. */
async function getMessages(
  tx: ReadTx,
  threadId: string,
  refs: string[],
): Promise<Array<{ record: MessageRecord; id: string | undefined }>> {
  const store = tx.objectStore("messages");
  const parsed = refs.map(parseRef);
  const unique = [...new Set(parsed.map((p) => p.key))];
  const found = await Promise.all(unique.map((k) => store.get([threadId, k])));
  const byKey = new Map<string, MessageRecord>();
  unique.forEach((k, i) => {
    const rec = found[i];
    if (!rec) throw corrupt(`thread ${threadId}: message record ${k} is missing`);
    byKey.set(k, rec);
  });
  return parsed.map((p) => ({ record: byKey.get(p.key)!, id: p.id }));
}

async function readWrites(tx: ReadTx, threadId: string, ns: string, checkpointId: string): Promise<RawWrite[]> {
  const store = tx.objectStore("writes");
  const range = prefixRange([threadId, ns, checkpointId]);
  const [keys, records] = await Promise.all([store.getAllKeys(range), store.getAll(range)]);
  const writes = await Promise.all(
    records.map(async (record, i): Promise<RawWrite> => {
      const key = keys[i] as WriteKey;
      const value: RawValue =
        record.value.t === "m"
          ? { t: "m", messages: await getMessages(tx, threadId, record.value.keys), single: record.value.single }
          : record.value;
      return { taskId: key[3], idx: key[4], record, value };
    }),
  );
  const sortKey = (w: RawWrite) => writesSortKey(w.record.task_path, w.taskId, w.idx);
  return writes.sort((a, b) => compareWritesSortKeys(sortKey(a), sortKey(b)));
}

/** Reads everything `record` needs. Only awaits requests of `tx`, so the transaction stays active. */
export async function readTuple(tx: ReadTx, record: CheckpointRecord, cache: ListCache, snapshotEvery: number): Promise<RawTuple> {
  const { thread_id: threadId, checkpoint_ns: ns } = record;
  const blobs = tx.objectStore("blobs");
  const channels = new Map<string, RawValue>();
  const lists = new Map<string, { keys: string[]; depth: number }>();
  await Promise.all(
    Object.entries(record.versions).map(async ([channel, version]: [string, ChannelVersion]) => {
      const key: BlobKey = [threadId, ns, channel, version];
      const blob = await blobs.get(key);
      if (!blob) {
        // An empty channel has no blob; one the record says holds a value lost it.
        if (record.valued?.includes(channel)) throw corrupt(`the value of channel '${channel}' (version ${String(version)}) is missing`);
        return;
      }
      if (blob.t === "v") {
        channels.set(channel, blob);
        return;
      }
      const keys = await resolveList(tx, key, blob, cache, snapshotEvery);
      lists.set(channel, { keys, depth: blob.depth });
      channels.set(channel, { t: "m", messages: await getMessages(tx, threadId, keys) });
    }),
  );
  const writes = await readWrites(tx, threadId, ns, record.checkpoint_id);
  const raw: RawTuple = { record, channels, lists, writes };
  if (record.v < 4 && record.parent_checkpoint_id !== undefined) {
    raw.sends = (await readWrites(tx, threadId, ns, record.parent_checkpoint_id)).filter((w) => w.record.channel === TASKS);
  }
  return raw;
}

async function decodeValue(serde: SerializerProtocol, value: RawValue): Promise<unknown> {
  if (value.t === "v") return serde.loadsTyped(value.type, value.bytes);
  const messages = await Promise.all(
    value.messages.map(async (m) => restoreId(await serde.loadsTyped(m.record.type, m.record.bytes), m.id)),
  );
  return value.single ? messages[0] : messages;
}

/**
 * Deserializes a {@link RawTuple}. `metadata` skips decoding it again when
 * the caller already did (list filters); `nextVersion` versions the migrated
 * pending-sends channel of a pre-v4 checkpoint with no other channels.
 */
export async function decodeTuple(
  serde: SerializerProtocol,
  raw: RawTuple,
  metadata: CheckpointMetadata | undefined,
  nextVersion: () => ChannelVersion,
): Promise<CheckpointTuple> {
  const { record } = raw;
  const rest = (await serde.loadsTyped(record.checkpoint.type, record.checkpoint.bytes)) as Omit<
    Checkpoint,
    "channel_values" | "channel_versions"
  >;
  const channel_values: Record<string, unknown> = {};
  for (const [channel, value] of raw.channels) channel_values[channel] = await decodeValue(serde, value);
  const channel_versions: Record<string, ChannelVersion> = { ...record.versions };
  const checkpoint: Checkpoint = { ...rest, channel_values, channel_versions };
  if (raw.sends) {
    channel_values[TASKS] = await Promise.all(raw.sends.map((w) => decodeValue(serde, w.value)));
    const versions = Object.values(channel_versions);
    channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : nextVersion();
  }
  const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
    raw.writes.map(async (w): Promise<CheckpointPendingWrite> => [w.taskId, w.record.channel, await decodeValue(serde, w.value)]),
  );
  const tuple: CheckpointTuple = {
    config: { configurable: { thread_id: record.thread_id, checkpoint_ns: record.checkpoint_ns, checkpoint_id: record.checkpoint_id } },
    checkpoint,
    metadata: metadata ?? ((await serde.loadsTyped(record.metadata.type, record.metadata.bytes)) as CheckpointMetadata),
    pendingWrites,
  };
  if (record.parent_checkpoint_id !== undefined) {
    tuple.parentConfig = {
      configurable: { thread_id: record.thread_id, checkpoint_ns: record.checkpoint_ns, checkpoint_id: record.parent_checkpoint_id },
    };
  }
  return tuple;
}
