/**
 * Pure helpers for the checkpoint saver: message detection and keys, content
 * hashes, message-list deltas, key ranges and the byte accounting of records.
 */
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { hash53 } from "../core/hash.ts";
import type { MessageRecord } from "./schema.ts";

/** A non-empty array whose every item is a LangChain message. */
export function isMessageList(value: unknown): value is BaseMessage[] {
  return Array.isArray(value) && value.length > 0 && value.every((m) => isBaseMessage(m));
}

/** Kept here for the saver's other importers; it lives in core/ so rooms a server reaches can use it. */
export { hash53 };

/**
 * A message as stored: `record` is the message serialized *without* its id,
 * under `key`, a 106-bit hash of those bytes; `ref` (what lists and writes
 * hold) is `key~id`, or just `key` when the message has no id.
 *
 * Leaving the id out of the record lets one record serve a message before and
 * after `messagesStateReducer` gives it an id (a node's write is serialized
 * before the reducer runs), and messages with equal content. Content changed
 * under the same id (an update-by-id) hashes to a new key.
 */
export interface EncodedMessage {
  ref: string;
  key: string;
  record: MessageRecord;
}

/** The message's lc-serialized form with `kwargs.id` removed, or the message itself if it has no such form. */
function withoutId(message: BaseMessage): unknown {
  const json = message.toJSON() as { type?: unknown; kwargs?: Record<string, unknown> };
  if (json.type !== "constructor" || !json.kwargs) return message;
  const { id: _id, ...kwargs } = json.kwargs;
  return { ...json, kwargs };
}

/**
 * Per-saver memo of message encodings, keyed by message object. An entry is
 * reused only while every constructor field the message serializes
 * (`toJSON` reads `this[key]` for each key of `lc_kwargs`) is still the same
 * value (`===`), the id excepted, since it is not part of the record. A field
 * reassigned, or a message replaced by id (what `messagesStateReducer` does),
 * is re-serialized; a message mutated deep inside a field after it was
 * checkpointed (e.g. `m.content[0].text = ...`) is not: messages are treated
 * as immutable values, as LangGraph's reducers do.
 */
export type EncodingMemo = WeakMap<BaseMessage, { fields: unknown[]; key: string; record: MessageRecord }>;

function serializedFields(message: BaseMessage): unknown[] {
  const own = message as unknown as Record<string, unknown>;
  const kwargs = message.lc_kwargs as Record<string, unknown>;
  const fields: unknown[] = [];
  for (const k of Object.keys(kwargs)) {
    if (k !== "id") fields.push(k, k in own ? own[k] : kwargs[k]);
  }
  return fields;
}

function sameFields(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Serializes each message (id left out) with `serde` and derives its key and ref. */
export async function encodeMessages(serde: SerializerProtocol, messages: BaseMessage[], memo?: EncodingMemo): Promise<EncodedMessage[]> {
  return Promise.all(
    messages.map(async (m) => {
      const fields = memo ? serializedFields(m) : [];
      let entry = memo?.get(m);
      if (!entry || !sameFields(entry.fields, fields)) {
        const [type, bytes] = await serde.dumpsTyped(withoutId(m));
        const key = `${hash53(bytes).toString(36)}.${hash53(bytes, 0x9e3779b9).toString(36)}`;
        entry = { fields, key, record: { type, bytes } };
        memo?.set(m, entry);
      }
      return { ref: typeof m.id === "string" ? `${entry.key}~${m.id}` : entry.key, key: entry.key, record: entry.record };
    }),
  );
}

/** Splits a ref into the message record key and the message id. */
export function parseRef(ref: string): { key: string; id: string | undefined } {
  const i = ref.indexOf("~");
  return i < 0 ? { key: ref, id: undefined } : { key: ref.slice(0, i), id: ref.slice(i + 1) };
}

/** Puts the id back on a message loaded from a record stored without it. */
export function restoreId(message: unknown, id: string | undefined): unknown {
  if (id === undefined || !isBaseMessage(message)) return message;
  message.id = id;
  (message.lc_kwargs as Record<string, unknown>).id = id;
  return message;
}

/** Length of the common prefix of two key lists. */
export function commonPrefix(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i += 1;
  return i;
}

/** Key range covering every array key that starts with `prefix`. */
export function prefixRange(prefix: IDBValidKey[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

/** UTF-8 byte length of a string, without allocating. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i += 1;
    } else n += 3;
  }
  return n;
}

/**
 * Approximate stored size of a key or record: byte arrays by length, strings
 * as UTF-8, numbers as 8 bytes, object property names included. This is the
 * figure the saver's `stats.bytesWritten` adds up.
 */
export function sizeOf(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === "string") return utf8Length(value);
  if (typeof value === "number") return 8;
  if (typeof value === "boolean") return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + sizeOf(v), 0);
  if (typeof value === "object") {
    let n = 0;
    for (const [k, v] of Object.entries(value)) n += utf8Length(k) + sizeOf(v);
    return n;
  }
  return 0;
}

/** Compact string form of an array key, for in-memory maps. */
export function keyString(key: readonly IDBValidKey[]): string {
  return JSON.stringify(key);
}
