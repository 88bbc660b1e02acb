/**
 * Pure translation from one run's LangGraph stream chunks
 * (`streamMode: ["messages", "updates", "custom"]`) to protocol events.
 * No I/O, no timers: the host feeds chunks in and sends what comes out.
 *
 * - `updates`: complete new messages of the thread (AI and tool messages,
 *   as nodes return them), todos, summarization, the approval interrupt.
 * - `messages`: streamed assistant tokens; a subagent's (its metadata names
 *   the `task` call) become tokens and tool results of that task; the
 *   summary a summarization writes is no answer and is left out.
 *   The `inbox` step's update is the steering messages the run took (`steered`).
 * - `custom`: a command's output as it runs, provider retries, and each
 *   tool call's result as soon as it finishes (the step's update waits for
 *   all of them; the page upserts the message by id when it comes).
 * A subagent's complete AI messages come from `childMessage` (the host's
 * callback handler sees each model call end).
 */
import { AIMessage, BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { SUMMARIZATION_TAG } from "../../context/summarize.ts";
import { INBOX_NODE, TOOL_RESULT_EVENT } from "../../harness/loop.ts";
import { EXECUTE_OUTPUT } from "../../middleware/fs-tools.ts";
import { RETRY_EVENT } from "../../middleware/provider-retry.ts";
import { EVENT_KEY } from "../../middleware/summarization.ts";
import { RUBRIC_END_EVENT } from "../../middleware/rubric-events.ts";
import { isGraderFeedback } from "../../core/messages.ts";
import { gradeInfo, plain, shownApproval, toMessageInfo } from "./messages.ts";
import type { AgentEvent, TokenEvent } from "../../protocol/events.ts";
import type { MessageInfo, Todo } from "../../protocol/messages.ts";
import type { PendingApproval } from "../../protocol/approvals.ts";

export interface Translator {
  translate(chunk: unknown): AgentEvent[];
  /** A subagent's model call ended with `message`. */
  childMessage(taskId: string, message: BaseMessage): AgentEvent[];
  /** True once an update carried an interrupt. */
  readonly interrupted: boolean;
  /** The approval the run paused for, if any. */
  readonly approval: PendingApproval | null;
  /** Text of the assistant message streaming now (top level), for saving a partial answer. */
  readonly partial: string;
  /** Text of the message a subagent (its `task` call's id) is streaming now, for keeping it on Stop. */
  childPartial(taskId: string): string;
  /** The results of the current step's calls that have finished (the step's update comes when all have). */
  readonly finished: readonly ToolMessage[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A translator for run `runId` of thread `threadId`. */
export function createTranslator(runId: string, threadId: string): Translator {
  let interrupted = false;
  let approval: PendingApproval | null = null;
  let partial = "";
  let partialId: string | undefined;
  /** Per task call id: the id and text of the message its subagent streams. */
  const children = new Map<string, { id: string | undefined; text: string }>();
  let finished: ToolMessage[] = [];

  function fromUpdates(payload: unknown): AgentEvent[] {
    if (!isRecord(payload)) return [];
    const events: AgentEvent[] = [];
    for (const [node, update] of Object.entries(payload)) {
      if (node === "__interrupt__") {
        interrupted = true;
        const interrupts = (Array.isArray(update) ? update : [update]) as Array<{ value?: unknown } | undefined>;
        const found = shownApproval(interrupts.map((i) => i?.value));
        if (found) {
          approval = found;
          events.push({ type: "interrupt", runId, approval: found });
        }
        continue;
      }
      if (node === INBOX_NODE) {
        events.push(...fromInbox(update));
        continue;
      }
      for (const part of Array.isArray(update) ? update : [update]) {
        if (!isRecord(part)) continue;
        const messages: MessageInfo[] = [];
        const raw: unknown[] = Array.isArray(part.messages) ? part.messages : part.messages === undefined ? [] : [part.messages];
        for (const m of raw) {
          // The person's own messages are the page's already; the rubric loop's feedback is not.
          if (!BaseMessage.isInstance(m) || !(AIMessage.isInstance(m) || ToolMessage.isInstance(m) || isGraderFeedback(m))) continue;
          messages.push(toMessageInfo(m));
          if (AIMessage.isInstance(m)) {
            partial = "";
            partialId = undefined;
            finished = [];
          }
        }
        if (messages.length) events.push({ type: "messages", runId, messages });
        if (Array.isArray(part.todos)) events.push({ type: "todos", runId, todos: plain(part.todos) as Todo[] });
        const summary = part[EVENT_KEY];
        if (isRecord(summary) && typeof summary.filePath === "string" && typeof summary.cutoffIndex === "number") {
          events.push({ type: "summarized", runId, historyPath: summary.filePath, cutoff: summary.cutoffIndex });
        }
      }
    }
    return events;
  }

  /** The inbox step's update: the steering messages the run took, where they now stand (after everything shown). */
  function fromInbox(update: unknown): AgentEvent[] {
    const raw: unknown = isRecord(update) ? update.messages : undefined;
    const taken = (Array.isArray(raw) ? raw : []).filter((m): m is HumanMessage => HumanMessage.isInstance(m) && typeof m.id === "string");
    if (!taken.length) return [];
    return [{ type: "steered", runId, ids: taken.map((m) => m.id!), messages: taken.map(toMessageInfo) }];
  }

  function fromMessages(payload: unknown): AgentEvent[] {
    if (!Array.isArray(payload)) return [];
    const [msg, meta] = payload as [unknown, unknown];
    if (!BaseMessage.isInstance(msg)) return [];
    // The summary the model writes for summarization is not an answer (the history file and the marker show it).
    if (isRecord(meta) && Array.isArray(meta.tags) && meta.tags.includes(SUMMARIZATION_TAG)) return [];
    const taskId = isRecord(meta) && typeof meta.deeptab_task_id === "string" ? meta.deeptab_task_id : undefined;
    if (ToolMessage.isInstance(msg)) return taskId ? [{ type: "messages", runId, taskId, messages: [toMessageInfo(msg)] }] : [];
    if (msg.getType() !== "ai") return [];
    const text = msg.text;
    if (!text) return [];
    const event: TokenEvent = { type: "token", runId, text, chunks: 1 };
    if (msg.id) event.messageId = msg.id;
    if (taskId) {
      event.taskId = taskId;
      const child = children.get(taskId);
      if (child && child.id === msg.id) child.text += text;
      else children.set(taskId, { id: msg.id, text });
    } else {
      if (msg.id !== partialId) partial = "";
      partialId = msg.id;
      partial += text;
    }
    return [event];
  }

  function fromCustom(payload: unknown): AgentEvent[] {
    if (!isRecord(payload)) return [];
    if (payload.type === EXECUTE_OUTPUT && typeof payload.toolCallId === "string" && typeof payload.chunk === "string") {
      return [{ type: "tool_output", runId, toolCallId: payload.toolCallId, chunk: payload.chunk }];
    }
    // Only the run's own thread: a subagent's calls (its own thread), should they reach this stream, nest elsewhere.
    if (payload.type === TOOL_RESULT_EVENT && payload.threadId === threadId && ToolMessage.isInstance(payload.message)) {
      finished.push(payload.message);
      return [{ type: "messages", runId, messages: [toMessageInfo(payload.message)] }];
    }
    if (payload.type === RUBRIC_END_EVENT && isRecord(payload.evaluation)) {
      const grade = gradeInfo(payload.evaluation);
      const id = payload.evaluation.answerId;
      return grade ? [{ type: "grade", runId, ...(typeof id === "string" ? { messageId: id } : {}), grade }] : [];
    }
    if (payload.type === RETRY_EVENT) {
      return [
        {
          type: "retry",
          runId,
          attempt: Number(payload.attempt) || 1,
          maxAttempts: Number(payload.maxAttempts) || 1,
          waitMs: Number(payload.waitMs) || 0,
          kind: String(payload.kind ?? "unknown"),
          ...(typeof payload.status === "number" ? { status: payload.status } : {}),
        },
      ];
    }
    return [];
  }

  return {
    translate(chunk) {
      if (!Array.isArray(chunk) || chunk.length !== 2) return [];
      const [mode, payload] = chunk as [unknown, unknown];
      if (mode === "messages") return fromMessages(payload);
      if (mode === "updates") return fromUpdates(payload);
      if (mode === "custom") return fromCustom(payload);
      return [];
    },
    childMessage(taskId, message) {
      if (!AIMessage.isInstance(message)) return [];
      children.delete(taskId);
      return [{ type: "messages", runId, taskId, messages: [toMessageInfo(message)] }];
    },
    get interrupted() {
      return interrupted;
    },
    get approval() {
      return approval;
    },
    get partial() {
      return partial;
    },
    childPartial: (taskId) => children.get(taskId)?.text ?? "",
    get finished() {
      return finished;
    },
  };
}

/** Two token events as one, when they continue the same message; otherwise undefined. */
export function mergeTokens(a: TokenEvent, b: TokenEvent): TokenEvent | undefined {
  if (a.runId !== b.runId || a.messageId !== b.messageId || a.taskId !== b.taskId) return undefined;
  return { ...a, text: a.text + b.text, chunks: a.chunks + b.chunks };
}
