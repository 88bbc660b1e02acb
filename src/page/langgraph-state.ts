/**
 * A LangGraph server's thread, in the shapes deeptab's page shows (pure functions, no SDK, no I/O): the thread's
 * state values (deepagents' `messages`, `files` and `todos` channels, which deeptab's server graph keeps too) as
 * {@link MessageInfo}, {@link Todo} and {@link FileEntry}; its interrupts (deepagents' HITL request) as a
 * {@link PendingApproval}; and the parts of a run's stream (`messages-tuple`, `updates`, subgraphs) as
 * {@link AgentEvent}s. Anything malformed is skipped, never thrown: a server's state is untrusted input.
 */
import type { FileData } from "../backends/protocol.ts";
import type { DecisionType } from "../middleware/hitl.ts";
import type { Todo } from "../middleware/todos.ts";
import { STOPPED_KEY } from "../protocol/message-marks.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { ApprovalAction, PendingApproval } from "../protocol/approvals.ts";
import type { FileEntry, FilePage } from "../protocol/files.ts";
import type { MessageInfo, ToolCallInfo } from "../protocol/messages.ts";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A message's text: a string, or the text parts of a content list (other parts are not shown). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (typeof p === "string" ? p : isObject(p) && p.type === "text" ? (str(p.text) ?? "") : "")).join("");
}

const ROLES: Record<string, MessageInfo["role"]> = {
  human: "user",
  user: "user",
  ai: "assistant",
  assistant: "assistant",
  AIMessageChunk: "assistant",
  tool: "tool",
  system: "system",
};

function toolCalls(raw: unknown): ToolCallInfo[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((c) => ({ id: str(c.id) ?? "", name: str(c.name) ?? "", args: isObject(c.args) ? c.args : {} }));
}

/** One serialized LangChain message (`{ type, content, id, tool_calls, … }`, as the API sends it) as the page's, if it is one. */
function messageFromServer(raw: unknown): MessageInfo | undefined {
  if (!isObject(raw)) return undefined;
  const role = ROLES[str(raw.type) ?? str(raw.role) ?? ""];
  if (!role) return undefined;
  const message: MessageInfo = { role, content: contentText(raw.content) };
  const id = str(raw.id);
  if (id) message.id = id;
  if (role === "assistant") {
    const calls = toolCalls(raw.tool_calls);
    if (calls.length) message.toolCalls = calls;
    const usage = raw.usage_metadata;
    if (isObject(usage) && typeof usage.input_tokens === "number" && typeof usage.output_tokens === "number")
      message.usage = { input: usage.input_tokens, output: usage.output_tokens };
    if (isObject(raw.response_metadata) && raw.response_metadata[STOPPED_KEY] === true) message.stopped = true;
  }
  if (role === "tool") {
    const callId = str(raw.tool_call_id);
    if (callId) message.toolCallId = callId;
    const name = str(raw.name);
    if (name) message.name = name;
    if (raw.status === "success" || raw.status === "error") message.status = raw.status;
  }
  return message;
}

/** The thread's `messages` channel as the page's messages (the tool calls' subagent children are not in it). */
export function messagesFromState(raw: unknown): MessageInfo[] {
  if (!Array.isArray(raw)) return [];
  return raw.map(messageFromServer).filter((m): m is MessageInfo => m !== undefined);
}

const STATUSES = new Set(["pending", "in_progress", "completed"]);

/** deepagents' `todos` channel (`[{ content, status }]`); entries of another shape are dropped. */
export function todosFromState(raw: unknown): Todo[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((t): t is Json => isObject(t) && typeof t.content === "string" && STATUSES.has(t.status as string))
    .map((t) => ({ content: t.content as string, status: t.status as Todo["status"] }));
}

/**
 * A file's text from its `FileData`: `content` as a string (deepagents ≥ 1.x, deeptab) or as lines (earlier
 * deepagents); undefined for anything else, and for deeptab's binary uploads (`encoding: "base64"`).
 */
function fileText(data: unknown): string | undefined {
  if (!isObject(data) || data.encoding === "base64") return undefined;
  if (typeof data.content === "string") return data.content;
  if (Array.isArray(data.content) && data.content.every((l) => typeof l === "string")) return data.content.join("\n");
  return undefined;
}

/** deepagents' `files` channel (path → FileData) as the files panel's entries: files and the folders above them, sorted. */
export function filesFromState(raw: unknown): FileEntry[] {
  if (!isObject(raw)) return [];
  const entries = new Map<string, FileEntry>();
  for (const [path, data] of Object.entries(raw)) {
    const text = fileText(data);
    if (!path.startsWith("/") || text === undefined) continue;
    const modifiedAt = str((data as Json).modified_at) ?? str((data as Partial<FileData>).modifiedAt);
    entries.set(path, { path, isDir: false, size: new TextEncoder().encode(text).length, ...(modifiedAt ? { modifiedAt } : {}) });
    const parts = path.split("/").slice(1, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = `/${parts.slice(0, i).join("/")}`;
      if (!entries.has(dir)) entries.set(dir, { path: dir, isDir: true, size: 0 });
    }
  }
  return [...entries.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** A page of a file of the `files` channel (lines from `offset`, at most `limit`); undefined when there is no such file. */
export function filePage(raw: unknown, path: string, offset: number, limit: number): FilePage | undefined {
  const text = isObject(raw) ? fileText(raw[path]) : undefined;
  if (text === undefined) return undefined;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return {
    path,
    lines: lines.slice(offset, offset + limit),
    offset,
    totalLines: lines.length,
    binary: false,
    size: new TextEncoder().encode(text).length,
  };
}

/** An interrupt as the server reports it (`{ id, value }`), in a thread's tasks or a run's `__interrupt__` update. */
export interface ServerInterrupt {
  id?: string;
  value?: unknown;
}

const DECISIONS = new Set<DecisionType>(["approve", "edit", "reject", "respond"]);

/** The actions of a deepagents HITL request (`{ actionRequests, reviewConfigs }`); undefined when it is not one. */
function hitlActions(value: unknown): ApprovalAction[] | undefined {
  if (!isObject(value) || !Array.isArray(value.actionRequests)) return undefined;
  const configs = Array.isArray(value.reviewConfigs) ? value.reviewConfigs.filter(isObject) : [];
  const actions: ApprovalAction[] = [];
  for (const request of value.actionRequests) {
    if (!isObject(request) || typeof request.name !== "string") return undefined;
    const config = configs.find((c) => c.actionName === request.name);
    const allowed = Array.isArray(config?.allowedDecisions)
      ? config.allowedDecisions.filter((d): d is DecisionType => DECISIONS.has(d as DecisionType))
      : [...DECISIONS];
    actions.push({
      name: request.name,
      args: isObject(request.args) ? request.args : {},
      description: str(request.description) ?? `Tool: ${request.name}`,
      allowedDecisions: allowed,
    });
  }
  return actions;
}

/**
 * The pending approval of a paused thread: the first interrupt carrying a deepagents HITL request (its id is the
 * interrupt's, which `resume` names); the others wait after it. Null when nothing waits for a decision.
 */
export function approvalFromInterrupts(interrupts: readonly ServerInterrupt[]): PendingApproval | null {
  const requests = interrupts
    .map((i, n) => ({ id: i.id ?? `interrupt-${n}`, actions: hitlActions(i.value) }))
    .filter((r): r is { id: string; actions: ApprovalAction[] } => r.actions !== undefined);
  const [first, ...rest] = requests;
  if (!first) return null;
  return {
    id: first.id,
    actions: first.actions,
    ...(rest.length ? { waiting: rest.map((r) => ({ tools: r.actions.map((a) => a.name) })) } : {}),
  };
}

/** One part of a run's stream (`runs.stream` / `runs.joinStream`): `event` is `mode` or `mode|namespace` with subgraphs. */
export interface StreamPart {
  event: string;
  data: unknown;
}

/**
 * What one stream part means for the page: tokens of the model's answer (`messages-tuple`), complete messages and
 * todos (`updates` of the graph's nodes), the approval a run paused at (`__interrupt__`). Parts of a subgraph (a
 * subagent: `event` names its namespace) carry `taskId`, the namespace, so they stay under that subagent's card.
 * `metadata`, `values`, `error` and `end` parts are the caller's (run id, state, failure, end).
 */
export function eventsFromPart(part: StreamPart, runId: string): AgentEvent[] {
  const [mode, ...ns] = part.event.split("|");
  const taskId = ns.length ? ns.join("|") : undefined;
  const scope = taskId ? { taskId } : {};
  if (mode === "messages" && Array.isArray(part.data)) {
    const chunk = part.data[0];
    if (!isObject(chunk) || (chunk.type !== "AIMessageChunk" && chunk.type !== "ai")) return [];
    const text = contentText(chunk.content);
    const messageId = str(chunk.id);
    return text ? [{ type: "token", runId, text, chunks: 1, ...(messageId ? { messageId } : {}), ...scope }] : [];
  }
  if (mode !== "updates" || !isObject(part.data)) return [];
  const events: AgentEvent[] = [];
  for (const [node, update] of Object.entries(part.data)) {
    if (node === "__interrupt__") {
      if (taskId) continue; // A subagent's pause reaches the parent graph's own `__interrupt__` too.
      const interrupts = Array.isArray(update) ? update.filter(isObject).map((i) => ({ id: str(i.id), value: i.value })) : [];
      const approval = approvalFromInterrupts(interrupts);
      if (approval) events.push({ type: "interrupt", runId, approval });
      continue;
    }
    // A node's update is an object, or a list of them where the node returned several (upstream deepagents' tool
    // node returns one Command per tool call: its tool messages and todos come as such a list).
    for (const one of Array.isArray(update) ? update.filter(isObject) : isObject(update) ? [update] : []) {
      const messages = messagesFromState(one.messages);
      if (messages.length) events.push({ type: "messages", runId, messages, ...scope });
      if (!taskId && Array.isArray(one.todos)) events.push({ type: "todos", runId, todos: todosFromState(one.todos) });
    }
  }
  return events;
}

/**
 * A run's subagent events under their `task` cards. The server tags a subagent's stream parts with its namespace
 * (`tools:<the tools node's task id>`), which names no tool call; the page keys a subagent's card by its `task` call's
 * id, as the tab's runs do. Each new namespace is given the run's earliest `task` call not yet given one (task calls
 * are read from the parent's streamed messages; a subagent starts streaming after its call was made, and parallel
 * subagents start in their calls' order). A deeper subagent's parts go under its top-level card. An event whose
 * namespace cannot be placed (a rejoined run whose call came before the join) keeps the namespace.
 */
export function subagentNester(): (event: AgentEvent) => AgentEvent {
  const calls: string[] = [];
  const byNamespace = new Map<string, string>();
  return (event) => {
    if (event.type === "messages" && !event.taskId) {
      for (const m of event.messages)
        for (const call of m.toolCalls ?? []) if (call.name === "task" && call.id && !calls.includes(call.id)) calls.push(call.id);
      return event;
    }
    if (!("taskId" in event) || !event.taskId) return event;
    const namespace = event.taskId.split("|")[0]!;
    let call = byNamespace.get(namespace);
    if (!call) {
      const taken = new Set(byNamespace.values());
      call = calls.find((id) => !taken.has(id));
      if (!call) return event;
      byNamespace.set(namespace, call);
    }
    return { ...event, taskId: call };
  };
}
