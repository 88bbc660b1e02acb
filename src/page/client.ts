/**
 * The page side of the protocol: wraps an agent worker (spawn.ts starts one) with
 * Comlink. Event callbacks cross as `Comlink.proxy` (async generators do not
 * survive Comlink, so streaming is push-based). Every call rejects once the
 * worker has failed (a script that did not load, an uncaught error), instead
 * of hanging.
 */
import { proxy, releaseProxy, transfer, wrap, type Remote } from "comlink";
import type { ErrorInfo } from "../core/errors.ts";
import { ok, type Result } from "../core/result.ts";
import { AGENT_CALLS } from "../protocol/agent-calls.ts";
import { THREADS_CHANNEL, type ThreadEvent } from "../protocol/threads.ts";
import { isTerminal, type AgentEvent, type EventCallback, type TerminalEvent } from "../protocol/events.ts";
import type { AgentUpload } from "../protocol/agents.ts";
import type { AgentWorkerApi, ContainerPort, PromptApiRemote, UserInput } from "../protocol/worker-api.ts";
import type { ApprovalDecision } from "../protocol/approvals.ts";
import type { DownloadProgress, SandboxStatus } from "../protocol/settings.ts";
import type { StartResult } from "../protocol/errors.ts";

/** A started run: its id, and its terminal event once it ends. */
export interface RunHandle {
  runId: string;
  done: Promise<TerminalEvent>;
}

export type RunStart = Result<RunHandle, Extract<StartResult, { ok: false }>["error"]>;
type OnEvent = (event: AgentEvent) => void;

type RunCalls = "startRun" | "resume" | "continueRun" | "editAndRerun" | "retry" | "runQueued";
/** Calls the client wraps: runs and callbacks (proxied), uploads (their bytes transferred, not copied). */
type CallbackCalls = RunCalls | "downloadModel" | "attachContainer" | "attachPromptApi" | "previewAgentUpload" | "runCommand";

/** The worker calls that take no callback, as they are. */
export type PlainCalls = Omit<AgentWorkerApi, CallbackCalls>;

/** The client: plain calls as they are, run calls wrapped for streaming. */
export interface AgentClient extends PlainCalls {
  /** Starts a turn; `onEvent` sees every event, the terminal one included. */
  run(threadId: string, input: UserInput, onEvent?: OnEvent): Promise<RunStart>;
  /** Answers a paused thread's approval `approvalId` (its `PendingApproval.id`; see the protocol's `resume`) and continues. */
  resume(threadId: string, decisions: ApprovalDecision[], onEvent?: OnEvent, approvalId?: string): Promise<RunStart>;
  continueRun(threadId: string, onEvent?: OnEvent): Promise<RunStart>;
  editAndRerun(threadId: string, messageIndex: number, text: string, onEvent?: OnEvent): Promise<RunStart>;
  retry(threadId: string, onEvent?: OnEvent): Promise<RunStart>;
  /** Starts a turn with the thread's queued (steering) messages, once its run has ended. */
  runQueued(threadId: string, onEvent?: OnEvent): Promise<RunStart>;
  downloadModel: (
    source: Parameters<AgentWorkerApi["downloadModel"]>[0],
    onProgress: (p: DownloadProgress) => void,
  ) => ReturnType<AgentWorkerApi["downloadModel"]>;
  /** Hands the page's WebContainer to the worker (null: none). */
  attachContainer(port: ContainerPort | null, status: SandboxStatus["webcontainer"], reason: string): Promise<SandboxStatus>;
  attachPromptApi(remote: PromptApiRemote | null): Promise<void>;
  /** Runs the person's command in a thread's shell; `onOutput` hears its output as it arrives (see the protocol's `runCommand`). */
  runCommand: AgentWorkerApi["runCommand"];
  /** Validates a dropped or picked agent; its bytes are transferred to the worker (the page's copy is emptied). */
  previewAgentUpload: AgentWorkerApi["previewAgentUpload"];
  /** Listens to every tab's thread updates (one BroadcastChannel per client, closed by `close`). Returns the unsubscribe. */
  onThreadEvent(listener: (event: ThreadEvent) => void): () => void;
  /** Resolves with the worker's first fatal error; never rejects. */
  readonly failure: Promise<ErrorInfo>;
  /** Terminates the worker. */
  close(): void;
}

function failureInfo(event: Event): ErrorInfo {
  const message = event instanceof ErrorEvent && event.message ? event.message : `Agent worker failed (${event.type}).`;
  return { name: "WorkerFailedError", message, code: "worker_failed" };
}

/**
 * Every plain call, once. Typed against the API, so a worker call that is missing here (or one named here that is
 * not a plain call) does not compile; `connectAgent` forwards exactly these.
 */
/** The agent calls but the upload, whose bytes the client transfers (`previewAgentUpload` below). */
const { previewAgentUpload: _transferred, ...PLAIN_AGENT_CALLS } = AGENT_CALLS;

export const PLAIN_CALLS = {
  ping: true,
  getSettings: true,
  updateSettings: true,
  setKey: true,
  forgetKey: true,
  keyStatus: true,
  listProviderModels: true,
  defaultWindow: true,
  setThreadModel: true,
  requestLog: true,
  forgetEverything: true,
  listLocalModels: true,
  cancelDownload: true,
  deleteLocalModel: true,
  useLocalFile: true,
  sandboxStatus: true,
  switchBranch: true,
  cancel: true,
  steer: true,
  editQueued: true,
  withdrawQueued: true,
  attachStopFlag: true,
  checkArgs: true,
  getThread: true,
  listFiles: true,
  readFile: true,
  fileBytes: true,
  writeFile: true,
  deleteFile: true,
  workspaceZip: true,
  rewindPreview: true,
  rewind: true,
  turnChanges: true,
  revertTurn: true,
  listThreads: true,
  renameThread: true,
  deleteThread: true,
  exportThread: true,
  importThread: true,
  copyThread: true,
  createThreadFrom: true,
  getThreadStatus: true,
  ...PLAIN_AGENT_CALLS,
  mcpServers: true,
  cancelCommand: true,
} as const satisfies Record<keyof PlainCalls, true>;

const PLAIN = Object.keys(PLAIN_CALLS) as (keyof PlainCalls)[];

/** Wraps the page's Prompt API for the worker: the reply stream is transferred, not copied. */
function promptRemote(remote: PromptApiRemote): PromptApiRemote {
  return {
    prompt: async (request) => {
      const stream = await remote.prompt(request);
      return transfer(stream, [stream as unknown as Transferable]);
    },
    contextWindow: () => remote.contextWindow(),
  };
}

/** The buffers of an upload's bytes (each once: two views may share one). */
function uploadBuffers(upload: AgentUpload): Transferable[] {
  const views = "files" in upload ? upload.files.map((f) => f.content) : ["zip" in upload ? upload.zip : upload.bundle];
  return [...new Set(views.map((v) => v.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

export function connectAgent(worker: Worker): AgentClient {
  const remote: Remote<AgentWorkerApi> = wrap<AgentWorkerApi>(worker);
  const api = remote as unknown as AgentWorkerApi;
  const failure = new Promise<ErrorInfo>((resolve) => {
    const fail = (event: Event) => resolve(failureInfo(event));
    worker.addEventListener("error", fail, { once: true });
    worker.addEventListener("messageerror", fail, { once: true });
  });
  const failed = failure.then((info): never => {
    const error = new Error(info.message);
    error.name = "WorkerFailedError";
    throw Object.assign(error, { code: "worker_failed" });
  });
  failed.catch(() => undefined);
  const guard = <T>(call: Promise<T>): Promise<T> => Promise.race([call, failed]);
  let closed = false;
  const listeners = new Set<(event: ThreadEvent) => void>();
  let channel: BroadcastChannel | undefined;

  /** Per thread, the shared stop flag the worker reads while a synchronous interpreter holds it (isolated pages only). */
  const stopFlags = new Map<string, Int32Array>();
  /** The thread of each run this client started and that has not ended. */
  const runThreads = new Map<string, string>();

  async function attachStopFlag(threadId: string): Promise<void> {
    if (stopFlags.has(threadId) || !globalThis.crossOriginIsolated || typeof SharedArrayBuffer === "undefined") return;
    const flag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    stopFlags.set(threadId, flag);
    await guard(api.attachStopFlag(threadId, flag));
  }

  async function start(threadId: string, call: (callback: EventCallback) => Promise<StartResult>, onEvent?: OnEvent): Promise<RunStart> {
    // Posted now, and the run's call right after it without waiting for its answer: the worker takes calls in the
    // order sent (each waits for the same storage), so the flag is the thread's before the run reads it, and the run
    // starts while the page is still drawing the message sent (the answer would wait for that).
    const attached = attachStopFlag(threadId);
    let finish: (event: TerminalEvent) => void = () => undefined;
    const done = new Promise<TerminalEvent>((resolve) => (finish = resolve));
    const callback = proxy((event: AgentEvent) => {
      onEvent?.(event);
      if (isTerminal(event)) finish(event);
    });
    const [started] = await Promise.all([guard<StartResult>(call(callback)), attached]);
    if (!started.ok) return started;
    const runId = started.value;
    runThreads.set(runId, threadId);
    const lost = failure.then((error): TerminalEvent => ({ type: "error", runId, error }));
    const ended = Promise.race([done, lost]);
    void ended.then(() => runThreads.delete(runId));
    return ok({ runId, done: ended });
  }

  const plain = Object.fromEntries(
    PLAIN.map((name) => [name, (...args: unknown[]) => guard((api[name] as (...a: unknown[]) => Promise<unknown>)(...args))]),
  ) as unknown as PlainCalls;

  return {
    ...plain,
    run: (threadId, input, onEvent) => start(threadId, (cb) => api.startRun(threadId, input, cb), onEvent),
    resume: (threadId, decisions, onEvent, approvalId) => start(threadId, (cb) => api.resume(threadId, decisions, cb, approvalId), onEvent),
    continueRun: (threadId, onEvent) => start(threadId, (cb) => api.continueRun(threadId, cb), onEvent),
    editAndRerun: (threadId, index, text, onEvent) => start(threadId, (cb) => api.editAndRerun(threadId, index, text, cb), onEvent),
    retry: (threadId, onEvent) => start(threadId, (cb) => api.retry(threadId, cb), onEvent),
    runQueued: (threadId, onEvent) => start(threadId, (cb) => api.runQueued(threadId, cb), onEvent),
    deleteThread(threadId) {
      stopFlags.delete(threadId);
      return plain.deleteThread(threadId);
    },
    cancel(runId) {
      // The flag first: the worker may be too busy (an interpreter's loop) to read the message for a while.
      const flag = stopFlags.get(runThreads.get(runId) ?? "");
      if (flag) Atomics.store(flag, 0, 1);
      return guard(api.cancel(runId));
    },
    downloadModel: (source, onProgress) => guard(api.downloadModel(source, proxy(onProgress))),
    runCommand: (threadId, command, onOutput, options) => guard(api.runCommand(threadId, command, proxy(onOutput), options)),
    attachContainer: (port, status, reason) => guard(api.attachContainer(port ? proxy(port) : null, status, reason)),
    previewAgentUpload: (upload) => guard(api.previewAgentUpload(transfer(upload, uploadBuffers(upload)))),
    attachPromptApi: (remoteApi) => guard(api.attachPromptApi(remoteApi ? proxy(promptRemote(remoteApi)) : null)),
    onThreadEvent(listener) {
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
    },
    failure,
    close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      channel?.close();
      channel = undefined;
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}
