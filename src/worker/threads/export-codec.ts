/**
 * A thread's checkpoints in an export of version 2, and back. The saver's own checkpoints hold every message once
 * (storage/schema.ts); a version 1 export held each checkpoint whole, so it grew with the square of the thread's
 * length. Here each message is written once (the `messages` table), each channel value once per version, message
 * lists as deltas on the list before them, and each checkpoint and its metadata as a patch on its parent's: linear,
 * like the store.
 *
 * Decoding resolves everything back into whole checkpoints for the saver's `put`, and refuses a history whose
 * references do not hold (a message that is not there, a delta on another channel's list, a patch with no parent
 * before it), naming the first.
 */
import { BaseMessage } from "@langchain/core/messages";
import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointPendingWrite,
  CheckpointTuple,
  SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { base64ToBytes, bytesToBase64 } from "../../backends/file-ops.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { ExportedCheckpointV2, ExportedData, ExportedPlace, ExportedValue, ExportedWrite } from "../../protocol/threads.ts";
import { applyMergePatch, mergePatch } from "./merge-patch.ts";
import { isRecord } from "../../core/is-record.ts";

/** The history part of a version 2 export. */
export interface ExportedHistory {
  messages: unknown[];
  values: ExportedValue[];
  checkpoints: ExportedCheckpointV2[];
}

/** A checkpoint decoded from an export, whole, with where it goes. */
export interface ImportedCheckpoint {
  threadSuffix: string;
  checkpointNs: string;
  parentCheckpointId?: string;
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  pendingWrites: CheckpointPendingWrite[];
}

/** Most message references an import may resolve in all (its lists, whole): bounds the work a crafted file can ask. */
const MAX_RESOLVED_MESSAGES = 20_000_000;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

const isMessageList = (value: unknown): value is BaseMessage[] =>
  Array.isArray(value) && value.length > 0 && value.every((m) => BaseMessage.isInstance(m));

/** JSON text with every object's members in order of their names: one text for equal values. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (!isRecord(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

/** The place fields of an export entry: left out when "" (the thread itself, the root namespace). */
const place = (threadSuffix: string, checkpointNs: string): ExportedPlace => ({
  ...(threadSuffix ? { threadSuffix } : {}),
  ...(checkpointNs ? { checkpointNs } : {}),
});
const keyOf = (p: ExportedPlace, ...rest: unknown[]) => JSON.stringify([p.threadSuffix ?? "", p.checkpointNs ?? "", ...rest]);
const byId = (a: { checkpointId: string }, b: { checkpointId: string }) =>
  a.checkpointId < b.checkpointId ? -1 : a.checkpointId > b.checkpointId ? 1 : 0;

/** Writes a history of version 2, thread by thread (`add`), then `finish` gives it. */
export function historyEncoder(serde: SerializerProtocol): {
  add(threadSuffix: string, tuples: AsyncIterable<CheckpointTuple>): Promise<void>;
  /** The history of every thread added, its checkpoints oldest first (a parent before its children). */
  finish(): ExportedHistory;
} {
  const history: ExportedHistory = { messages: [], values: [], checkpoints: [] };
  const messageIndex = new Map<string, number>();
  const valueIndex = new Set<string>();
  /** The last list written for each channel: its index in `values` and its messages. */
  const lastList = new Map<string, { index: number; refs: number[] }>();
  /** Each checkpoint's JSON (without values) and metadata JSON, for its children's patches. */
  const whole = new Map<string, { checkpoint: unknown; metadata: unknown }>();

  async function json(value: unknown): Promise<ExportedData> {
    const [type, bytes] = await serde.dumpsTyped(value);
    return type === "json" ? { type, json: JSON.parse(decoder.decode(bytes)) } : { type, base64: bytesToBase64(bytes) };
  }
  async function message(m: BaseMessage): Promise<number> {
    const json: unknown = JSON.parse(decoder.decode((await serde.dumpsTyped(m))[1]));
    // The same message read from two checkpoints can list its fields in another order.
    const key = canonical(json);
    let index = messageIndex.get(key);
    if (index === undefined) {
      index = history.messages.push(json) - 1;
      messageIndex.set(key, index);
    }
    return index;
  }
  async function messages(list: BaseMessage[]): Promise<number[]> {
    const refs: number[] = [];
    for (const m of list) refs.push(await message(m));
    return refs;
  }
  /** Any value; messages, and an object's `messages` (a graph's input), by reference. */
  async function data(value: unknown): Promise<ExportedData> {
    if (BaseMessage.isInstance(value)) return { message: await message(value) };
    if (isMessageList(value)) return { messages: await messages(value) };
    if (isRecord(value) && isMessageList(value.messages)) {
      const { messages: list, ...rest } = value;
      const out = await json(rest);
      if ("json" in out) return { ...out, messages: await messages(list) };
    }
    return json(value);
  }

  async function add(threadSuffix: string, tuples: AsyncIterable<CheckpointTuple>): Promise<void> {
    for await (const tuple of tuples) {
      const checkpointNs = String(tuple.config.configurable?.checkpoint_ns ?? "");
      const at = place(threadSuffix, checkpointNs);
      const { channel_values: channelValues, ...rest } = tuple.checkpoint;
      for (const [channel, value] of Object.entries(channelValues)) {
        const version = tuple.checkpoint.channel_versions[channel];
        const key = keyOf(at, channel, version);
        if (version === undefined || valueIndex.has(key)) continue;
        valueIndex.add(key);
        const index = history.values.length;
        if (isMessageList(value)) {
          const refs = await messages(value);
          const list = keyOf(at, channel);
          const before = lastList.get(list);
          let keep = 0;
          while (before && keep < before.refs.length && keep < refs.length && before.refs[keep] === refs[keep]) keep += 1;
          const delta = before && keep > 0 ? { base: before.index, keep, messages: refs.slice(keep) } : { messages: refs };
          history.values.push({ ...at, channel, version, ...delta });
          lastList.set(list, { index, refs });
        } else history.values.push({ ...at, channel, version, ...(await data(value)) });
      }
      const pendingWrites: ExportedWrite[] = [];
      for (const [task, channel, value] of tuple.pendingWrites ?? []) pendingWrites.push({ task, channel, ...(await data(value)) });
      const parent: unknown = tuple.parentConfig?.configurable?.checkpoint_id;
      const checkpoint = await json({ ...rest, channel_values: {} });
      const metadata = await json(tuple.metadata ?? {});
      if ("json" in checkpoint && "json" in metadata)
        whole.set(keyOf(at, tuple.checkpoint.id), { checkpoint: checkpoint.json, metadata: metadata.json });
      history.checkpoints.push({
        ...at,
        checkpointId: tuple.checkpoint.id,
        ...(typeof parent === "string" && parent ? { parentCheckpointId: parent } : {}),
        checkpoint,
        metadata,
        pendingWrites,
      });
    }
  }

  function finish(): ExportedHistory {
    history.checkpoints.sort(byId);
    for (const cp of history.checkpoints) {
      const own = whole.get(keyOf(cp, cp.checkpointId));
      const parent = cp.parentCheckpointId ? whole.get(keyOf(cp, cp.parentCheckpointId)) : undefined;
      if (!own || !parent) continue;
      const checkpoint = mergePatch(parent.checkpoint, own.checkpoint);
      const metadata = mergePatch(parent.metadata, own.metadata);
      if (isRecord(checkpoint)) {
        // The id is the entry's checkpointId.
        delete checkpoint.id;
        cp.checkpoint = { patch: checkpoint };
      }
      if (metadata !== undefined) cp.metadata = { patch: metadata };
    }
    return history;
  }
  return { add, finish };
}

/**
 * The checkpoints of a version 2 history, whole, in the export's order; or the first problem, named. Messages are
 * revived by the serde (a crafted one that does not revive stays a plain object, for the caller's message checks).
 */
export async function decodeHistory(history: ExportedHistory, serde: SerializerProtocol): Promise<Result<ImportedCheckpoint[], string>> {
  const fromJson = (json: unknown) => serde.loadsTyped("json", encoder.encode(JSON.stringify(json)));
  const messages: unknown[] = [];
  for (const m of history.messages) messages.push(await fromJson(m));
  let resolved = 0;
  /** Message indexes of the list values resolved so far, by index in `values`. */
  const lists = new Map<number, number[]>();

  /** A list's message indexes, its delta (values only: `channel` is the list's place and channel) applied. */
  function refsOf(d: { messages: number[]; base?: number; keep?: number }, where: string, channel?: string): Result<number[], string> {
    let refs = d.messages;
    if (d.base !== undefined || d.keep !== undefined) {
      const base = d.base === undefined ? undefined : lists.get(d.base);
      const of = d.base === undefined ? undefined : history.values[d.base];
      if (!base || !of || channel === undefined || keyOf(of, of.channel) !== channel)
        return err(`${where}: its base is not an earlier list of the same channel`);
      const keep = d.keep ?? 0;
      if (keep > base.length) return err(`${where}: it keeps ${keep} of ${base.length} messages`);
      refs = base.slice(0, keep).concat(d.messages);
    }
    resolved += refs.length;
    if (resolved > MAX_RESOLVED_MESSAGES) return err(`its message lists hold more than ${MAX_RESOLVED_MESSAGES} messages in all`);
    const missing = refs.find((i) => !(Number.isInteger(i) && i >= 0 && i < messages.length));
    return missing === undefined ? ok(refs) : err(`${where}: message ${missing} is not in the export`);
  }
  /** A value (a list is a new array: each checkpoint owns its own, as the saver's reads give). */
  async function valueOf(d: ExportedData, where: string): Promise<Result<unknown, string>> {
    if ("base64" in d) return ok(await serde.loadsTyped(d.type, base64ToBytes(d.base64)));
    if ("message" in d) {
      const refs = refsOf({ messages: [d.message] }, where);
      return refs.ok ? ok(messages[d.message]) : refs;
    }
    // A write's list has no base: refsOf refuses one (it has no channel to be a delta in).
    const refs = d.messages ? refsOf("json" in d ? { messages: d.messages } : d, where) : ok([]);
    if (!refs.ok) return refs;
    const list = refs.value.map((i) => messages[i]);
    if (!("json" in d)) return ok(list);
    const value: unknown = await fromJson(d.json);
    if (!d.messages) return ok(value);
    return isRecord(value) ? ok({ ...value, messages: list }) : err(`${where}: its messages belong to a value that is not an object`);
  }

  /** Each channel value by its version: a list's message indexes, or the value. */
  const byVersion = new Map<string, { refs: number[] } | { value: unknown }>();
  for (const [i, v] of history.values.entries()) {
    const where = `value ${i}`;
    if (!("type" in v) && "messages" in v) {
      const refs = refsOf(v, where, keyOf(v, v.channel));
      if (!refs.ok) return refs;
      lists.set(i, refs.value);
      byVersion.set(keyOf(v, v.channel, v.version), { refs: refs.value });
    } else {
      const decoded = await valueOf(v, where);
      if (!decoded.ok) return decoded;
      byVersion.set(keyOf(v, v.channel, v.version), { value: decoded.value });
    }
  }

  /** The JSON of each checkpoint decoded so far (without values) and of its metadata, for its children's patches. */
  const whole = new Map<string, { checkpoint?: unknown; metadata?: unknown }>();
  async function partOf(cp: ExportedCheckpointV2, part: "checkpoint" | "metadata", where: string): Promise<Result<unknown, string>> {
    const d = cp[part];
    if ("base64" in d || "message" in d || (!("type" in d) && "messages" in d)) return valueOf(d, where);
    let json: unknown;
    if ("patch" in d) {
      const parent = cp.parentCheckpointId ? whole.get(keyOf(cp, cp.parentCheckpointId))?.[part] : undefined;
      if (parent === undefined) return err(`${where}: its ${part === "checkpoint" ? "" : "metadata's "}patch has no parent before it`);
      json = applyMergePatch(parent, d.patch);
      if (part === "checkpoint" && isRecord(json))
        Object.defineProperty(json, "id", { value: cp.checkpointId, enumerable: true, writable: true, configurable: true });
    } else json = d.json;
    whole.set(keyOf(cp, cp.checkpointId), { ...whole.get(keyOf(cp, cp.checkpointId)), [part]: json });
    return ok(await fromJson(json));
  }

  const out: ImportedCheckpoint[] = [];
  for (const cp of history.checkpoints) {
    const where = `checkpoint ${cp.checkpointId}`;
    const skeleton = await partOf(cp, "checkpoint", where);
    if (!skeleton.ok) return skeleton;
    const metadata = await partOf(cp, "metadata", where);
    if (!metadata.ok) return metadata;
    const checkpoint = skeleton.value;
    if (!isRecord(checkpoint) || checkpoint.id !== cp.checkpointId || !isRecord(checkpoint.channel_versions) || !isRecord(metadata.value))
      return err(`${where}: it is not a checkpoint`);
    const channelValues: Record<string, unknown> = {};
    for (const [channel, version] of Object.entries(checkpoint.channel_versions)) {
      const held = byVersion.get(keyOf(cp, channel, version));
      if (held) channelValues[channel] = "refs" in held ? held.refs.map((i) => messages[i]) : held.value;
    }
    const pendingWrites: CheckpointPendingWrite[] = [];
    for (const w of cp.pendingWrites) {
      const decoded = await valueOf(w, `${where}, a pending write`);
      if (!decoded.ok) return decoded;
      pendingWrites.push([w.task, w.channel, decoded.value]);
    }
    out.push({
      threadSuffix: cp.threadSuffix ?? "",
      checkpointNs: cp.checkpointNs ?? "",
      ...(cp.parentCheckpointId ? { parentCheckpointId: cp.parentCheckpointId } : {}),
      checkpoint: { ...(checkpoint as unknown as Checkpoint), channel_values: channelValues },
      metadata: metadata.value as CheckpointMetadata,
      pendingWrites,
    });
  }
  return ok(out);
}
