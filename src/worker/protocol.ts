/**
 * The one contract between the page and the agent worker. Both sides import
 * it; nothing else crosses the boundary.
 *
 * Rules for everything in this file:
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
import type { AgentManifest, McpServerSpec, ModelRef } from "../agent-folders/definition.ts";
import { MAX_AGENT_ARCHIVE_BYTES, MAX_AGENT_BYTES, MAX_AGENT_FILES } from "../agent-folders/limits.ts";
import type { AgentHost } from "../agent-folders/hosts.ts";
import type { AgentProblem } from "../agent-folders/problems.ts";
import type { BackendErrorCode, FileData } from "../backends/protocol.ts";
import type { SandboxKind } from "../agent/deeptab-prompt.ts";
import type { ContainerFile, ContainerRun } from "../backends/sandbox/container.ts";
import { PYODIDE_CDN } from "../backends/sandbox/pyodide-release.ts";
import type { ErrorInfo } from "../core/errors.ts";
import type { Result } from "../core/result.ts";
import type { ToolImage } from "../core/tool-images.ts";
import type { RubricResult } from "../middleware/rubric-events.ts";
import type { CitationInfo, WebSearchInfo } from "../core/web-search-blocks.ts";
import type { TokenUsage } from "../core/usage.ts";
import type { Decision } from "../middleware/hitl.ts";
import type { Todo } from "../middleware/todos.ts";
import type { PromptRequest } from "../models/chrome-ai.ts";
import type { ModelChoice, ModelListError, ModelListErrorCode, ProviderId } from "../models/providers.ts";
import type { CachedModel, DownloadError, DownloadErrorCode, DownloadProgress, ModelSource } from "../models/wllama/model-store.ts";
import type { LocalFileError, LocalFileErrorCode } from "./local-models.ts";
import type { LangGraphErrorCode } from "./langgraph-client.ts";
import type { McpServersApi } from "./mcp-protocol.ts";

export type {
  CachedModel,
  CitationInfo,
  DownloadError,
  DownloadErrorCode,
  DownloadProgress,
  ErrorInfo,
  FileData,
  LocalFileError,
  LocalFileErrorCode,
  ModelChoice,
  ModelListError,
  ModelListErrorCode,
  ModelSource,
  ProviderId,
  SandboxKind,
  Todo,
  WebSearchInfo,
};

/** Who wrote a message, in UI terms. */
export type Role = "user" | "assistant" | "tool" | "system";

/** A tool call the model made. `args` is the parsed JSON the model produced. */
export interface ToolCallInfo {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** For `task`: what the subagent did (its own messages), when known. */
  children?: MessageInfo[];
}

/** Provider-reported token usage of one model call. */
export type UsageInfo = TokenUsage;

/** A message of a thread, flattened to text. Lists of these are keyed by position, never by id. */
export interface MessageInfo {
  role: Role;
  /** The text content (non-text blocks are not shown). */
  content: string;
  id?: string;
  /** Assistant messages: the tools it called. */
  toolCalls?: ToolCallInfo[];
  /** Assistant messages: what the provider reported. */
  usage?: UsageInfo;
  /**
   * Assistant messages: the answer was stopped by the user (this is the part that arrived).
   * Tool messages: the call was stopped before it finished (`content` is what the model reads).
   */
  stopped?: boolean;
  /** Assistant messages: a failure (a dropped connection) cut the answer off; this is the part that arrived. */
  cutOff?: boolean;
  /** Tool messages: the call never finished (a reload cut it; the next message went on); `content` is for the model. */
  cancelled?: boolean;
  /** Tool messages: the call this answers. */
  toolCallId?: string;
  /** Tool messages: the tool's name. */
  name?: string;
  status?: "success" | "error";
  /**
   * Tool messages: the result is a person's decision at an approval, not the tool's: `reject` (the reason, or
   * deepagents' default text) or `respond` (the answer given instead of running the tool). The tool did not run.
   */
  decision?: "reject" | "respond";
  /** Assistant messages: how the rubric loop's grader judged this answer (the latest grading of it). */
  grade?: GradeInfo;
  /** User messages: feedback the rubric loop's grader added (not the person's). */
  grader?: true;
  /** Tool messages: the full result was offloaded to this file. */
  offloadedTo?: string;
  /**
   * Tool messages: the model no longer sees this result; it was cleared from its context (context/clear-results.ts)
   * and the model sees a note naming this file, which holds the full text. The page still shows the result whole.
   */
  clearedTo?: string;
  /** Tool messages: the offloaded result's head and tail, from the stub the model sees. */
  offloadPreview?: string;
  /** Tool messages: how long the call ran. */
  durationMs?: number;
  /**
   * Tool messages: images the tool returned (an MCP tool's screenshot), each a checked PNG, JPEG, GIF or WebP
   * (core/tool-images.ts); the page checks them again before it shows one, as a `data:` URL.
   */
  images?: ToolImage[];
  /** Assistant messages: the searches the provider's own web search ran for this message (shown as tool cards). */
  searches?: WebSearchInfo[];
  /** Assistant messages: the links the answer cites (http(s) only; shown as links, never as HTML). */
  citations?: CitationInfo[];
}

/** A grading by the rubric loop (deepagents' RubricMiddleware): its verdict on an answer. */
export interface GradeInfo {
  result: RubricResult;
  explanation: string;
  criteria: Array<{ name: string; passed: boolean; gap?: string }>;
  /** Zero-based, within the grading run. */
  iteration: number;
  /** The grader call's provider usage, when reported. */
  usage?: UsageInfo;
}

/** Streamed assistant text; consecutive chunks may be batched (`chunks` counts them). */
export interface TokenEvent {
  type: "token";
  runId: string;
  messageId?: string;
  text: string;
  chunks: number;
  /** Set when a subagent produced it: the `task` call it belongs to. */
  taskId?: string;
}

/** Complete new messages of the thread (or, with `taskId`, of a subagent's run). */
export interface MessagesEvent {
  type: "messages";
  runId: string;
  messages: MessageInfo[];
  taskId?: string;
}

/** Output of a running command (`execute`), as it arrives. */
export interface ToolOutputEvent {
  type: "tool_output";
  runId: string;
  toolCallId: string;
  chunk: string;
  taskId?: string;
}

export interface TodosEvent {
  type: "todos";
  runId: string;
  todos: Todo[];
}

/** Earlier messages were summarized; the full text is in `historyPath`. */
export interface SummarizedEvent {
  type: "summarized";
  runId: string;
  historyPath: string;
  /** Index of the first message still sent verbatim. */
  cutoff: number;
}

/** The rubric loop graded an answer (the message with `messageId`). */
export interface GradeEvent {
  type: "grade";
  runId: string;
  messageId?: string;
  grade: GradeInfo;
}

/** A provider call failed and is retried after `waitMs`. */
export interface RetryEvent {
  type: "retry";
  runId: string;
  attempt: number;
  maxAttempts: number;
  waitMs: number;
  kind: string;
  status?: number;
}

/**
 * What a run is doing while no answer streams (the page shows it under the
 * pending answer until the next token, message or the end):
 * - `loading_model`: llama.cpp in the tab loads the model; `progress` is the
 *   share of its file read so far;
 * - `reading_prompt`: llama.cpp in the tab reads the prompt before its first
 *   token; `progress` is the share of `tokens` (the prompt's) done;
 * - `waiting`: the request went to the provider (or Chrome's model), whose
 *   first token has not come yet.
 * Only the main agent's model calls report one (a subagent's activity shows
 * under its `task` card).
 */
export interface StatusEvent {
  type: "status";
  runId: string;
  phase: RunPhase;
  /** 0–1, when the phase can say how far it is. */
  progress?: number;
  /** `reading_prompt`: the prompt's tokens. */
  tokens?: number;
}

export type RunPhase = "loading_model" | "reading_prompt" | "waiting";

export interface InterruptEvent {
  type: "interrupt";
  runId: string;
  approval: PendingApproval;
}

export interface DoneEvent {
  type: "done";
  runId: string;
  status: "complete" | "cancelled" | "interrupted";
}

/** Terminal: the run failed. `error.message` is written for people (what happened, what to do). */
export interface RunErrorEvent {
  type: "error";
  runId: string;
  error: ErrorInfo;
}

export type AgentEvent =
  | TokenEvent
  | MessagesEvent
  | ToolOutputEvent
  | TodosEvent
  | SummarizedEvent
  | RetryEvent
  | GradeEvent
  | StatusEvent
  | InterruptEvent
  | DoneEvent
  | RunErrorEvent;

export type TerminalEvent = DoneEvent | RunErrorEvent;

export function isTerminal(event: AgentEvent): event is TerminalEvent {
  return event.type === "done" || event.type === "error";
}

/** The page's event callback. The worker awaits it, so a slow page slows the stream rather than queueing without bound. */
export type EventCallback = (event: AgentEvent) => void | Promise<void>;

/** One tool call waiting for a decision. */
export interface ApprovalAction {
  name: string;
  args: Record<string, unknown>;
  description: string;
  allowedDecisions: Array<Decision["type"]>;
  /** The tool's argument schema (to check edited arguments). */
  schema?: Record<string, unknown>;
  /** For edits and overwrites: the file before and after (for a diff). */
  change?: { path: string; before: string; after: string };
}

/** What a paused thread waits for, and where the pause comes from. */
export interface PendingApproval {
  /** Which pause this is: `resume` names it, so a decision applies only to the request it was shown for. */
  id: string;
  actions: ApprovalAction[];
  /** Set when a subagent paused: its type and the `task` call that runs it. */
  subagent?: { type: string; taskId: string };
  /**
   * Other requests pending at the same time (parallel subagents), in order:
   * each is shown, and answered, after this one.
   */
  waiting?: Array<{ subagent?: { type: string; taskId: string }; tools: string[] }>;
}

export type ApprovalDecision = Decision;

/** How a thread's turn can go on after a reload or an interruption. */
export interface InterruptedRun {
  /** The text that had streamed before the page went away, if any. */
  partial?: string;
  /** The run goes on elsewhere (a LangGraph server runs it): the page follows it rather than offering Continue. */
  running?: boolean;
}

/** Where a message sits among branches (edits create them). */
export interface BranchInfo {
  /** Index of the user message where branches differ. */
  messageIndex: number;
  /** 1-based position of the shown branch, and how many there are. */
  current: number;
  count: number;
  /** Checkpoint ids (leaves) of every branch at this point, in order. */
  heads: string[];
}

/** A thread as the page shows it. */
export interface ThreadView {
  threadId: string;
  messages: MessageInfo[];
  todos: Todo[];
  /** The latest summarization: messages before `cutoff` are summarized in `historyPath`. */
  summary?: { cutoff: number; historyPath: string };
  approval: PendingApproval | null;
  /** The last run did not finish (a reload or a crash): it can be continued. */
  interrupted?: InterruptedRun;
  model: ModelChoice;
  /**
   * The thread's agent; `changed`: the agent with this id is gone or no longer has the hash the thread ran with;
   * `unreviewed`: it came with an imported thread and the person has not reviewed it yet (the thread does not run).
   */
  agent: { id: string; name: string; hash?: string; changed?: boolean; unreviewed?: boolean };
  /** Totals of provider usage over the thread: every model call of the main agent and of its subagents. */
  usage: UsageInfo;
  /** Tokens of the latest request (provider-reported, else estimated). */
  lastRequestTokens?: number;
  /** The model's window (the one the agent's summarization is sized to) and the summarization trigger, in tokens. */
  window?: number;
  trigger?: number;
  /** The window is an assumption: the server did not report one and none is set. */
  windowAssumed?: true;
  branches: BranchInfo[];
  /** The branch shown when it is not the newest one. */
  head?: string;
  /** Tasks the agent started on LangGraph servers (async subagents), by task id: their cards open the remote thread. */
  remoteTasks?: Record<string, RemoteTask>;
}

/** An async subagent's task as the page shows it: the remote thread is `taskId` on `url`'s graph `graphId`. */
export interface RemoteTask {
  taskId: string;
  agentName: string;
  url: string;
  graphId: string;
  status: string;
}

/** A file or folder of the tree the agent sees. */
export interface FileEntry {
  path: string;
  isDir: boolean;
  size: number;
  modifiedAt?: string;
}

/** A page of a file (lines), for the viewer. */
export interface FilePage {
  path: string;
  lines: string[];
  offset: number;
  totalLines: number;
  binary: boolean;
  size: number;
  /** A binary file's image type by its first bytes (PNG, JPEG, GIF or WebP; core/tool-image-check.ts `imageTypeOf`). */
  image?: string;
}

export type SandboxChoice = SandboxKind | "auto";

export interface SandboxStatus {
  choice: SandboxChoice;
  /** The sandbox commands run in now. */
  active: SandboxKind;
  /** Why it is the active one ("no WebContainer: boot did not finish within 20 s …"). */
  reason: string;
  webcontainer: "unavailable" | "booting" | "ready";
}

export interface Settings {
  /** The model of new threads. */
  defaultModel: ModelChoice;
  sandbox: SandboxChoice;
  /** Ask before `execute` (on by default). */
  approveExecute: boolean;
  /** Ask before `write_file`, `edit_file` and `delete` (off by default; the dialog shows a diff). */
  approveWrites: boolean;
  /** Tool descriptions: chosen by the model's window (`auto`, the default), deepagents' full texts, or the compact ones. */
  toolProfile: ToolProfileChoice;
  /**
   * The harness profile of every thread (deepagentsjs' profiles: prompt additions, tool texts, exclusions): `auto`
   * (the default) picks it by the thread's provider and model; a registered key forces that one, over an agent
   * folder's own `harness_profile` (the person's choice wins, as for the tool descriptions).
   */
  harnessProfile: string;
  /**
   * Where python3 gets packages beyond the standard library: "" (the default: none, the standard library offline) or
   * the URL of a package source, a folder of a Pyodide distribution such as Pyodide's CDN (PYTHON_PACKAGES_CDN), a
   * third party the person chooses by switching it on.
   */
  pythonPackages: string;
}

/** Pyodide's CDN folder for the site's Pyodide: the package source the setting offers. */
export const PYTHON_PACKAGES_CDN = PYODIDE_CDN;

/** `auto`: compact below 16,384 tokens of window (COMPACT_PROFILE_BELOW), else full (`default`). */
export type ToolProfileChoice = "auto" | "default" | "compact";

export interface KeyStatus {
  provider: ProviderId;
  set: boolean;
  remembered: boolean;
  /** The origin the key is sent to (the endpoint it was entered with); a model on any other origin gets no key. */
  origin?: string;
  /** A key was set for an earlier session only (before a reload) and is gone: it has to be entered again. */
  notKept?: boolean;
}

/** One request the worker made to a model provider, a download host, an MCP server or a page (the request log). */
export interface RequestLogEntry {
  at: string;
  method: string;
  host: string;
  path: string;
  status?: number;
  /** The browser followed a redirect from here (the next entry is where it ended). */
  redirected?: boolean;
}

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

export type StartErrorCode =
  | "thread_busy"
  | "empty_input"
  | "not_paused"
  | "model_unavailable"
  | "not_interrupted"
  | "not_found"
  | "awaiting_approval"
  | "invalid_decision"
  /** The approval a decision was given for is no longer the one waiting. */
  | "approval_changed"
  | "attachment_failed"
  /** The model needs a key this worker does not hold (one for a past session only, or none given): ask for it. */
  | "key_missing"

  /** The thread's stored history cannot be read as messages (a crafted import, a damaged record). */
  | "broken_thread"
  /** Runtime "LangGraph server" (langgraph-runtime.ts): the server's refusals, and what that runtime cannot do yet. */
  | LangGraphErrorCode
  | "not_supported";
export type StartResult = Result<string, ErrorInfo & { code: StartErrorCode }>;

/** What the user sends: text, and files attached to the message. */
export interface UserInput {
  text: string;
  attachments?: Array<{ name: string; content: Uint8Array }>;
}

export interface ThreadInfo {
  id: string;
  /** The first user message (at most 60 characters) unless renamed. */
  title: string;
  createdAt: string;
  updatedAt: string;
  /** Messages the user and the agent wrote (what the list shows; tool results not counted). */
  messageCount: number;
  /** A run of the thread is in progress (in this tab or another). */
  running?: boolean;
  /** A run started and did not end (a reload or a crash mid-run): it can be continued. */
  interrupted?: boolean;
  model?: ModelChoice;
  /** The thread's agent (unset: the general agent) and the hash it ran with. */
  agent?: { id: string; name: string; hash?: string };
}

/**
 * Why a file call failed (readFile, fileBytes, writeFile, deleteFile): the
 * backend's own codes (backends/protocol.ts), chiefly `file_not_found`,
 * `is_directory`, `invalid_path`, `permission_denied` (a permission rule)
 * and `not_supported` (the thread's filesystem cannot read, write or
 * delete).
 */
export type FileErrorCode = BackendErrorCode;
export type FileError = ErrorInfo & { code: FileErrorCode };
export type FileResult<T> = Result<T, FileError>;

export type ThreadErrorCode =
  "invalid_export" | "invalid_copy" | "not_found" | "thread_busy" | "unavailable" | "quota_exceeded" | "storage_failed";
export type ThreadResult<T> = Result<T, ErrorInfo & { code: ThreadErrorCode }>;

/** One checkpoint of an export: where it goes, and its data serialized by the saver's serde. */
export interface ExportedCheckpoint {
  /** "" for the thread itself, or the subagent suffix (`::task::<call id>`) of a child thread. */
  threadSuffix: string;
  checkpointNs: string;
  checkpointId: string;
  parentCheckpointId?: string;
  type: string;
  /** base64 of `serde.dumpsTyped({ checkpoint, metadata, pendingWrites })`. */
  data: string;
}

/** What `exportThread` produces: plain JSON, no secrets. */
export interface ThreadExport {
  format: "deeptab-thread";
  version: 1;
  thread: ThreadInfo;
  checkpoints: ExportedCheckpoint[];
  files: Record<string, FileData>;
  /** The thread's agent when it is not the general agent. */
  agent?: ThreadAgentExport;
}

/**
 * A thread's agent in its export: which one and the hash it ran with, and its folder as a JSON bundle
 * (agent-folders/bundle.ts) when the exporting browser still had that version. An import validates the bundle with
 * the loader (and its hash) before it writes anything; an agent the importing browser does not have yet is stored
 * unreviewed: the thread does not run until the person has seen the agent's review and chosen **Use this agent**.
 */
export interface ThreadAgentExport {
  id: string;
  name: string;
  hash?: string;
  bundle?: string;
}

/** A message as LangGraph's API takes and gives it (LangChain's message dict; the messages reducer coerces it). */
export interface MessageDict {
  type: string;
  content: string | Array<Record<string, unknown>>;
  id?: string;
  name?: string;
  tool_calls?: Array<{ id: string; name: string; args: Record<string, unknown>; type?: "tool_call" }>;
  tool_call_id?: string;
  status?: "success" | "error";
}

/**
 * A thread as it moves between the tab and a LangGraph server (worker/thread-copy.ts): the shown branch's messages
 * and the workspace's files; not its branches, its subagents' own histories, or the shared memories and skills.
 */
export interface ThreadCopy {
  title: string;
  messages: MessageDict[];
  /** Path → file, as the tab keeps them (deepagents' `files` channel shape is converted on the way in). */
  files: Record<string, FileData>;
}

/** Sent on `BroadcastChannel(THREADS_CHANNEL)` by every tab's worker when a thread changes. */
export interface ThreadEvent {
  type: "thread_updated";
  threadId: string;
  running: boolean;
}

export const THREADS_CHANNEL = "deeptab-threads";

export function threadLockName(threadId: string): string {
  return `deeptab-thread:${threadId}`;
}

/** The thread calls; in memory mode they answer `unavailable` (or an empty list). */
export interface ThreadApi {
  listThreads(): Promise<ThreadInfo[]>;
  renameThread(threadId: string, title: string): Promise<ThreadResult<ThreadInfo>>;
  deleteThread(threadId: string): Promise<ThreadResult<null>>;
  exportThread(threadId: string): Promise<ThreadResult<ThreadExport>>;
  importThread(data: unknown): Promise<ThreadResult<string>>;
  /** The thread's shown branch and workspace files as a {@link ThreadCopy} (to send to a LangGraph server). */
  copyThread(threadId: string): Promise<ThreadResult<ThreadCopy>>;
  /**
   * A new tab thread from a {@link ThreadCopy} (brought from a LangGraph server): checked like an import (its first
   * problem as `invalid_copy`, nothing written), then its messages and files stored; resolves with the new id.
   */
  createThreadFrom(copy: ThreadCopy): Promise<ThreadResult<string>>;
  getThreadStatus(threadId: string): Promise<{ busy: boolean }>;
}

/**
 * Where an agent comes from:
 * - `builtin`: deeptab's general agent (always there; id {@link GENERAL_AGENT_ID}, no files, no hash);
 * - `site`: a folder under `agents/` bundled with the site by `npm run build` (`site:<folder>`);
 * - `link`: loaded from `?agent=<url>` after the person chose **Use this agent** (`url` is set);
 * - `local`: dropped or picked (a folder, a zip or a JSON bundle), or a local edit of any agent.
 */
export type AgentOrigin = "builtin" | "site" | "link" | "local";

/** The id of deeptab's own general agent. */
export const GENERAL_AGENT_ID = "general";

/**
 * What the page may hand the worker as an {@link AgentUpload} (agent-folders/limits.ts): a zip or JSON bundle of at
 * most `archiveBytes`, a folder of at most `files` files and `folderBytes` bytes. The page refuses a larger drop
 * from the files' sizes, before reading a byte of them (a 200 MB file is never read into memory).
 */
export const AGENT_UPLOAD_LIMITS = { archiveBytes: MAX_AGENT_ARCHIVE_BYTES, folderBytes: MAX_AGENT_BYTES, files: MAX_AGENT_FILES } as const;

/** An agent as the gallery, the header's picker and a thread show it. */
export interface AgentSummary {
  /**
   * Stable for as long as the agent is kept: {@link GENERAL_AGENT_ID}, `site:<folder>`, or `agent:<hash>` for one
   * stored in this browser (a link's or a local one; a new version gets a new id and the old one stays for the
   * threads that used it).
   */
  id: string;
  origin: AgentOrigin;
  /** agent.yaml's `name`, else the folder's name. */
  name: string;
  description: string;
  /** Starter prompts, shown as chips. */
  suggestions: string[];
  /** The content hash of its files (agent-folders/hash.ts); none for the general agent. */
  hash?: string;
  /** `link`: the URL it was loaded from (a changed agent at this URL is asked about again). */
  url?: string;
  /** The model the agent suggests (never a key): the person's own choice still decides. */
  model?: ModelRef;
  /** Where its commands run when it says (agent.yaml `sandbox`); otherwise the setting's. */
  sandbox?: AgentManifest["sandbox"];
  /** When it was stored in this browser (ISO); none for built-in and site agents. */
  addedAt?: string;
  /** `local` edits: the id of the agent (the version) it was edited from. */
  editedFrom?: string;
  /** Stored with an imported thread and not reviewed yet: it does not run until the person uses it from its review. */
  unreviewed?: true;
}

/**
 * Everything an agent brings, for the screen a person sees before using an agent from a link, a drop or a picker:
 * shown as text, never rendered as HTML.
 */
export interface AgentReview {
  summary: AgentSummary;
  /** AGENTS.md. */
  instructions: string;
  /**
   * `fork`: it sees the conversation so far, not only its task (`mode: fork`). `keyNotSent`: the origin its model is
   * called at, when none of the person's keys is bound to it: it gets no key there (an OpenAI-compatible server is
   * called without one; OpenAI or Anthropic there runs on the main model instead).
   */
  subagents: Array<{
    name: string;
    description: string;
    tools?: string[];
    model?: ModelRef;
    keyNotSent?: string;
    fork?: boolean;
    file: string;
  }>;
  skills: Array<{ name: string; description: string; file: string }>;
  /** Starter files a new thread gets: workspace path and size in bytes. */
  files: Array<{ path: string; size: number }>;
  /** Which built-in tools are on (agent.yaml `tools`); unset: all. */
  tools?: AgentManifest["tools"];
  /** Approval rules the agent adds (the app's own always hold: an agent cannot switch approval for `execute` off). */
  interruptOn: AgentManifest["interruptOn"];
  permissions: AgentManifest["permissions"];
  /** The rubric every answer is graded against before a run ends (agent.yaml `rubric`), with its cap. */
  rubric?: AgentManifest["rubric"];
  /** Every host the agent would contact besides the person's own provider. */
  hosts: AgentHost[];
  /** The MCP servers agent.yaml names (`mcp_servers`): none is connected unless the person adds it. */
  mcpServers: McpServerSpec[];
  /** Graphs on LangGraph servers the agent may start long tasks on (agent.yaml `async_subagents`). */
  asyncSubagents: AgentManifest["asyncSubagents"];
  /** Every file of the folder with its size (what "Share" exports and the hash covers). */
  allFiles: Array<{ path: string; size: number }>;
  /**
   * `link`: this URL was used before with other content (the hash the person accepted then): the review says the agent
   * changed and asks again.
   */
  changedFrom?: string;
  /** This exact agent (same hash) is already stored: using it does not store a second copy. */
  stored?: boolean;
}

/**
 * Why an agent call failed:
 * - `invalid_agent`: the files are not a valid agent; `problems` lists every one, each naming its file and field;
 * - `fetch_failed`: the link could not be fetched (the message says why: no CORS headers on the host, which must
 *   allow this page's origin; a 404; the network);
 * - `too_large`: the download is larger than an agent may be (agent-folders/limits.ts);
 * - `not_found`: no agent (or no pending review) with that id;
 * - `in_use`: a stored agent that threads still use cannot be removed;
 * - `storage_failed`: IndexedDB refused the write (quota); nothing was stored;
 * - `thread_started`: `setThreadAgent` on a thread that has messages (its agent is fixed by its first message);
 * - `unchanged`: `saveAgentEdit` with changes that leave every file as it was (no new version);
 * - `file_exists`: `setThreadAgent` where the thread already has a file of its own at a starter file's path (an
 *   agent's files never replace the person's; the message names each one, and nothing was written).
 */
export type AgentErrorCode =
  | "invalid_agent"
  | "fetch_failed"
  | "too_large"
  | "not_found"
  | "in_use"
  | "storage_failed"
  | "thread_started"
  | "unchanged"
  | "file_exists";
export type AgentError = ErrorInfo & { code: AgentErrorCode; problems?: AgentProblem[] };
export type AgentResult<T> = Result<T, AgentError>;

/** What a person drops or picks: a folder's files (paths relative to the folder), a zip, or a JSON bundle. */
export type AgentUpload = { files: Array<{ path: string; content: Uint8Array }> } | { zip: Uint8Array } | { bundle: Uint8Array };

/** An agent shared as files: a zip of its folder and the single-file JSON bundle (agent-folders/bundle.ts). */
export interface AgentExport {
  /** The folder's name (agent.yaml `name`, slugged), for file names. */
  slug: string;
  zip: Uint8Array;
  bundle: string;
  /** The link it came from, when it came from one (copied by "Share agent"). */
  url?: string;
}

/** An agent's folder as the editor shows it: every file, its text when it is UTF-8 text (else only its size). */
export interface AgentFolderView {
  summary: AgentSummary;
  files: Array<{ path: string; size: number; text?: string }>;
}

/** One change of an edit: a file's new text (a new file when the path is new), or its removal. */
export type AgentFileChange = { path: string; text: string } | { path: string; remove: true };

/**
 * The agent calls. A review comes first (nothing is stored by a preview); `useAgent` stores the reviewed agent,
 * pinned by the hash the person saw. Validation is all or nothing: an agent with a problem is refused whole.
 */
export interface AgentLibraryApi {
  /** The general agent, the site's agents (agents/ bundled by the build), then the stored ones, newest first. */
  listAgents(): Promise<AgentSummary[]>;
  /** The site's default agent (`DEEPTAB_DEFAULT_AGENT`, or the only bundled one), if any: the page opens on it. */
  defaultAgent(): Promise<string | undefined>;
  /** Fetches and validates an agent from a link (a zip of its folder or a JSON bundle); nothing is stored. */
  previewAgentUrl(url: string): Promise<AgentResult<AgentReview>>;
  /** Validates a dropped or picked agent; nothing is stored. */
  previewAgentUpload(upload: AgentUpload): Promise<AgentResult<AgentReview>>;
  /** The review of an agent already listed (the picker's "About", the site's agents). */
  reviewAgent(agentId: string): Promise<AgentResult<AgentReview>>;
  /**
   * Stores the agent last previewed with this hash (from `previewAgentUrl`/`previewAgentUpload`) and returns it;
   * `not_found` when no such preview is pending (the page must preview again).
   */
  useAgent(hash: string): Promise<AgentResult<AgentSummary>>;
  /** Forgets a stored agent (`in_use` while a thread uses it). Built-in and site agents cannot be removed. */
  removeAgent(agentId: string): Promise<AgentResult<null>>;
  /** The agent's folder as a zip and a JSON bundle (the general agent included). */
  exportAgent(agentId: string): Promise<AgentResult<AgentExport>>;
  /** The agent's files for the editor (the general agent's too: its agent.yaml and AGENTS.md). */
  agentFolder(agentId: string): Promise<AgentResult<AgentFolderView>>;
  /**
   * Saves an edit of any agent as a new local version (`editedFrom` names the version it came from): the whole folder
   * with the changes is validated first (`invalid_agent` with every problem, nothing stored), then stored in one
   * transaction. Threads keep the version they ran with; the version edited is no longer listed, and a local one no
   * thread uses is forgotten in the same transaction. `unchanged` when the files end up as they were.
   */
  saveAgentEdit(agentId: string, changes: AgentFileChange[]): Promise<AgentResult<AgentSummary>>;
  /**
   * The agent of a thread that has no messages yet (a thread's agent is fixed by its first message): its starter
   * files and skills are written to the thread's workspace then.
   */
  setThreadAgent(threadId: string, agentId: string): Promise<AgentResult<null>>;
}

/** The API the worker exposes with `Comlink.expose`. */
export interface AgentWorkerApi extends ThreadApi, AgentLibraryApi {
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
  /** The calls for MCP servers (mcp-protocol.ts), as a Comlink proxy: their code loads on this first call. */
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
  /** Continues an interrupted run from its last checkpoint. */
  continueRun(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  /** Replaces the user message at `messageIndex` and runs from there (a new branch; the old one stays). */
  editAndRerun(threadId: string, messageIndex: number, text: string, onEvent: EventCallback): Promise<StartResult>;
  /** Runs the last user message again (a new branch). */
  retry(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  /** Shows another branch (`head`: a checkpoint id from `BranchInfo.heads`). */
  switchBranch(threadId: string, head: string): Promise<ThreadView>;
  cancel(runId: string): Promise<boolean>;
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
