/**
 * The shown thread and its running turn as plain data, and the pure reducer
 * that applies protocol events to it. The rune class (thread.svelte.ts)
 * holds one LiveThread and swaps it; the worker's ThreadView replaces it
 * whenever a run ends (the checkpoint is the truth).
 */
import type { AgentEvent, RetryEvent, StatusEvent } from "../../protocol/events.ts";
import type { ErrorInfo } from "../../protocol/errors.ts";
import type { MessageInfo, Todo } from "../../protocol/messages.ts";
import type { PendingApproval } from "../../protocol/approvals.ts";
import type { ThreadView } from "../../protocol/threads.ts";

export interface ChildActivity {
  messages: MessageInfo[];
  text: string;
  /** The id of the message `text` belongs to (a retried model call streams a new one). */
  textId?: string | undefined;
}

export interface LiveThread {
  messages: readonly MessageInfo[];
  todos: readonly Todo[];
  approval: PendingApproval | null;
  summary?: { cutoff: number; historyPath: string } | undefined;
  /** The run in progress: its id, "starting" until the worker names it, or null. */
  runId: string | null;
  /** Top-level text streaming now (not yet a message). */
  streaming: string;
  streamingId?: string | undefined;
  outputs: Readonly<Record<string, string>>;
  children: Readonly<Record<string, ChildActivity>>;
  retry: RetryEvent | null;
  /** What the run does while no answer streams (loading the model, reading the prompt, waiting); null once text or a message comes. */
  status: StatusEvent | null;
  error: ErrorInfo | null;
  /** The last finished assistant text, for the live region. */
  finished: string;
}

export const STARTING = "starting";

export function fromView(view: ThreadView): LiveThread {
  return {
    messages: view.messages,
    todos: view.todos,
    approval: view.approval,
    summary: view.summary,
    runId: null,
    streaming: "",
    outputs: {},
    children: {},
    retry: null,
    status: null,
    error: null,
    finished: "",
  };
}

export function emptyLive(): LiveThread {
  return {
    messages: [],
    todos: [],
    approval: null,
    runId: null,
    streaming: "",
    outputs: {},
    children: {},
    retry: null,
    status: null,
    error: null,
    finished: "",
  };
}

/** The user's message goes in (shown at once) and a run is expected. */
export function beginTurn(live: LiveThread, text?: string): LiveThread {
  const messages = text === undefined ? live.messages : [...live.messages, { role: "user" as const, content: text }];
  return {
    ...live,
    messages,
    runId: STARTING,
    error: null,
    retry: null,
    status: null,
    approval: null,
    streaming: "",
    outputs: {},
    children: {},
  };
}

/**
 * A turn sent before the thread's view had loaded (a message typed right after a reload) shows only its own messages;
 * when the view arrives during the run, the earlier conversation goes in front of them. Messages the run has shown
 * already are not repeated: those with an id the turn holds, and the stored copy of the turn's own message, which is
 * the view's last message then (the worker stored it before it read the view; a different text, or one answered in
 * the view, is an earlier message).
 */
export function withEarlier(live: LiveThread, view: ThreadView): LiveThread {
  const shown = new Set(live.messages.flatMap((m) => (m.id ? [`${m.role}:${m.id}`] : [])));
  const earlier = view.messages.filter((m) => !(m.id && shown.has(`${m.role}:${m.id}`)));
  const own = live.messages[0];
  const last = earlier.at(-1);
  if (own?.role === "user" && !own.id && last?.role === "user" && last.content === own.content) earlier.pop();
  return { ...live, messages: [...earlier, ...live.messages], todos: live.todos.length ? live.todos : view.todos, summary: view.summary };
}

/** The run did not start: the optimistic message goes (the composer keeps the text). */
export function failTurn(live: LiveThread, error: ErrorInfo, optimistic: boolean): LiveThread {
  return { ...live, messages: optimistic ? live.messages.slice(0, -1) : live.messages, runId: null, status: null, error };
}

/**
 * Adds messages; one whose id is already shown replaces it: an AI message
 * the approval step re-emits with edited calls, a tool result that came
 * early (as its call finished) and again with its step's update.
 */
function upsert(list: readonly MessageInfo[], incoming: readonly MessageInfo[]): MessageInfo[] {
  const out = [...list];
  for (const m of incoming) {
    const keyed = m.id && (m.role === "assistant" || m.role === "tool");
    const at = keyed ? out.findIndex((o) => o.role === m.role && o.id === m.id) : -1;
    if (at >= 0) out[at] = m;
    else out.push(m);
  }
  return out;
}

function child(live: LiveThread, taskId: string): ChildActivity {
  return live.children[taskId] ?? { messages: [], text: "" };
}

export function applyEvent(live: LiveThread, event: AgentEvent): LiveThread {
  if (live.runId === null) return live;
  if (live.runId !== STARTING && live.runId !== event.runId) return live;
  const v: LiveThread = live.runId === STARTING ? { ...live, runId: event.runId } : live;
  switch (event.type) {
    case "token": {
      if (event.taskId) {
        const c = child(v, event.taskId);
        const text = (c.textId === event.messageId ? c.text : "") + event.text;
        return { ...v, retry: null, children: { ...v.children, [event.taskId]: { ...c, text, textId: event.messageId } } };
      }
      const same = v.streamingId === event.messageId;
      return { ...v, retry: null, status: null, streaming: (same ? v.streaming : "") + event.text, streamingId: event.messageId };
    }
    case "messages": {
      if (event.taskId) {
        const c = child(v, event.taskId);
        const gotAnswer = event.messages.some((m) => m.role === "assistant");
        return {
          ...v,
          children: { ...v.children, [event.taskId]: { messages: [...c.messages, ...event.messages], text: gotAnswer ? "" : c.text } },
        };
      }
      const answer = [...event.messages].reverse().find((m) => m.role === "assistant");
      return {
        ...v,
        messages: upsert(v.messages, event.messages),
        // A model call ended (an answer, or tool calls to run): nothing is waited for until the next one starts.
        ...(answer ? { status: null } : {}),
        ...(answer ? { streaming: "", streamingId: undefined, finished: answer.content.trim() ? answer.content : v.finished } : {}),
      };
    }
    case "tool_output":
      return { ...v, outputs: { ...v.outputs, [event.toolCallId]: (v.outputs[event.toolCallId] ?? "") + event.chunk } };
    case "todos":
      return { ...v, todos: event.todos };
    case "summarized":
      return { ...v, summary: { cutoff: event.cutoff, historyPath: event.historyPath } };
    case "retry":
      return { ...v, retry: event, status: null };
    case "grade":
      // The graded answer shows its grade; the grader's feedback (if any) comes as a message of its own.
      return event.messageId ? { ...v, messages: v.messages.map((m) => (m.id === event.messageId ? { ...m, grade: event.grade } : m)) } : v;
    case "status":
      return { ...v, status: event };
    case "interrupt":
      return { ...v, approval: event.approval, status: null };
    case "steered": {
      // Where the run took them: after the results of the calls that were running, before its next answer. One shown
      // already (a queued message shown as its turn began, which a LangGraph server runs as a run of its own) moves.
      const landed = new Set(event.messages.flatMap((m) => (m.id ? [m.id] : [])));
      const rest = v.messages.filter((m) => !(m.role === "user" && m.id && landed.has(m.id)));
      return { ...v, messages: upsert(rest, event.messages) };
    }
    case "done":
      return { ...v, runId: null, retry: null, status: null };
    case "error":
      return { ...v, runId: null, retry: null, status: null, error: event.error };
  }
}
