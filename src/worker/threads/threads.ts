/**
 * The worker's thread registry and thread management: list, rename, delete,
 * export and import. Entries live in the IndexedDB store under ["threads"];
 * checkpoints in the saver, workspace files in the layout's backend.
 */
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import type { FileData } from "../../backends/protocol.ts";
import { toErrorInfo } from "../../core/errors.ts";
import { fail as codedFail, type Result } from "../../core/result.ts";
import type { IndexedDBSaver } from "../../storage/indexeddb-saver.ts";
import type { BaseMessage } from "@langchain/core/messages";
import type { ModelChoice } from "../../models/providers.ts";
import { SHARED_ROUTES, type Layout } from "../layout.ts";
import { visibleCount } from "../runs/messages.ts";
import type { RunRegistry } from "../runs/runs.ts";
import {
  threadLockName,
  type ThreadApi,
  type ThreadAgentExport,
  type ThreadEvent,
  type ThreadExport,
  type ThreadInfo,
} from "../../protocol/threads.ts";
import type { ThreadErrorCode, ThreadResult } from "../../protocol/errors.ts";
import { ownedThreadIds, sortThreads, threadSuffix, threadTitle } from "./thread-names.ts";

const NS = ["threads"];
const PARTIALS = ["partials"];

/** A registry entry: what the list shows, plus the run state kept for reloads. */
interface Entry extends ThreadInfo {
  /** A run started and has not ended (left set when a worker goes away mid-run). */
  wasRunning?: boolean;
  /** The branch shown when it is not the newest. */
  head?: string;
}

export interface ThreadServiceOptions {
  saver: IndexedDBSaver;
  layout: Layout;
  /** The thread's history (at `checkpointId`, a branch's head; the newest by default). */
  messages(threadId: string, checkpointId?: string): Promise<BaseMessage[]>;
  /** Writes `messages` as a new thread's history (its first checkpoint). */
  writeMessages(threadId: string, messages: BaseMessage[]): Promise<void>;
  notify(event: ThreadEvent): void;
  /** True when this worker runs the thread. */
  runningHere(threadId: string): boolean;
  /** The model of a thread that has none yet. */
  defaultModel(): Promise<ModelChoice>;
  /** A thread's agent in exports and imports (thread-agent-transfer.ts); loaded when a thread with an agent needs it. */
  agents(): Promise<ThreadAgentTransfer>;
}

/** A thread's agent in its export, and an export's agent checked before an import writes anything. */
export interface ThreadAgentTransfer {
  /** The agent as the export carries it (its folder as a bundle while this browser has the version the thread ran with). */
  exported(agent: NonNullable<ThreadInfo["agent"]>): Promise<ThreadAgentExport>;
  /**
   * Validates an export's agent (nothing written): the imported thread's agent and the write that keeps the agent in
   * this browser (done once the thread is written), or why the import is refused.
   */
  imported(agent: ThreadAgentExport): Promise<Result<{ agent: ThreadInfo["agent"]; keep(): Promise<void> }, string>>;
}

/** Per-thread model choice. */
export interface ThreadModels {
  setModel(threadId: string, model: ModelChoice): Promise<void>;
}

/** Per-thread agent (unset: the general agent). */
export interface ThreadAgents {
  agentOf(threadId: string): Promise<ThreadInfo["agent"]>;
  /** Sets (or, with undefined, clears) the thread's agent; the thread's entry is created when missing. */
  setAgent(threadId: string, agent: ThreadInfo["agent"]): Promise<void>;
  /** The ids of the threads whose agent is `agentId`. */
  threadsUsing(agentId: string): Promise<string[]>;
}

function publicInfo(entry: Entry): ThreadInfo {
  const { wasRunning: _r, head: _h, ...info } = entry;
  return { ...info };
}

function fail<T>(code: ThreadErrorCode, message: string): ThreadResult<T> {
  return codedFail(code, message, "ThreadError");
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
async function lockHeld(threadId: string): Promise<boolean> {
  if (typeof navigator === "undefined" || !navigator.locks) return false;
  const { held = [] } = await navigator.locks.query();
  return held.some((l) => l.name === threadLockName(threadId));
}

export function createThreadService(options: ThreadServiceOptions): ThreadApi & RunRegistry & ThreadModels & ThreadAgents {
  const { saver, layout, notify } = options;
  const store = layout.store;
  const serde = saver.serde;

  async function entry(threadId: string): Promise<Entry | undefined> {
    return (await store.get(NS, threadId))?.value as Entry | undefined;
  }
  const save = (info: Entry) => store.put(NS, info.id, { ...info });
  /** The entry, created when missing (a thread exists once something happened in it). */
  async function ensure(threadId: string): Promise<Entry> {
    const found = await entry(threadId);
    if (found) return found;
    const now = new Date().toISOString();
    return { id: threadId, title: threadTitle(""), createdAt: now, updatedAt: now, messageCount: 0 };
  }
  async function patch(threadId: string, change: Partial<Entry>): Promise<Entry> {
    const next = { ...(await ensure(threadId)), ...change };
    for (const key of Object.keys(change) as Array<keyof Entry>) if (change[key] === undefined) delete next[key];
    await save(next);
    return next;
  }

  /** A thread's workspace files; memories and skills are every thread's, not part of one thread's export or copy. */
  async function ownFiles(threadId: string): Promise<Record<string, FileData>> {
    const all = await layout.files(threadId);
    return Object.fromEntries(Object.entries(all).filter(([path]) => !SHARED_ROUTES.some((route) => path.startsWith(route))));
  }

  /** Stores a new thread `id` with `write`; a failed write is undone (each write is its own transaction), a stored one announced. */
  async function storeNew(id: string, write: () => Promise<void>): Promise<ThreadResult<string>> {
    try {
      await write();
    } catch (err) {
      for (const saved of ownedThreadIds(id, await saver.listThreads())) await saver.deleteThread(saved);
      await layout.deleteThreadFiles(id);
      const info = toErrorInfo(err);
      return { ok: false, error: { ...info, code: info.code === "quota_exceeded" ? "quota_exceeded" : "storage_failed" } };
    }
    notify({ type: "thread_updated", threadId: id, running: false });
    return { ok: true, value: id };
  }

  return {
    async runStarted(threadId, text, model, shown) {
      const found = await ensure(threadId);
      const title = found.messageCount === 0 && found.title === threadTitle("") && text ? threadTitle(text) : found.title;
      const count = shown === undefined ? {} : { messageCount: shown };
      await save({ ...found, title, model, wasRunning: true, updatedAt: new Date().toISOString(), ...count });
    },

    async runEnded(threadId, messages) {
      const found = await ensure(threadId);
      const first = messages.find((m) => m.getType() === "human")?.text ?? "";
      const title = found.title === threadTitle("") ? threadTitle(first) : found.title;
      const { wasRunning: _was, ...rest } = found;
      await save({ ...rest, title, updatedAt: new Date().toISOString(), messageCount: visibleCount(messages) });
    },

    async savePartial(threadId, text) {
      if (text === undefined) await store.delete(PARTIALS, threadId);
      else await store.put(PARTIALS, threadId, { text });
    },

    async partial(threadId) {
      const value = (await store.get(PARTIALS, threadId))?.value as { text?: unknown } | undefined;
      return typeof value?.text === "string" ? value.text : undefined;
    },

    head: async (threadId) => (await entry(threadId))?.head,
    setHead: async (threadId, head) => void (await patch(threadId, { head })),
    wasRunning: async (threadId) => (await entry(threadId))?.wasRunning === true,
    model: async (threadId) => (await entry(threadId))?.model ?? (await options.defaultModel()),

    async setModel(threadId, model) {
      await patch(threadId, { model });
      notify({ type: "thread_updated", threadId, running: options.runningHere(threadId) });
    },

    agentOf: async (threadId) => (await entry(threadId))?.agent,
    setAgent: async (threadId, agent) => void (await patch(threadId, { agent })),
    async threadsUsing(agentId) {
      const items = await store.search(NS, { limit: 10_000 });
      return items.map((i) => i.value as Entry).flatMap((e) => (e.agent?.id === agentId ? [e.id] : []));
    },

    async listThreads() {
      const items = await store.search(NS, { limit: 10_000 });
      const { held = [] } = (await globalThis.navigator?.locks?.query()) ?? {};
      const locked = new Set(held.map((l) => l.name));
      return sortThreads(
        await Promise.all(
          items.map(async (i) => {
            const e = i.value as Entry;
            const running = locked.has(threadLockName(e.id));
            if (!e.wasRunning || running) return { ...publicInfo(e), ...(running ? { running } : {}) };
            // Its run never ended (a reload, a closed tab): the count kept at the last end is stale; the thread's state is not.
            return { ...publicInfo(e), messageCount: visibleCount(await options.messages(e.id)), interrupted: true as const };
          }),
        ),
      );
    },

    async renameThread(threadId, title) {
      const found = await entry(threadId);
      if (!found) return fail("not_found", `No thread ${threadId}.`);
      const info = { ...found, title: threadTitle(title) };
      await save(info);
      notify({ type: "thread_updated", threadId, running: false });
      return { ok: true, value: publicInfo(info) };
    },

    async deleteThread(threadId) {
      if (options.runningHere(threadId)) return fail("thread_busy", `Thread ${threadId} has a run in progress.`);
      const done = await whenFree(threadId, async () => {
        for (const id of ownedThreadIds(threadId, await saver.listThreads())) await saver.deleteThread(id);
        await layout.deleteThreadFiles(threadId);
        await store.delete(NS, threadId);
        await store.delete(PARTIALS, threadId);
      });
      if (!done) return fail("thread_busy", `Thread ${threadId} has a run in progress in another tab.`);
      notify({ type: "thread_updated", threadId, running: false });
      return { ok: true, value: null };
    },

    async exportThread(threadId) {
      const ids = ownedThreadIds(threadId, await saver.listThreads());
      const found = await entry(threadId);
      if (!found && !ids.includes(threadId)) return fail("not_found", `No thread ${threadId}.`);
      // The codec loads with the first export or import.
      const { historyEncoder } = await import("./export-codec.ts");
      const encoder = historyEncoder(serde);
      for (const id of ids) await encoder.add(threadSuffix(threadId, id), saver.list({ configurable: { thread_id: id } }));
      const { messages, values, checkpoints } = encoder.finish();
      const files = await ownFiles(threadId);
      const now = new Date().toISOString();
      const messageCount = visibleCount(await options.messages(threadId));
      const thread: ThreadInfo = found
        ? { id: found.id, title: found.title, createdAt: found.createdAt, updatedAt: found.updatedAt, messageCount }
        : { id: threadId, title: threadTitle(""), createdAt: now, updatedAt: now, messageCount };
      const agent = found?.agent && (await (await options.agents()).exported(found.agent));
      return {
        ok: true,
        value: {
          format: "deeptab-thread",
          version: 2,
          thread: { ...thread },
          messages,
          values,
          checkpoints,
          files,
          ...(agent ? { agent } : {}),
        } satisfies ThreadExport,
      };
    },

    async importThread(data) {
      // The export's validation (zod schemas) loads with the first import.
      const { parseThreadExport } = await import("./thread-export.ts");
      const checked = parseThreadExport(data);
      if (!checked.ok) return fail("invalid_export", `This file is not a valid deeptab thread export (${checked.error}).`);
      const parsed = checked.value;
      const { decodeImport } = await import("./import-history.ts");
      const decoded = await decodeImport(parsed, serde);
      if (!decoded.ok) return fail("invalid_export", decoded.error);
      const agent = parsed.agent && (await (await options.agents()).imported(parsed.agent));
      if (agent && !agent.ok) return fail("invalid_export", `This thread export cannot be imported: ${agent.error}. Nothing was stored.`);
      const id = crypto.randomUUID();
      return storeNew(id, async () => {
        for (const cp of decoded.value) {
          const { checkpoint, metadata, pendingWrites } = cp;
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
        if (agent) await agent.value.keep();
        const now = new Date().toISOString();
        await save({ ...parsed.thread, id, updatedAt: now, ...(agent?.value.agent ? { agent: agent.value.agent } : {}) });
      });
    },

    async copyThread(threadId) {
      const found = await entry(threadId);
      const ids = await saver.listThreads();
      if (!found && !ids.includes(threadId)) return fail("not_found", `No thread ${threadId}.`);
      const { messageToDict } = await import("./thread-copy.ts");
      const messages = await options.messages(threadId, found?.head);
      const files = await ownFiles(threadId);
      return { ok: true, value: { title: found?.title ?? threadTitle(""), messages: messages.map(messageToDict), files } };
    },

    async createThreadFrom(copy) {
      const { checkCopy } = await import("./thread-copy.ts");
      const checked = checkCopy(copy);
      if (!checked.ok) return fail("invalid_copy", `This thread cannot be brought into the tab (${checked.error}). Nothing was stored.`);
      const { title, messages, files } = checked.value;
      const id = crypto.randomUUID();
      return storeNew(id, async () => {
        if (messages.length) await options.writeMessages(id, messages);
        await layout.uploadThreadFiles(id, files);
        const now = new Date().toISOString();
        await save({ id, title: threadTitle(title), createdAt: now, updatedAt: now, messageCount: visibleCount(messages) });
      });
    },

    async getThreadStatus(threadId) {
      return { busy: !options.runningHere(threadId) && (await lockHeld(threadId)) };
    },
  };
}
