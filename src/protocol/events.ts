/**
 * The events of a run, streamed to the page's callback: they arrive in order and end with exactly one terminal event
 * (`done` or `error`).
 */
import type { ErrorInfo } from "../core/errors.ts";
import type { Todo } from "../middleware/todos.ts";
import type { MessageInfo, GradeInfo } from "./messages.ts";
import type { PendingApproval } from "./approvals.ts";

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

/**
 * Messages the person sent during the run (steering) joined the conversation: the run took them before its next
 * model call, after the results of the calls that were running. `ids` are the queued messages' ids (no longer
 * queued); `messages` are the user messages as they now stand in the thread, in order, after every message shown so far.
 */
export interface SteeredEvent {
  type: "steered";
  runId: string;
  ids: string[];
  messages: MessageInfo[];
}

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
  | SteeredEvent
  | InterruptEvent
  | DoneEvent
  | RunErrorEvent;

export type TerminalEvent = DoneEvent | RunErrorEvent;

export function isTerminal(event: AgentEvent): event is TerminalEvent {
  return event.type === "done" || event.type === "error";
}

/** The page's event callback. The worker awaits it, so a slow page slows the stream rather than queueing without bound. */
export type EventCallback = (event: AgentEvent) => void | Promise<void>;
