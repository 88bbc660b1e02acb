/**
 * Threads in the protocol: a thread as the page lists and shows it, its export and copy, the cross-tab thread
 * events, and the thread calls.
 */
import type { FileData } from "../backends/protocol.ts";
import type { Todo } from "../middleware/todos.ts";
import type { ModelChoice } from "../models/providers.ts";
import type { UsageInfo, MessageInfo, MessageDict } from "./messages.ts";
import type { PendingApproval } from "./approvals.ts";
import type { ThreadResult } from "./errors.ts";

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

/** One checkpoint of a version 1 export: where it goes, and its data serialized by the saver's serde. */
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

/**
 * An export of version 1 (until December 2026): every checkpoint whole, so it grew with the square of the thread's
 * length. Still imported.
 */
export interface ThreadExportV1 {
  format: "deeptab-thread";
  version: 1;
  thread: ThreadInfo;
  checkpoints: ExportedCheckpoint[];
  files: Record<string, FileData>;
  agent?: ThreadAgentExport;
}

/**
 * A value as the saver's serde wrote it: the JSON itself when the serde wrote JSON (`type` "json"; an object's
 * `messages` member, when it holds messages, as indexes into the export's `messages` table), base64 of its bytes
 * otherwise; or messages of the table: one (`message`), a list (`messages`), or a list that keeps the first `keep`
 * messages of an earlier list value of the same channel (`base`, its index in `values`) and adds `messages`.
 */
export type ExportedData =
  | { type: "json"; json: unknown; messages?: number[] }
  | { type: string; base64: string }
  | { message: number }
  | { messages: number[]; base?: number; keep?: number };

/** Where a value or checkpoint of an export belongs: a subagent's thread (`::task::<call id>`) and a namespace; "" when absent. */
export interface ExportedPlace {
  threadSuffix?: string;
  checkpointNs?: string;
}

/** A channel's value at one version, once for every checkpoint that holds that version. */
export type ExportedValue = ExportedPlace & { channel: string; version: string | number } & ExportedData;

/** A pending write of a checkpoint: the task that wrote it, the channel and the value. */
export type ExportedWrite = { task: string; channel: string } & ExportedData;

/**
 * One checkpoint of a version 2 export. Its channel values are in the export's `values`, by channel version. The
 * checkpoint without them (`channel_values` is `{}`) and its metadata are as the serde wrote them, or JSON merge
 * patches (RFC 7396) on its parent's, which comes earlier in the export (a step changes a few channel versions); a
 * patched checkpoint's `id` is `checkpointId`.
 */
export interface ExportedCheckpointV2 extends ExportedPlace {
  checkpointId: string;
  parentCheckpointId?: string;
  checkpoint: ExportedData | { patch: unknown };
  metadata: ExportedData | { patch: unknown };
  pendingWrites: ExportedWrite[];
}

/**
 * What `exportThread` produces: plain JSON, no secrets. Linear in the thread's length: each message once (`messages`,
 * as LangChain serializes it), each channel value once per version (`values`, message lists as deltas), and each
 * checkpoint without its values.
 */
export interface ThreadExport {
  format: "deeptab-thread";
  version: 2;
  thread: ThreadInfo;
  messages: unknown[];
  values: ExportedValue[];
  checkpoints: ExportedCheckpointV2[];
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
