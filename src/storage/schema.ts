/**
 * IndexedDB schema of the checkpoint database, and its migrations.
 *
 * Four object stores, all keyed by arrays that start with `thread_id`, so
 * every per-thread query (and `deleteThread`) is a key range
 * `[thread] .. [thread, []]` (an array key sorts after every string):
 *
 * - `checkpoints` `[thread_id, checkpoint_ns, checkpoint_id]`: one record per
 *   checkpoint, without channel values. Index `by_thread` on `thread_id`.
 * - `blobs` `[thread_id, checkpoint_ns, channel, version]`: a channel value,
 *   written once when its version changes and shared by every later
 *   checkpoint that still holds that version (LangGraph's own savers do the
 *   same). Message lists are stored as lists of message keys, optionally as a
 *   delta on an earlier list of the same channel.
 * - `messages` `[thread_id, message_key]`: each serialized message once,
 *   without its id; `message_key` is a hash of those bytes, so an update-by-id
 *   gets a new key. Lists and writes hold refs `message_key~id`.
 * - `writes` `[thread_id, checkpoint_ns, checkpoint_id, task_id, idx]`:
 *   pending writes.
 *
 * Bump {@link DB_VERSION} and append to {@link MIGRATIONS} to change it;
 * never edit a migration that has shipped.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from "idb";
import { StorageError } from "./errors.ts";
import { LazyConnection } from "./idb.ts";

export type ChannelVersion = number | string;

/** A serialized value as produced by `serde.dumpsTyped`. */
export interface SerializedValue {
  t: "v";
  type: string;
  bytes: Uint8Array;
}

/** A list of messages stored by reference into the `messages` store. */
export interface MessageListValue {
  t: "m";
  /** Message refs (`message_key~id`) appended after the first `keep` entries of `base`. */
  keys: string[];
  /** Version of the same channel whose list this one extends. */
  base?: ChannelVersion;
  /** How many leading keys of `base` are kept; 0 without a base. */
  keep: number;
  /** Length of the base chain, bounded by the saver's `snapshotEvery`. */
  depth: number;
}

/** A pending write's value: serialized, or messages by reference. */
export type WriteValue = SerializedValue | { t: "m"; keys: string[]; single: boolean };

export interface CheckpointRecord {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id?: string;
  /** `checkpoint.v`, kept outside the blob so reads can branch on it in a transaction. */
  v: number;
  /** `checkpoint.channel_versions`; which blobs make up the channel values. */
  versions: Record<string, ChannelVersion>;
  /**
   * The channels of `versions` that hold a value (the others are empty and
   * have no blob), so a missing blob of one of these is corruption. Absent in
   * records written before it was kept: there a missing blob reads as empty.
   */
  valued?: string[];
  /** The checkpoint minus `channel_values` and `channel_versions`, serialized. */
  checkpoint: SerializedValue;
  metadata: SerializedValue;
}

export interface MessageRecord {
  type: string;
  bytes: Uint8Array;
}

export interface WriteRecord {
  channel: string;
  task_path: string;
  value: WriteValue;
}

export type CheckpointKey = [thread_id: string, checkpoint_ns: string, checkpoint_id: string];
export type BlobKey = [thread_id: string, checkpoint_ns: string, channel: string, version: ChannelVersion];
export type MessageKey = [thread_id: string, message_key: string];
export type WriteKey = [thread_id: string, checkpoint_ns: string, checkpoint_id: string, task_id: string, idx: number];

export interface CheckpointDB extends DBSchema {
  checkpoints: { key: CheckpointKey; value: CheckpointRecord; indexes: { by_thread: string } };
  blobs: { key: BlobKey; value: SerializedValue | MessageListValue };
  messages: { key: MessageKey; value: MessageRecord };
  writes: { key: WriteKey; value: WriteRecord };
}

export type Db = IDBPDatabase<CheckpointDB>;
export type StoreName = StoreNames<CheckpointDB>;
export const ALL_STORES: StoreName[] = ["checkpoints", "blobs", "messages", "writes"];

type UpgradeTx = IDBPTransaction<CheckpointDB, StoreName[], "versionchange">;
type Migration = (db: Db, tx: UpgradeTx) => void;

/** `MIGRATIONS[n]` upgrades a database from version `n` to `n + 1`. */
const MIGRATIONS: readonly Migration[] = [
  (db) => {
    const checkpoints = db.createObjectStore("checkpoints", {
      keyPath: ["thread_id", "checkpoint_ns", "checkpoint_id"],
    });
    checkpoints.createIndex("by_thread", "thread_id");
    db.createObjectStore("blobs");
    db.createObjectStore("messages");
    db.createObjectStore("writes");
  },
];

const DB_VERSION = MIGRATIONS.length;

/** Runs the migrations between `oldVersion` and `newVersion` inside the upgrade transaction. */
function upgrade(db: Db, oldVersion: number, newVersion: number, tx: UpgradeTx): void {
  for (let v = oldVersion; v < newVersion; v += 1) {
    const migration = MIGRATIONS[v];
    if (!migration) throw new StorageError("unavailable", `no migration from checkpoint schema v${v}`);
    migration(db, tx);
  }
}

/**
 * The lazily opened connection to the checkpoint database `name` (created or
 * upgraded on first use). It closes itself when another tab upgrades or
 * deletes the database, so it never blocks them; the next call reopens.
 */
export function checkpointConnection(name: string): LazyConnection<CheckpointDB> {
  return new LazyConnection<CheckpointDB>(name, DB_VERSION, (db, oldVersion, tx) => upgrade(db, oldVersion, DB_VERSION, tx));
}
