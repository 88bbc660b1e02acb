/**
 * The worker's thread registry and thread management: list, rename, delete,
 * export and import. Entries live in the IndexedDB store under ["threads"];
 * checkpoints in the saver, workspace files in the layout's backend.
 */
import type { Checkpoint, CheckpointMetadata, CheckpointPendingWrite, PendingWrite } from "@langchain/langgraph-checkpoint";
import { base64ToBytes, bytesToBase64 } from "../backends/file-ops.ts";
import { toErrorInfo } from "../core/errors.ts";
import type { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import type { Layout } from "./layout.ts";
import {
  threadLockName,
  type ExportedCheckpoint,
  type MessageInfo,
  type ThreadApi,
  type ThreadErrorCode,
  type ThreadEvent,
  type ThreadExport,
  type ThreadInfo,
  type ThreadResult,
} from "./protocol.ts";
import { ownedThreadIds, parseThreadExport, sortThreads, threadSuffix, threadTitle } from "./thread-export.ts";

const NS = ["threads"];

/** The run hooks the host calls (see host.ts). */
export interface RunHooks {
  /** A run got the thread's lock; `text` is the user's message (absent on resume). */
  runStarted(threadId: string, text?: string): Promise<void>;
  /** The run ended (still holding the lock). */
  runEnded(threadId: string): Promise<void>;
}

export interface ThreadServiceOptions {
  saver: IndexedDBSaver;
  layout: Layout;
  /** The thread's history (the host's getMessages). */
  messages(threadId: string): Promise<MessageInfo[]>;
  notify(event: ThreadEvent): void;
  /** True when this worker runs the thread. */
  runningHere(threadId: string): boolean;
}

interface Decoded {
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  pendingWrites: CheckpointPendingWrite[];
}

function fail<T>(code: ThreadErrorCode, message: string): ThreadResult<T> {
  return { ok: false, error: { name: "ThreadError", code, message } };
}

/** Runs `body` holding the thread's lock when it is free; false when another run holds it. */
async function whenFree(threadId: string, body: () => Promise<void>): Promise<boolean> {
  if (typeof navigator === "undefined" || !navigator.locks) {
    await body();
    return true;
  }
  return navigator.locks.request(threadLockName(threadId), { ifAvailable: true }, async (lock) => {
    if (!lock) return false;
    await body();
    return true;
  });
}

/** True when some context (this worker or another tab's) holds the thread's lock. */
export async function lockHeld(threadId: string): Promise<boolean> {
  if (typeof navigator === "undefined" || !navigator.locks) return false;
  const { held = [] } = await navigator.locks.query();
  return held.some((l) => l.name === threadLockName(threadId));
}

export function createThreadService(options: ThreadServiceOptions): ThreadApi & RunHooks {
  const { saver, layout, notify } = options;
  const store = layout.store;
  const serde = saver.serde;

  async function entry(threadId: string): Promise<ThreadInfo | undefined> {
    return (await store.get(NS, threadId))?.value as ThreadInfo | undefined;
  }
  const save = (info: ThreadInfo) => store.put(NS, info.id, { ...info });

  async function encode(savedId: string, threadId: string): Promise<ExportedCheckpoint[]> {
    const out: ExportedCheckpoint[] = [];
    for await (const tuple of saver.list({ configurable: { thread_id: savedId } })) {
      const [type, bytes] = await serde.dumpsTyped({
        checkpoint: tuple.checkpoint,
        metadata: tuple.metadata,
        pendingWrites: tuple.pendingWrites ?? [],
      });
      const parent: unknown = tuple.parentConfig?.configurable?.checkpoint_id;
      out.push({
        threadSuffix: threadSuffix(threadId, savedId),
        checkpointNs: String(tuple.config.configurable?.checkpoint_ns ?? ""),
        checkpointId: tuple.checkpoint.id,
        ...(typeof parent === "string" && parent ? { parentCheckpointId: parent } : {}),
        type,
        data: bytesToBase64(bytes),
      });
    }
    return out;
  }

  async function decode(cp: ExportedCheckpoint): Promise<Decoded | null> {
    try {
      const value = (await serde.loadsTyped(cp.type, base64ToBytes(cp.data))) as Partial<Decoded> | null;
      if (!value?.checkpoint || value.checkpoint.id !== cp.checkpointId || !value.metadata || !Array.isArray(value.pendingWrites))
        return null;
      return value as Decoded;
    } catch {
      return null;
    }
  }

  return {
    async runStarted(threadId, text) {
      if (await entry(threadId)) return;
      const now = new Date().toISOString();
      await save({ id: threadId, title: threadTitle(text ?? ""), createdAt: now, updatedAt: now, messageCount: 0 });
    },

    async runEnded(threadId) {
      const messages = await options.messages(threadId);
      const now = new Date().toISOString();
      const found = await entry(threadId);
      const title = found?.title ?? threadTitle(messages.find((m) => m.role === "user")?.content ?? "");
      await save({ id: threadId, title, createdAt: found?.createdAt ?? now, updatedAt: now, messageCount: messages.length });
    },

    async listThreads() {
      const items = await store.search(NS, { limit: 10_000 });
      return sortThreads(items.map((i) => i.value as ThreadInfo));
    },

    async renameThread(threadId, title) {
      const found = await entry(threadId);
      if (!found) return fail("not_found", `No thread ${threadId}.`);
      const info = { ...found, title: threadTitle(title) };
      await save(info);
      notify({ type: "thread_updated", threadId, running: false });
      return { ok: true, value: info };
    },

    async deleteThread(threadId) {
      if (options.runningHere(threadId)) return fail("thread_busy", `Thread ${threadId} has a run in progress.`);
      const done = await whenFree(threadId, async () => {
        for (const id of ownedThreadIds(threadId, await saver.listThreads())) await saver.deleteThread(id);
        await layout.deleteThreadFiles(threadId);
        await store.delete(NS, threadId);
      });
      if (!done) return fail("thread_busy", `Thread ${threadId} has a run in progress in another tab.`);
      notify({ type: "thread_updated", threadId, running: false });
      return { ok: true, value: null };
    },

    async exportThread(threadId) {
      const ids = ownedThreadIds(threadId, await saver.listThreads());
      const found = await entry(threadId);
      if (!found && !ids.includes(threadId)) return fail("not_found", `No thread ${threadId}.`);
      const checkpoints = (await Promise.all(ids.map((id) => encode(id, threadId)))).flat();
      checkpoints.sort((a, b) => (a.checkpointId < b.checkpointId ? -1 : a.checkpointId > b.checkpointId ? 1 : 0));
      const all = await layout.files(threadId);
      const files = Object.fromEntries(Object.entries(all).filter(([path]) => !path.startsWith("/memories/")));
      const now = new Date().toISOString();
      const messageCount = (await options.messages(threadId)).length;
      const thread: ThreadInfo = found ?? { id: threadId, title: threadTitle(""), createdAt: now, updatedAt: now, messageCount };
      return {
        ok: true,
        value: { format: "deeptab-thread", version: 1, thread: { ...thread }, checkpoints, files } satisfies ThreadExport,
      };
    },

    async importThread(data) {
      const checked = parseThreadExport(data);
      if (!checked.ok) return fail("invalid_export", `This file is not a valid deeptab thread export (${checked.error}).`);
      const parsed = checked.value;
      const decoded: Decoded[] = [];
      for (const cp of parsed.checkpoints) {
        const value = await decode(cp);
        if (!value) return fail("invalid_export", `Checkpoint ${cp.checkpointId} of the export cannot be read.`);
        decoded.push(value);
      }
      const id = crypto.randomUUID();
      try {
        for (const [i, cp] of parsed.checkpoints.entries()) {
          const { checkpoint, metadata, pendingWrites } = decoded[i]!;
          const thread_id = id + cp.threadSuffix;
          const base = { thread_id, checkpoint_ns: cp.checkpointNs };
          await saver.put(
            { configurable: { ...base, ...(cp.parentCheckpointId ? { checkpoint_id: cp.parentCheckpointId } : {}) } },
            checkpoint,
            metadata,
            checkpoint.channel_versions,
          );
          const byTask = new Map<string, PendingWrite[]>();
          for (const [taskId, channel, value] of pendingWrites) byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
          for (const [taskId, writes] of byTask)
            await saver.putWrites({ configurable: { ...base, checkpoint_id: checkpoint.id } }, writes, taskId);
        }
        await options.layout.uploadThreadFiles(id, parsed.files);
        const now = new Date().toISOString();
        await save({ ...parsed.thread, id, updatedAt: now });
      } catch (err) {
        // Undo a partial import (each write is its own transaction).
        for (const saved of ownedThreadIds(id, await saver.listThreads())) await saver.deleteThread(saved);
        await layout.deleteThreadFiles(id);
        const info = toErrorInfo(err);
        return { ok: false, error: { ...info, code: info.code === "quota_exceeded" ? "quota_exceeded" : "storage_failed" } };
      }
      notify({ type: "thread_updated", threadId: id, running: false });
      return { ok: true, value: id };
    },

    async getThreadStatus(threadId) {
      return { busy: !options.runningHere(threadId) && (await lockHeld(threadId)) };
    },
  };
}

/** The thread calls when storage is memory only. */
export const unavailableThreads: ThreadApi = {
  listThreads: async () => [],
  renameThread: async () => fail("unavailable", "Threads need IndexedDB."),
  deleteThread: async () => fail("unavailable", "Threads need IndexedDB."),
  exportThread: async () => fail("unavailable", "Threads need IndexedDB."),
  importThread: async () => fail("unavailable", "Threads need IndexedDB."),
  getThreadStatus: async () => ({ busy: false }),
};
