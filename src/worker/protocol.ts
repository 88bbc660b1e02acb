/**
 * The one contract between the page and the agent worker. Both sides import
 * it; nothing else crosses the boundary.
 *
 * Rules for everything in this file:
 * - Values are plain, structured-cloneable data: no class instances (no
 *   LangChain messages, no Error objects), no functions except the event
 *   callback, which the page wraps in `Comlink.proxy`.
 * - Expected failures are values ({@link StartResult}, {@link RunErrorEvent});
 *   a rejected call means the worker itself is broken.
 * - Events of one run arrive in order and end with exactly one terminal
 *   event ({@link DoneEvent} or {@link RunErrorEvent}).
 */
import type { FileData } from "../backends/protocol.ts";
import type { ErrorInfo } from "../core/errors.ts";
import type { Result } from "../core/result.ts";
import type { Decision } from "../middleware/hitl.ts";

export type { ErrorInfo, FileData };

/** Who wrote a message, in UI terms. */
export type Role = "user" | "assistant" | "tool" | "system";

/** A tool call the model made. `args` is the parsed JSON the model produced. */
export interface ToolCallInfo {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A message of the thread's history, flattened to text. */
export interface MessageInfo {
  /** The message id, when the model or harness gave one. */
  id?: string;
  role: Role;
  /** The text content (content blocks other than text are dropped). */
  content: string;
  /** Assistant messages: the tools it called. */
  toolCalls?: ToolCallInfo[];
  /** Tool messages: the call this answers. */
  toolCallId?: string;
  /** Tool messages: the tool's name. */
  name?: string;
  /** Tool messages: whether the tool succeeded. */
  status?: "success" | "error";
}

/**
 * Streamed assistant text. Consecutive model chunks of one message may be
 * batched into one event; `chunks` says how many model chunks it carries.
 */
export interface TokenEvent {
  type: "token";
  runId: string;
  /** The id of the assistant message being streamed (matches the later {@link RunMessageEvent}). */
  messageId?: string;
  text: string;
  chunks: number;
  /** Set when a subagent (the `task` tool) produced the text. */
  subagent?: string;
}

/** A complete message added to the thread (assistant answers; the user's own input is not echoed). */
export interface RunMessageEvent {
  type: "message";
  runId: string;
  message: MessageInfo;
}

/** A tool call is about to run. */
export interface ToolStartEvent {
  type: "tool_start";
  runId: string;
  toolCall: ToolCallInfo;
}

/** A tool call finished; `content` is what the model will see. */
export interface ToolEndEvent {
  type: "tool_end";
  runId: string;
  toolCallId: string;
  name: string;
  content: string;
  status: "success" | "error";
}

/** The run paused for a human decision (approvals). `value` is the interrupt payload as JSON. */
export interface InterruptEvent {
  type: "interrupt";
  runId: string;
  interrupts: Array<{ id?: string; value: unknown }>;
}

/** Terminal: the run ended without error. */
export interface DoneEvent {
  type: "done";
  runId: string;
  /** `complete`: the agent answered; `cancelled`: {@link AgentWorkerApi.cancel}; `interrupted`: see {@link InterruptEvent}. */
  status: "complete" | "cancelled" | "interrupted";
}

/** Terminal: the run failed. `error.code` is set for harness and provider errors that have one. */
export interface RunErrorEvent {
  type: "error";
  runId: string;
  error: ErrorInfo;
}

/** Everything a run reports to the page. */
export type AgentEvent = TokenEvent | RunMessageEvent | ToolStartEvent | ToolEndEvent | InterruptEvent | DoneEvent | RunErrorEvent;

/** The events that end a run. */
export type TerminalEvent = DoneEvent | RunErrorEvent;

export function isTerminal(event: AgentEvent): event is TerminalEvent {
  return event.type === "done" || event.type === "error";
}

/** The page's event callback. The worker awaits it, so a slow page slows the stream rather than queueing without bound. */
export type EventCallback = (event: AgentEvent) => void | Promise<void>;

/** What {@link AgentWorkerApi.ping} tells about the worker. */
export interface WorkerInfo {
  /** True when the code runs in a WorkerGlobalScope (never on the page's main thread). */
  inWorker: boolean;
  crossOriginIsolated: boolean;
  /** The chat model's type, e.g. "scripted". */
  model: string;
  /** True when the model is the scripted demo model (no API key). */
  demo: boolean;
  /** Where threads are kept: IndexedDB, or memory when IndexedDB cannot open (private mode). */
  storage: "indexeddb" | "memory";
}

/** Error codes {@link AgentWorkerApi.startRun} may return. */
export type StartErrorCode = "thread_busy" | "empty_input" | "not_paused";

/** The answer to {@link AgentWorkerApi.startRun}: the run's id as the value, or why it did not start. */
export type StartResult = Result<string, ErrorInfo & { code: StartErrorCode }>;

/** One decision per pending action request, in order (deepagents' HITL format; see middleware/hitl.ts). */
export type ApprovalDecision = Decision;

/** What a paused thread waits for: the interrupt values, as JSON. */
export interface PendingApproval {
  interrupts: Array<{ id?: string; value: unknown }>;
}

/** The API the worker exposes with `Comlink.expose`; the page holds a `Comlink.Remote` of it. */
export interface AgentWorkerApi extends ThreadApi {
  /** Cheap liveness and environment check. */
  ping(): Promise<WorkerInfo>;
  /**
   * Starts one agent turn on `threadId` with the user's `text`, and resolves
   * as soon as it started. Events follow through `onEvent` (a `Comlink.proxy`
   * on the page), ending with a terminal event. One run per thread at a time,
   * across tabs too: the run holds the thread's Web Lock ({@link threadLockName}),
   * and `thread_busy` means another run (in this or another tab) holds it.
   */
  startRun(threadId: string, text: string, onEvent: EventCallback): Promise<StartResult>;
  /**
   * Answers a paused thread's approval and continues the run; events follow as
   * for {@link startRun}. `not_paused` when the thread waits for nothing.
   */
  resume(threadId: string, decisions: ApprovalDecision[], onEvent: EventCallback): Promise<StartResult>;
  /** The approval a thread is paused on (restored from the checkpoint after a reload), or null. */
  getPendingApproval(threadId: string): Promise<PendingApproval | null>;
  /** Aborts a run; its terminal event is `done` with status `cancelled`. False when no such run is active. */
  cancel(runId: string): Promise<boolean>;
  /** The thread's history from the checkpointer (empty for an unknown thread). */
  getMessages(threadId: string): Promise<MessageInfo[]>;
  /** The thread's files (graph state), by absolute path. */
  getFiles(threadId: string): Promise<Record<string, FileData>>;
}

/** A thread in the registry, as the thread list shows it. */
export interface ThreadInfo {
  id: string;
  /** The first user message (at most 60 characters) unless renamed. */
  title: string;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  /** Messages in the thread's history when its last run ended. */
  messageCount: number;
}

/** Error codes of the thread calls. */
export type ThreadErrorCode = "invalid_export" | "not_found" | "thread_busy" | "unavailable" | "quota_exceeded" | "storage_failed";

/** The answer of a thread call: a value, or why nothing was done. */
export type ThreadResult<T> = Result<T, ErrorInfo & { code: ThreadErrorCode }>;

/** One checkpoint of an export: where it goes, and its data serialized by the saver's serde. */
export interface ExportedCheckpoint {
  /** "" for the thread itself, or the subagent suffix (`::task::<call id>`) of a child thread. */
  threadSuffix: string;
  checkpointNs: string;
  checkpointId: string;
  parentCheckpointId?: string;
  /** The serde type tag of `data`. */
  type: string;
  /** base64 of `serde.dumpsTyped({ checkpoint, metadata, pendingWrites })`. */
  data: string;
}

/** What {@link AgentWorkerApi.exportThread} produces: plain JSON, no secrets. */
export interface ThreadExport {
  format: "deeptab-thread";
  version: 1;
  thread: ThreadInfo;
  /** Every checkpoint of the thread and its subagent threads, oldest first. */
  checkpoints: ExportedCheckpoint[];
  /** The thread's workspace files (not `/memories/`, which all threads share). */
  files: Record<string, FileData>;
}

/**
 * Sent on `BroadcastChannel(THREADS_CHANNEL)` by every tab's worker when a
 * run starts (`running: true`) or ends, and on rename, delete and import
 * (`running: false`). Pages open their own channel to refresh (the UI's
 * Threads and Chat classes); no callback crosses Comlink for it.
 */
export interface ThreadEvent {
  type: "thread_updated";
  threadId: string;
  running: boolean;
}

/** The BroadcastChannel name of {@link ThreadEvent}s. */
export const THREADS_CHANNEL = "deeptab-threads";

/** The Web Lock a worker holds for the whole of a run on `threadId`. */
export function threadLockName(threadId: string): string {
  return `deeptab-thread:${threadId}`;
}

/** The thread calls of {@link AgentWorkerApi}; in memory mode they answer `unavailable` (or an empty list). */
export interface ThreadApi {
  /** Registered threads, most recently updated first. */
  listThreads(): Promise<ThreadInfo[]>;
  /** Sets a thread's title (trimmed, at most 60 characters); `not_found` for an unknown thread. */
  renameThread(threadId: string, title: string): Promise<ThreadResult<ThreadInfo>>;
  /**
   * Deletes a thread: its checkpoints, those of its subagent threads, its
   * workspace files and its registry entry. `thread_busy` while a run holds it.
   */
  deleteThread(threadId: string): Promise<ThreadResult<null>>;
  /** The thread as one JSON-serializable object (see {@link ThreadExport}). */
  exportThread(threadId: string): Promise<ThreadResult<ThreadExport>>;
  /**
   * Restores an export as a new thread and returns its id. Input that is not
   * a valid export answers `invalid_export` and writes nothing.
   */
  importThread(data: unknown): Promise<ThreadResult<string>>;
  /** `busy`: another tab's worker runs the thread right now (its Web Lock is held elsewhere). */
  getThreadStatus(threadId: string): Promise<{ busy: boolean }>;
}
