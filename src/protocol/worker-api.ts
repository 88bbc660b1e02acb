/**
 * The agent worker's API: the calls the page makes (through page/client.ts) and the worker answers (worker/app.ts).
 * With the rest of protocol/ (events, messages, threads, files, agents, settings, MCP, the error shape in
 * errors.ts), the one contract between the page and the agent worker: both sides import it; nothing else crosses.
 *
 * Rules for everything in protocol/:
 * - Values are plain, structured-cloneable data: no class instances (no
 *   LangChain messages, no Error objects), no functions except callbacks the
 *   page wraps in `Comlink.proxy`, and `File`/`Blob`/`Uint8Array` values.
 * - Expected failures are values of one shape: a `Result` whose error is
 *   an `ErrorInfo` with a `code` from the call's documented set
 *   (`StartErrorCode`, `ThreadErrorCode`, `FileErrorCode`,
 *   `ModelListErrorCode`, `DownloadErrorCode`, `LocalFileErrorCode`) and a
 *   message written for people. A rejected call means the worker itself is
 *   broken.
 * - Events of one run arrive in order and end with exactly one terminal
 *   event (`done` or `error`).
 * - API keys go in through `setKey` and never come back out: no call
 *   returns a key, and no event, log or error message holds one.
 */
import type { ContainerFile, ContainerRun } from "../backends/sandbox/container.ts";
import type { Result } from "../core/result.ts";
import type { PromptRequest } from "../models/chrome-ai.ts";
import type { ModelChoice, ModelListError, ProviderId } from "../models/providers.ts";
import type { CachedModel, DownloadError, DownloadProgress, ModelSource } from "../models/wllama/model-store.ts";
import type { McpServersApi } from "./mcp.ts";
import type { EventCallback } from "./events.ts";
import type { ApprovalDecision } from "./approvals.ts";
import type { ThreadView, ThreadApi } from "./threads.ts";
import type { FileEntry, FilePage } from "./files.ts";
import type { RewindApi } from "./rewind.ts";
import type { SandboxStatus, Settings, KeyStatus, RequestLogEntry } from "./settings.ts";
import type { StartResult, FileResult, LocalFileError, SteerResult } from "./errors.ts";
import type { AgentLibraryApi } from "./agents.ts";
import type { TerminalApi } from "./terminal.ts";

/**
 * The page's WebContainer as the worker reaches it (a `Comlink.proxy`).
 * Callbacks are top-level arguments: Comlink proxies only those.
 */
export interface ContainerPort {
  workspace(): Promise<string | undefined>;
  mount(workspace: string, files: ContainerFile[]): Promise<void>;
  writeFile(path: string, content: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
  run(command: string, timeoutMs: number, maxOutputBytes: number, onOutput?: (chunk: string) => void): Promise<ContainerRun>;
  files(skip: string[]): Promise<ContainerFile[]>;
}

/**
 * The page's Prompt API (Chrome's built-in model; Window-only) as the worker
 * reaches it. The reply stream is transferred; cancelling it stops the model.
 */
export interface PromptApiRemote {
  prompt(request: PromptRequest): Promise<ReadableStream<string>>;
  contextWindow(): Promise<number>;
}

/** What `ping` tells about the worker. */
export interface WorkerInfo {
  inWorker: boolean;
  crossOriginIsolated: boolean;
  storage: "indexeddb" | "memory";
}

/** What the user sends: text, and files attached to the message. */
export interface UserInput {
  text: string;
  attachments?: Array<{ name: string; content: Uint8Array }>;
  /**
   * Replay a demo of the thread's agent (its file, `demos/<name>.json`) instead of calling a model: the recorded
   * replies answer, the tools run for real, and a request that no longer fits ends the run with `demo_diverged`.
   * `speed`: how much faster than recorded the replies stream (1: the recorded pace; `Infinity`: at once).
   */
  replay?: { file: string; speed?: number };
}

/** A message the person sent while a run works (steering), waiting for the run's next model call. */
export interface QueuedMessage {
  id: string;
  text: string;
}

/** The API the worker exposes with `Comlink.expose`. */
export interface AgentWorkerApi extends ThreadApi, AgentLibraryApi, TerminalApi, RewindApi {
  ping(): Promise<WorkerInfo>;

  // Settings, keys, models.
  getSettings(): Promise<Settings>;
  updateSettings(patch: Partial<Settings>): Promise<Settings>;
  /** Sets a key, bound to the origin of `baseUrl` (unset: the base URL Settings give for that provider, or its official one). */
  setKey(provider: ProviderId, key: string, remember: boolean, baseUrl?: string): Promise<KeyStatus>;
  forgetKey(provider: ProviderId): Promise<KeyStatus>;
  keyStatus(): Promise<KeyStatus[]>;
  /** Model ids the provider lists (`/v1/models`), or why it cannot (`ModelListErrorCode`; no key ever in the message). */
  listProviderModels(choice: ModelChoice): Promise<Result<string[], ModelListError>>;
  /** The window deeptab assumes for a model (its profile or table), when known. */
  defaultWindow(choice: ModelChoice): Promise<number | undefined>;
  setThreadModel(threadId: string, choice: ModelChoice): Promise<void>;
  requestLog(): Promise<RequestLogEntry[]>;
  /** Deletes keys, threads, files, memories, skills and settings (the page confirms first). */
  forgetEverything(): Promise<void>;
  /** The calls for MCP servers (mcp.ts), as a Comlink proxy: their code loads on this first call. */
  mcpServers(): Promise<McpServersApi>;

  // In-tab models (llama.cpp).
  listLocalModels(): Promise<CachedModel[]>;
  /** Downloads (or resumes) a model into the tab's store, reporting progress; why it stopped is a `DownloadErrorCode`. */
  downloadModel(source: ModelSource, onProgress: (p: DownloadProgress) => void): Promise<Result<CachedModel, DownloadError>>;
  cancelDownload(id: string): Promise<void>;
  deleteLocalModel(id: string): Promise<void>;
  /**
   * Uses a .gguf file from the user's disk for this session (read in place, never copied or uploaded): its model id,
   * or a `LocalFileErrorCode`.
   */
  useLocalFile(files: File[]): Promise<Result<string, LocalFileError>>;

  // Sandboxes and the page's services.
  attachContainer(port: ContainerPort | null, status: SandboxStatus["webcontainer"], reason: string): Promise<SandboxStatus>;
  sandboxStatus(): Promise<SandboxStatus>;
  attachPromptApi(port: PromptApiRemote | null): Promise<void>;

  // Runs.
  startRun(threadId: string, input: UserInput, onEvent: EventCallback): Promise<StartResult>;
  /**
   * Answers the pending approval `approvalId` (the `PendingApproval.id` the page showed): the decisions apply
   * to that request only (`approval_changed` when it is no longer waiting). Without an id, only while exactly
   * one request waits.
   */
  resume(threadId: string, decisions: ApprovalDecision[], onEvent: EventCallback, approvalId?: string): Promise<StartResult>;
  /**
   * Continues an interrupted run from its last checkpoint, or a run that ended with a step left (a replay that
   * diverged, a failed model call), with the thread's own model.
   */
  continueRun(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  /** Replaces the user message at `messageIndex` and runs from there (a new branch; the old one stays). */
  editAndRerun(threadId: string, messageIndex: number, text: string, onEvent: EventCallback): Promise<StartResult>;
  /** Runs the last user message again (a new branch). */
  retry(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  /** Shows another branch (`head`: a checkpoint id from `BranchInfo.heads`). */
  switchBranch(threadId: string, head: string): Promise<ThreadView>;
  cancel(runId: string): Promise<boolean>;
  /**
   * Steering: queues `text` for the thread's run in this tab, which reads it at its next model call (after the tool
   * calls in flight finish) and then announces it (a `steered` event). Until then it can be edited or withdrawn.
   * Messages still queued when the run ends stay queued: `runQueued` starts the next turn with them.
   */
  steer(threadId: string, text: string): Promise<SteerResult<QueuedMessage>>;
  /** Replaces a queued message's text (`already_taken` once the run has read it). */
  editQueued(threadId: string, id: string, text: string): Promise<SteerResult<QueuedMessage>>;
  /** Withdraws a queued message (`already_taken` once the run has read it). */
  withdrawQueued(threadId: string, id: string): Promise<SteerResult<null>>;
  /** Starts a turn with the thread's queued messages, once no run goes on (`empty_input` when none is queued). */
  runQueued(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  /**
   * The page's stop flag for a thread's runs: an `Int32Array` over a SharedArrayBuffer (cross-origin isolated pages
   * only). The worker clears it when a run starts; the page sets element 0 before it calls `cancel`, so code running
   * synchronously on the worker's thread (js_eval's interpreter) sees Stop without waiting for the message.
   */
  attachStopFlag(threadId: string, flag: Int32Array): Promise<void>;
  /** Checks edited approval arguments against the tool's schema: a problem, or null. */
  checkArgs(schema: Record<string, unknown>, args: unknown): Promise<string | null>;

  // Reading and editing a thread.
  getThread(threadId: string): Promise<ThreadView>;
  listFiles(threadId: string): Promise<FileEntry[]>;
  /** A page of a file (lines from `offset`, at most `limit`, 5,000 at most); a `FileErrorCode` when it cannot be read. */
  readFile(threadId: string, path: string, offset: number, limit: number): Promise<FileResult<FilePage>>;
  /** The whole file as bytes (download). */
  fileBytes(threadId: string, path: string): Promise<FileResult<Uint8Array>>;
  /** Writes a file as the user (the agent sees it on its next step). */
  writeFile(threadId: string, path: string, content: string): Promise<FileResult<null>>;
  deleteFile(threadId: string, path: string): Promise<FileResult<null>>;
  /** The workspace as a zip (memories not included). */
  workspaceZip(threadId: string): Promise<Uint8Array>;
}
