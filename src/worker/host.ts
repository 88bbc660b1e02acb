/**
 * The worker side of the protocol: runs agent turns and reports them as
 * protocol events. The effectful shell around events.ts; it knows nothing
 * about Comlink except how to release a proxied callback.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph/web";
import { releaseProxy } from "comlink";
import type { DeepAgent } from "../agent/create-deep-agent.ts";
import { toErrorInfo } from "../core/errors.ts";
import { ok } from "../core/result.ts";
import { createTranslator, mergeTokens, toMessageInfo } from "./events.ts";
import {
  threadLockName,
  type AgentEvent,
  type EventCallback,
  type FileData,
  type PendingApproval,
  type StartResult,
  type TerminalEvent,
  type ThreadApi,
  type ThreadEvent,
  type TokenEvent,
  type WorkerInfo,
  type AgentWorkerApi,
} from "./protocol.ts";
import type { RunHooks } from "./threads.ts";

/** The run calls of the protocol (the thread calls come from threads.ts). */
export type RunApi = Omit<AgentWorkerApi, keyof ThreadApi>;

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
  /** Called while a run holds its thread (the registry). */
  hooks?: RunHooks;
  /** Thread updates for other tabs (BroadcastChannel); run start once locked, run end once unlocked. */
  notify?: (event: ThreadEvent) => void;
}

/**
 * Runs `body` holding the thread's Web Lock. Resolves true once the lock is
 * held and `body` started, false when another context holds it; `after` runs
 * once the lock is released.
 */
function withThreadLock(threadId: string, body: () => Promise<void>, after: () => Promise<void>): Promise<boolean> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) {
    void body().finally(after);
    return Promise.resolve(true);
  }
  return new Promise<boolean>((granted) => {
    locks
      .request(threadLockName(threadId), { ifAvailable: true }, async (lock) => {
        granted(lock !== null);
        if (lock) await body();
        return lock !== null;
      })
      .then(
        (ran) => (ran ? after() : undefined),
        () => granted(false),
      );
  });
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
export function createAgentHost(options: HostOptions): RunApi & { runningHere(threadId: string): boolean } {
  const agentReady = Promise.resolve(options.agent);
  const batchMs = options.tokenBatchMs ?? 16;
  const runs = new Map<string, ActiveRun>();
  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });

  /** Streams the run into `sink` while holding the thread; returns the terminal event, which is sent once the thread is free. */
  async function execute(
    runId: string,
    threadId: string,
    input: unknown,
    text: string | undefined,
    sink: EventSink,
    signal: AbortSignal,
  ): Promise<TerminalEvent> {
    const translator = createTranslator(runId);
    let terminal: TerminalEvent;
    try {
      const agent = await agentReady;
      await options.hooks?.runStarted(threadId, text);
      options.notify?.({ type: "thread_updated", threadId, running: true });
      const stream = await agent.stream(input as Parameters<DeepAgent["stream"]>[0], {
        ...config(threadId),
        streamMode: ["messages", "updates"],
        signal,
      });
      for await (const chunk of stream) {
        for (const event of translator.translate(chunk)) sink.push(event);
      }
      terminal = { type: "done", runId, status: translator.interrupted ? "interrupted" : "complete" };
    } catch (err) {
      terminal = signal.aborted ? { type: "done", runId, status: "cancelled" } : { type: "error", runId, error: toErrorInfo(err) };
    }
    await options.hooks?.runEnded(threadId).catch(() => undefined);
    return terminal;
  }

  const runningHere = (threadId: string) => [...runs.values()].some((r) => r.threadId === threadId);
  const busy = (threadId: string, where: string): StartResult => ({
    ok: false,
    error: { name: "StartError", code: "thread_busy", message: `Thread ${threadId} already has a run in progress${where}.` },
  });

  async function begin(threadId: string, input: unknown, onEvent: EventCallback, text?: string): Promise<StartResult> {
    if (runningHere(threadId)) {
      release(onEvent);
      return busy(threadId, "");
    }
    const runId = crypto.randomUUID();
    const controller = new AbortController();
    runs.set(runId, { threadId, controller });
    const sink = new EventSink(onEvent, batchMs);
    let terminal: TerminalEvent = { type: "error", runId, error: { name: "Error", message: "The run ended without a result." } };
    const run = async () => {
      terminal = await execute(runId, threadId, input, text, sink, controller.signal);
    };
    // The thread is free (no run here, lock released) before the page hears the run ended.
    const ended = async () => {
      runs.delete(runId);
      sink.push(terminal);
      await sink.close();
      release(onEvent);
      options.notify?.({ type: "thread_updated", threadId, running: false });
    };
    if (!(await withThreadLock(threadId, run, ended))) {
      runs.delete(runId);
      release(onEvent);
      return busy(threadId, " in another tab");
    }
    return ok(runId);
  }

  async function pendingApproval(threadId: string): Promise<PendingApproval | null> {
    const snapshot = await (await agentReady).getState(config(threadId));
    const interrupts = snapshot.tasks
      .flatMap((t) => t.interrupts)
      .map((i) => ({ ...(i.id ? { id: i.id } : {}), value: JSON.parse(JSON.stringify(i.value ?? null)) as unknown }));
    return interrupts.length ? { interrupts } : null;
  }

  return {
    runningHere,

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
      return begin(threadId, { messages: [new HumanMessage(text)] }, onEvent, text);
    },

    async resume(threadId, decisions, onEvent) {
      if (!(await pendingApproval(threadId))) {
        release(onEvent);
        return {
          ok: false,
          error: { name: "StartError", code: "not_paused", message: `Thread ${threadId} is not waiting for an approval.` },
        };
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
