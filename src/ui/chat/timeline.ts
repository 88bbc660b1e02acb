/**
 * A thread's messages as the timeline shows them: user and assistant turns,
 * one card per tool call with its result, a subagent's activity nested
 * under its `task` card, the summarization marker, and each turn's
 * provider usage (turn-usage.ts) at its end. Pure.
 *
 * Results pair with calls inside one AI message: by id first, then in order
 * (providers repeat ids across turns, and a subagent's raw ids can differ
 * from the ids its results carry). Lists are keyed by position, never by id.
 */
import type { CitationInfo, GradeInfo, MessageInfo, ReplayInfo, ToolCallInfo, WebSearchInfo } from "../../protocol/messages.ts";
import type { ToolStatus } from "./tool-summary.ts";
import { turnUsage, type TurnUsage } from "./turn-usage.ts";

export type { ToolStatus };

/**
 * A call's state from its result: the user's Stop or a cut first (its text is the note written for the model), then
 * a person's decision at an approval (a rejection is an error result, an answer a success).
 */
function finishedStatus(result: MessageInfo): ToolStatus {
  if (result.stopped) return "stopped";
  if (result.cancelled) return "cancelled";
  if (result.decision === "reject") return "rejected";
  if (result.decision === "respond") return "responded";
  return result.status === "error" ? "error" : "done";
}

export interface UserItem {
  kind: "user";
  /** Index of the message in the thread (edits and branches refer to it). */
  index: number;
  text: string;
  /** The turn was answered by a recorded demo (replay-note.svelte says so under the message). */
  replay?: ReplayInfo;
}

export interface AssistantItem {
  kind: "assistant";
  index: number;
  text: string;
  stopped?: boolean;
  /** A failure (a dropped connection) cut it off: the text is what had arrived. */
  cutOff?: boolean;
  /** Still streaming. */
  streaming?: boolean;
  /** The run was cut off (a reload) while this streamed. */
  interrupted?: boolean;
  /** The usage of the whole turn this answer ends (top level only). */
  usage?: TurnUsage;
  /** The links the answer cites (the provider's web search), shown under it. */
  citations?: CitationInfo[];
}

export interface ToolItem {
  kind: "tool";
  /** Index of the AI message that made the call. */
  index: number;
  call: ToolCallInfo;
  status: ToolStatus;
  result?: string;
  offloadedTo?: string;
  /** The model sees a note naming this file instead of the result (cleared from its context). */
  clearedTo?: string;
  /** The offloaded result's head and tail. */
  offloadPreview?: string;
  durationMs?: number;
  /** Images the tool returned (checked again by the card before it shows one). */
  images?: MessageInfo["images"];
  /** A running command's output so far. */
  output?: string;
  /** For `task`: the subagent's activity. */
  children?: TimelineItem[];
  /** A provider's web search: the results' titles and links. */
  links?: CitationInfo[];
}

export interface SummaryItem {
  kind: "summary";
  historyPath: string;
}

/** A turn's usage when it has no answer text to show it under (it ended in tool calls or a pause). */
export interface UsageItem {
  kind: "usage";
  usage: TurnUsage;
}

/** The rubric loop's grade of the answer just above it. */
export interface GradeItem {
  kind: "grade";
  index: number;
  grade: GradeInfo;
}

/** Feedback the rubric loop's grader gave the agent (a message of the thread, not the person's). */
export interface GraderItem {
  kind: "grader";
  index: number;
  text: string;
}

/** The note deeptab added when the person rewound or reverted files (the agent reads it; rewinding to before it undoes it). */
export interface NoteItem {
  kind: "note";
  index: number;
  text: string;
}

export type TimelineItem = UserItem | AssistantItem | ToolItem | SummaryItem | UsageItem | GradeItem | GraderItem | NoteItem;

export interface TimelineOptions {
  /** A run is active: unanswered calls are running, not cancelled. */
  running?: boolean;
  /** Tool calls waiting for approval (by position: index of the AI message and the call's position). */
  waiting?: ReadonlySet<string>;
  summary?: { cutoff: number; historyPath: string };
  /** Streaming top-level text not yet in a message. */
  streamingText?: string;
  /** The interrupted run's partial answer (after a reload). */
  interruptedText?: string;
  /** Output of running commands, by tool call id. */
  outputs?: Readonly<Record<string, string>>;
  /** Live subagent activity, by task call id (messages and streaming text). */
  children?: Readonly<Record<string, { messages: readonly MessageInfo[]; text: string }>>;
}

/** The key of a call for `waiting`: its AI message's index and its position. */
export function callKey(index: number, position: number): string {
  return `${index}:${position}`;
}

/** Pairs the results after an AI message with its calls: by id, then the rest in order. */
export function pairResults(calls: readonly ToolCallInfo[], results: readonly MessageInfo[]): Array<MessageInfo | undefined> {
  const paired: Array<MessageInfo | undefined> = calls.map(() => undefined);
  const used = new Set<number>();
  results.forEach((r, ri) => {
    const at = calls.findIndex((c, ci) => paired[ci] === undefined && c.id && c.id === r.toolCallId);
    if (at >= 0) {
      paired[at] = r;
      used.add(ri);
    }
  });
  results.forEach((r, ri) => {
    if (used.has(ri)) return;
    const at = calls.findIndex((c, ci) => paired[ci] === undefined && (!r.name || c.name === r.name));
    if (at >= 0) paired[at] = r;
  });
  return paired;
}

export function buildTimeline(messages: readonly MessageInfo[], options: TimelineOptions = {}): TimelineItem[] {
  return withTurnUsage(build(messages, options), messages, options);
}

/** The message index an item belongs to (the summary marker has none). */
const indexOf = (item: TimelineItem): number | undefined => ("index" in item ? item.index : undefined);

/** Puts each turn's usage under its last item: on it when that is an answer, else as an item of its own. */
function withTurnUsage(items: TimelineItem[], messages: readonly MessageInfo[], options: TimelineOptions): TimelineItem[] {
  const live = options.children ?? {};
  const childrenOf = (call: { id: string; children?: MessageInfo[] }) =>
    call.children?.length ? call.children : (live[call.id]?.messages ?? []);
  const starts = messages.flatMap((m, i) => (m.role === "user" && !m.grader && !m.note ? [i] : []));
  if (starts[0] !== 0) starts.unshift(0);
  const out = [...items];
  // Last turn first, so inserting an item leaves the earlier positions as they are.
  for (let t = starts.length - 1; t >= 0; t--) {
    const from = starts[t]!;
    // The last turn also owns the streaming or interrupted tail (index messages.length).
    const to = t + 1 < starts.length ? starts[t + 1]! : messages.length + 1;
    const usage = turnUsage(messages.slice(from, to), childrenOf);
    if (!usage) continue;
    const inTurn = (item: TimelineItem) => {
      const i = indexOf(item);
      return i !== undefined && i >= from && i < to;
    };
    const last = out.findLastIndex(inTurn);
    const item = out[last];
    if (item?.kind === "assistant") out[last] = { ...item, usage };
    else if (item) out.splice(last + 1, 0, { kind: "usage", usage });
  }
  return out;
}

function build(messages: readonly MessageInfo[], options: TimelineOptions): TimelineItem[] {
  const items: TimelineItem[] = [];
  const childLive = options.children ?? {};
  for (let i = 0; i < messages.length; i++) {
    if (options.summary && i === options.summary.cutoff && i > 0) items.push({ kind: "summary", historyPath: options.summary.historyPath });
    const m = messages[i]!;
    if (m.role === "user" && m.replay && !m.grader && !m.note) items.push({ kind: "user", index: i, text: m.content, replay: m.replay });
    else if (m.role === "user") items.push({ kind: m.grader ? "grader" : m.note ? "note" : "user", index: i, text: m.content });
    if (m.role !== "assistant") continue;
    // The provider ran these searches before it wrote the answer.
    for (const search of Array.isArray(m.searches) ? m.searches : []) items.push(searchItem(i, search));
    if (m.content.trim() || m.stopped || m.cutOff)
      items.push({
        kind: "assistant",
        index: i,
        text: m.content,
        ...(m.stopped ? { stopped: true } : {}),
        ...(m.cutOff ? { cutOff: true } : {}),
        ...(Array.isArray(m.citations) && m.citations.length ? { citations: m.citations } : {}),
      });
    if (m.grade) items.push({ kind: "grade", index: i, grade: m.grade });
    const calls = m.toolCalls ?? [];
    if (!calls.length) continue;
    const results: MessageInfo[] = [];
    for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++) results.push(messages[j]!);
    const paired = pairResults(calls, results);
    calls.forEach((call, position) => {
      const result = paired[position];
      const waiting = options.waiting?.has(callKey(i, position));
      const status: ToolStatus = result ? finishedStatus(result) : waiting ? "waiting" : options.running ? "running" : "cancelled";
      const item: ToolItem = { kind: "tool", index: i, call, status };
      // A stopped or cancelled call's result is the model's note that it got none: the status says it.
      if (result && status !== "stopped" && status !== "cancelled") {
        item.result = result.content;
        if (result.offloadedTo) item.offloadedTo = result.offloadedTo;
        if (result.clearedTo) item.clearedTo = result.clearedTo;
        if (result.offloadPreview !== undefined) item.offloadPreview = result.offloadPreview;
        if (result.durationMs !== undefined) item.durationMs = result.durationMs;
        if (result.images?.length) item.images = result.images;
      }
      const output = options.outputs?.[call.id];
      if (output && !result) item.output = output;
      if (call.name === "task") {
        const live = call.id ? childLive[call.id] : undefined;
        const childMessages = call.children?.length ? call.children : (live?.messages ?? []);
        const nested = build(childMessages, {
          running: status === "running",
          ...(live?.text && !result ? { streamingText: live.text } : {}),
        });
        if (nested.length) item.children = nested;
      }
      items.push(item);
    });
  }
  const tail = options.streamingText ?? options.interruptedText;
  if (tail) {
    items.push({
      kind: "assistant",
      index: messages.length,
      text: tail,
      ...(options.streamingText ? { streaming: true } : { interrupted: true }),
    });
  }
  return items;
}

/**
 * A search the provider ran, as a `web_search` tool card: its query, and its results' titles as links (checked again
 * where they are shown; a crafted import could hold anything here).
 */
function searchItem(index: number, search: WebSearchInfo): ToolItem {
  const call: ToolCallInfo = { id: String(search.id), name: "web_search", args: { query: String(search.query) } };
  if (search.error) return { kind: "tool", index, call, status: "error", result: `The search failed (${String(search.error)}).` };
  const links = Array.isArray(search.results) ? search.results : [];
  const n = links.length;
  return { kind: "tool", index, call, status: "done", result: `${n} ${n === 1 ? "result" : "results"}`, links };
}

/** The calls a pending approval waits on: the last AI message's calls without a result whose tool the approval names. */
export function waitingCalls(messages: readonly MessageInfo[], approvalTools: readonly string[] | undefined): ReadonlySet<string> {
  const keys: string[] = [];
  if (approvalTools?.length) {
    const index = messages.findLastIndex((m) => m.role === "assistant");
    const answered = new Set(messages.slice(index + 1).map((m) => m.toolCallId));
    (messages[index]?.toolCalls ?? []).forEach((c, i) => {
      if (!answered.has(c.id) && approvalTools.includes(c.name)) keys.push(callKey(index, i));
    });
  }
  return new Set(keys);
}
