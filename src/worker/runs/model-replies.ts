/**
 * Every run's model calls, kept per turn so a thread can be saved as a demo (threads/save-demo.ts). A run records
 * its calls in memory (models/replay/recorder.ts `DemoRecorder`, in the run's callbacks: the main agent's, every
 * subagent's and each summary's calls) and stores them once, as it ends, under `["model_replies", thread]` keyed by
 * the turn's user message id (stable across the branches that share it). A run that starts a turn (send, retry,
 * edit) replaces that turn's record; one that goes on (an approval's answer, Continue, a steered message) appends to
 * it. Deleted with the thread, as its workspace snapshots are.
 */
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import type { DemoCall } from "../../models/replay/format.ts";

/** The namespace the records live under (followed by the thread's id). */
const MODEL_REPLIES = "model_replies";

/** One turn's recorded model calls, with what the demo says of them. */
export interface TurnRecord {
  /** The thread's model choice as it ran: `provider:model`. */
  model: string;
  /** The window (tokens) the run's summaries were sized to, when known. */
  window?: number;
  calls: DemoCall[];
}

/** How a run's calls join its turn's record: a run starting the turn replaces it, one going on appends. */
type RecordMode = "replace" | "append";

/** A turn's record as stored, or undefined for anything else. */
function asRecord(value: unknown): TurnRecord | undefined {
  const v = value as Partial<TurnRecord> | undefined;
  if (!v || typeof v.model !== "string" || !Array.isArray(v.calls)) return undefined;
  return { model: v.model, calls: v.calls, ...(typeof v.window === "number" ? { window: v.window } : {}) };
}

/** The records of every thread, in the IndexedDB store. */
export class ModelReplies {
  readonly #store: Pick<BaseStore, "get" | "put" | "batch" | "search">;

  constructor(store: Pick<BaseStore, "get" | "put" | "batch" | "search">) {
    this.#store = store;
  }

  /** Stores a run's calls for the turn `turnId`: one read (to append) and one write. */
  async save(threadId: string, turnId: string, run: TurnRecord, mode: RecordMode): Promise<void> {
    const before = mode === "append" ? await this.get(threadId, turnId) : undefined;
    const record: TurnRecord = before ? { ...run, calls: [...before.calls, ...run.calls] } : run;
    await this.#store.put([MODEL_REPLIES, threadId], turnId, { ...record });
  }

  /** The record of the turn `turnId`, if one was stored. */
  async get(threadId: string, turnId: string): Promise<TurnRecord | undefined> {
    return asRecord((await this.#store.get([MODEL_REPLIES, threadId], turnId))?.value);
  }

  /** Forgets a thread's records (the thread is deleted). */
  async deleteThread(threadId: string): Promise<void> {
    await this.#deleteUnder([MODEL_REPLIES, threadId]);
  }

  /** Forgets every thread's records (Forget everything). */
  async forgetAll(): Promise<void> {
    await this.#deleteUnder([MODEL_REPLIES]);
  }

  async #deleteUnder(namespace: string[]): Promise<void> {
    const items = await this.#store.search(namespace, { limit: 1_000_000 });
    if (items.length) await this.#store.batch(items.map((i) => ({ namespace: i.namespace, key: i.key, value: null })));
  }
}
