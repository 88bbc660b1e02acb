/**
 * The worker side of the protocol: runs agent turns and reports them as
 * protocol events. The effectful shell around events.ts; it knows nothing
 * about Comlink except how to release a proxied callback.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph/web";
import { releaseProxy } from "comlink";
import type { DeepAgent } from "../harness/create-deep-agent.ts";
import { toErrorInfo } from "../harness/errors.ts";
import { createTranslator, mergeTokens, toMessageInfo } from "./events.ts";
import type { AgentEvent, AgentWorkerApi, EventCallback, FileData, PendingApproval, StartResult, TokenEvent, WorkerInfo } from "./protocol.ts";

export interface HostOptions {
  /** The agent, or a promise of it (the worker exposes the host before storage has opened). */
  agent: DeepAgent | Promise<DeepAgent>;
  /** Reported by `ping`. */
  storage?: () => "indexeddb" | "memory";
  /** A thread's files when they live outside graph state (undefined: read them from state). */
  files?: (threadId: string) => Promise<Record<string, FileData>> | undefined;
  /** Reported by `ping`. */
  model: string;
  demo: boolean;
  /** Token events within this window are merged into one (0: every chunk is sent alone). */
  tokenBatchMs?: number;
}

/**
 * Sends one run's events in order, merging bursts of tokens. Each send awaits
 * the page's callback; a callback that fails (page gone) is ignored so the run
 * still finishes and frees its thread.
 */
class EventSink {
  readonly #emit: EventCallback;
  readonly #batchMs: number;
  #queue: Promise<void> = Promise.resolve();
  #pending: TokenEvent | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(emit: EventCallback, batchMs: number) {
    this.#emit = emit;
    this.#batchMs = batchMs;
  }

  push(event: AgentEvent): void {
    if (event.type === "token" && this.#batchMs > 0) {
      const merged = this.#pending && mergeTokens(this.#pending, event);
      if (merged) {
        this.#pending = merged;
        return;
      }
      this.#flush();
      this.#pending = event;
      this.#timer = setTimeout(() => this.#flush(), this.#batchMs);
      return;
    }
    this.#flush();
    this.#send(event);
  }

  /** Sends what is pending and waits until the page has received everything. */
  async close(): Promise<void> {
    this.#flush();
    await this.#queue;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending) this.#send(this.#pending);
    this.#pending = undefined;
  }

  #send(event: AgentEvent): void {
    this.#queue = this.#queue.then(() => this.#emit(event)).catch(() => undefined);
  }
}

/** Frees a `Comlink.proxy` callback's port; a no-op for a plain function. */
function release(callback: EventCallback): void {
  const free = (callback as unknown as { [releaseProxy]?: () => void })[releaseProxy];
  if (typeof free === "function") free();
}

function inWorkerScope(): boolean {
  return typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope;
}

interface ActiveRun {
  threadId: string;
  controller: AbortController;
}

/** The object the worker exposes. Runs are independent; one per thread at a time. */
export function createAgentHost(options: HostOptions): AgentWorkerApi {
  const agentReady = Promise.resolve(options.agent);
  const batchMs = options.tokenBatchMs ?? 16;
  const runs = new Map<string, ActiveRun>();
  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });

  async function execute(runId: string, threadId: string, input: unknown, onEvent: EventCallback, signal: AbortSignal) {
    const sink = new EventSink(onEvent, batchMs);
    const translator = createTranslator(runId);
    try {
      const agent = await agentReady;
      const stream = await agent.stream(input as Parameters<DeepAgent["stream"]>[0], {
        ...config(threadId),
        streamMode: ["messages", "updates"],
        signal,
      });
      for await (const chunk of stream) {
        for (const event of translator.translate(chunk)) sink.push(event);
      }
      sink.push({ type: "done", runId, status: translator.interrupted ? "interrupted" : "complete" });
    } catch (err) {
      if (signal.aborted) sink.push({ type: "done", runId, status: "cancelled" });
      else sink.push({ type: "error", runId, error: toErrorInfo(err) });
    } finally {
      runs.delete(runId);
      await sink.close();
      release(onEvent);
    }
  }

  function begin(threadId: string, input: unknown, onEvent: EventCallback): StartResult {
    if ([...runs.values()].some((r) => r.threadId === threadId)) {
      release(onEvent);
      return { ok: false, error: { name: "StartError", code: "thread_busy", message: `Thread ${threadId} already has a run in progress.` } };
    }
    const runId = crypto.randomUUID();
    const controller = new AbortController();
    runs.set(runId, { threadId, controller });
    void execute(runId, threadId, input, onEvent, controller.signal);
    return { ok: true, runId };
  }

  async function pendingApproval(threadId: string): Promise<PendingApproval | null> {
    const snapshot = await (await agentReady).getState(config(threadId));
    const interrupts = snapshot.tasks.flatMap((t) => t.interrupts).map((i) => ({ ...(i.id ? { id: i.id } : {}), value: JSON.parse(JSON.stringify(i.value ?? null)) as unknown }));
    return interrupts.length ? { interrupts } : null;
  }

  return {
    async ping(): Promise<WorkerInfo> {
      await agentReady;
      return {
        inWorker: inWorkerScope(),
        crossOriginIsolated: globalThis.crossOriginIsolated === true,
        model: options.model,
        demo: options.demo,
        storage: options.storage?.() ?? "memory",
      };
    },

    async startRun(threadId, text, onEvent) {
      if (!text.trim()) {
        release(onEvent);
        return { ok: false, error: { name: "StartError", code: "empty_input", message: "Type a message first." } };
      }
      return begin(threadId, { messages: [new HumanMessage(text)] }, onEvent);
    },

    async resume(threadId, decisions, onEvent) {
      if (!(await pendingApproval(threadId))) {
        release(onEvent);
        return { ok: false, error: { name: "StartError", code: "not_paused", message: `Thread ${threadId} is not waiting for an approval.` } };
      }
      return begin(threadId, new Command({ resume: { decisions } }), onEvent);
    },

    getPendingApproval: pendingApproval,

    async cancel(runId) {
      const run = runs.get(runId);
      if (!run) return false;
      run.controller.abort();
      return true;
    },

    async getMessages(threadId) {
      const snapshot = await (await agentReady).getState(config(threadId));
      const messages = (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];
      return messages.map(toMessageInfo);
    },

    async getFiles(threadId) {
      await agentReady;
      const external = options.files?.(threadId);
      if (external) return external;
      const snapshot = await (await agentReady).getState(config(threadId));
      return { ...((snapshot.values as { files?: Record<string, FileData> }).files ?? {}) };
    },
  };
}
