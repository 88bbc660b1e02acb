/**
 * The page side of the protocol: spawns the agent worker and wraps it with
 * Comlink. Event callbacks cross as `Comlink.proxy` (async generators do not
 * survive Comlink, so streaming is push-based). Every call rejects once the
 * worker has failed (a script that did not load, an uncaught error), instead
 * of hanging.
 */
import { proxy, releaseProxy, wrap, type Remote } from "comlink";
import type { ErrorInfo } from "../core/errors.ts";
import { ok, type Result } from "../core/result.ts";
import {
  THREADS_CHANNEL,
  isTerminal,
  type AgentEvent,
  type AgentWorkerApi,
  type ApprovalDecision,
  type EventCallback,
  type PendingApproval,
  type FileData,
  type MessageInfo,
  type StartResult,
  type TerminalEvent,
  type ThreadApi,
  type ThreadEvent,
  type ThreadExport,
  type ThreadInfo,
  type ThreadResult,
  type WorkerInfo,
} from "./protocol.ts";

/** A started run: its id, and its terminal event once it ends. */
export interface RunHandle {
  runId: string;
  done: Promise<TerminalEvent>;
}

export type RunStart = Result<RunHandle, Extract<StartResult, { ok: false }>["error"]>;

/** The client: run calls wrapped for streaming, and the thread calls of {@link ThreadApi} as they are. */
export interface AgentClient extends ThreadApi {
  ping(): Promise<WorkerInfo>;
  /** Starts a turn; `onEvent` sees every event, the terminal one included. */
  run(threadId: string, text: string, onEvent?: (event: AgentEvent) => void): Promise<RunStart>;
  /** Answers a paused thread's approval and continues; events as for `run`. */
  resume(threadId: string, decisions: ApprovalDecision[], onEvent?: (event: AgentEvent) => void): Promise<RunStart>;
  getPendingApproval(threadId: string): Promise<PendingApproval | null>;
  cancel(runId: string): Promise<boolean>;
  getMessages(threadId: string): Promise<MessageInfo[]>;
  getFiles(threadId: string): Promise<Record<string, FileData>>;
  /**
   * Listens to every tab's thread updates ({@link ThreadEvent}, one
   * BroadcastChannel per client, closed by `close`). Returns the unsubscribe.
   */
  onThreadEvent(listener: (event: ThreadEvent) => void): () => void;
  /** Resolves with the worker's first fatal error; never rejects. */
  readonly failure: Promise<ErrorInfo>;
  /** Terminates the worker. */
  close(): void;
}

/** The app's agent worker. Vite bundles the entry as a separate module chunk. */
export function spawnAgentWorker(): Worker {
  return new Worker(new URL("./agent.worker.ts", import.meta.url), { type: "module", name: "deeptab-agent" });
}

/** Thrown by client calls after the worker failed. */
export class WorkerFailedError extends Error {
  readonly code = "worker_failed";
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = "WorkerFailedError";
  }
}

function failureInfo(event: Event): ErrorInfo {
  const message = event instanceof ErrorEvent && event.message ? event.message : `Agent worker failed (${event.type}).`;
  return { name: "WorkerFailedError", message, code: "worker_failed" };
}

export function connectAgent(worker: Worker = spawnAgentWorker()): AgentClient {
  const api: Remote<AgentWorkerApi> = wrap<AgentWorkerApi>(worker);
  const failure = new Promise<ErrorInfo>((resolve) => {
    const fail = (event: Event) => resolve(failureInfo(event));
    worker.addEventListener("error", fail, { once: true });
    worker.addEventListener("messageerror", fail, { once: true });
  });
  const failed = failure.then((info): never => {
    throw new WorkerFailedError(info);
  });
  failed.catch(() => undefined);
  const guard = <T>(call: Promise<T>): Promise<T> => Promise.race([call, failed]);
  let closed = false;
  const listeners = new Set<(event: ThreadEvent) => void>();
  let channel: BroadcastChannel | undefined;
  const onThreadEvent = (listener: (event: ThreadEvent) => void) => {
    if (!channel && typeof BroadcastChannel !== "undefined" && !closed) {
      channel = new BroadcastChannel(THREADS_CHANNEL);
      channel.onmessage = (e: MessageEvent<ThreadEvent>) => {
        if (e.data?.type === "thread_updated") for (const l of [...listeners]) l(e.data);
      };
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };

  async function start(call: (callback: EventCallback) => Promise<StartResult>, onEvent?: (event: AgentEvent) => void): Promise<RunStart> {
    let finish: (event: TerminalEvent) => void = () => undefined;
    const done = new Promise<TerminalEvent>((resolve) => (finish = resolve));
    const callback = proxy((event: AgentEvent) => {
      onEvent?.(event);
      if (isTerminal(event)) finish(event);
    });
    const started = await guard<StartResult>(call(callback));
    if (!started.ok) return started;
    const runId = started.value;
    const lost = failure.then((error): TerminalEvent => ({ type: "error", runId, error }));
    return ok({ runId, done: Promise.race([done, lost]) });
  }

  return {
    ping: () => guard(api.ping()),
    run: (threadId, text, onEvent) => start((cb) => api.startRun(threadId, text, cb), onEvent),
    resume: (threadId, decisions, onEvent) => start((cb) => api.resume(threadId, decisions, cb), onEvent),
    getPendingApproval: (threadId) => guard(api.getPendingApproval(threadId)),
    cancel: (runId) => guard(api.cancel(runId)),
    getMessages: (threadId) => guard(api.getMessages(threadId)),
    getFiles: (threadId) => guard(api.getFiles(threadId)),
    listThreads: () => guard(api.listThreads()),
    renameThread: (threadId, title) => guard<ThreadResult<ThreadInfo>>(api.renameThread(threadId, title)),
    deleteThread: (threadId) => guard<ThreadResult<null>>(api.deleteThread(threadId)),
    exportThread: (threadId) => guard<ThreadResult<ThreadExport>>(api.exportThread(threadId)),
    importThread: (data) => guard<ThreadResult<string>>(api.importThread(data)),
    getThreadStatus: (threadId) => guard(api.getThreadStatus(threadId)),
    onThreadEvent,
    failure,
    close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      channel?.close();
      channel = undefined;
      api[releaseProxy]();
      worker.terminate();
    },
  };
}
