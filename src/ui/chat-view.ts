/**
 * The chat as plain data, and the pure reducer that applies protocol events
 * to it. The rune class in chat.svelte.ts only holds a ChatView and swaps it.
 */
import type { AgentEvent, ErrorInfo, MessageInfo } from "../worker/protocol.ts";

export type ChatItem =
  | { kind: "user"; key: string; text: string }
  | { kind: "assistant"; key: string; text: string }
  | {
      kind: "tool";
      key: string;
      toolCallId: string;
      name: string;
      args: Record<string, unknown>;
      status: "running" | "success" | "error";
      result?: string;
    };

/** A run was requested but its id is not known yet; the first event names it. */
export const STARTING = "starting";

export interface ChatView {
  readonly items: readonly ChatItem[];
  /** The assistant text streaming right now. */
  readonly live: { readonly messageId?: string; readonly text: string } | null;
  /** The active run: its id, {@link STARTING}, or null when idle. */
  readonly runId: string | null;
  readonly error: ErrorInfo | null;
  /** Token events received (each may carry several model chunks). */
  readonly tokenEvents: number;
  /** Model chunks those events carried. */
  readonly tokenChunks: number;
  readonly seq: number;
}

export function emptyView(): ChatView {
  return { items: [], live: null, runId: null, error: null, tokenEvents: 0, tokenChunks: 0, seq: 0 };
}

/** The user's message goes in and a run is expected. */
export function beginTurn(view: ChatView, text: string): ChatView {
  const item: ChatItem = { kind: "user", key: `u${view.seq}`, text };
  return { ...view, items: [...view.items, item], runId: STARTING, error: null, seq: view.seq + 1 };
}

/** A run that did not start (the worker said no, or failed). */
export function failTurn(view: ChatView, error: ErrorInfo): ChatView {
  return { ...commitLive(view), runId: null, error };
}

function commitLive(view: ChatView): ChatView {
  if (!view.live?.text) return { ...view, live: null };
  const item: ChatItem = { kind: "assistant", key: view.live.messageId ?? `a${view.seq}`, text: view.live.text };
  return { ...view, items: [...view.items, item], live: null, seq: view.seq + 1 };
}

function upsert(items: readonly ChatItem[], item: ChatItem): ChatItem[] {
  const at = items.findIndex((i) => i.key === item.key);
  return at < 0 ? [...items, item] : items.map((i, n) => (n === at ? item : i));
}

export function applyEvent(view: ChatView, event: AgentEvent): ChatView {
  if (view.runId === null) return view;
  if (view.runId !== STARTING && view.runId !== event.runId) return view;
  const v: ChatView = view.runId === STARTING ? { ...view, runId: event.runId } : view;
  switch (event.type) {
    case "token": {
      if (event.subagent) return v;
      const counted = { ...v, tokenEvents: v.tokenEvents + 1, tokenChunks: v.tokenChunks + event.chunks };
      const same = v.live && v.live.messageId === event.messageId;
      const base = same ? counted : commitLive(counted);
      const text = (same ? v.live!.text : "") + event.text;
      return { ...base, live: event.messageId === undefined ? { text } : { messageId: event.messageId, text } };
    }
    case "message": {
      const { message } = event;
      const live = v.live && v.live.messageId === message.id ? null : v.live;
      if (message.role !== "assistant" || !message.content) return { ...v, live };
      const item: ChatItem = { kind: "assistant", key: message.id ?? `a${v.seq}`, text: message.content };
      return { ...v, live, items: upsert(v.items, item), seq: v.seq + 1 };
    }
    case "tool_start": {
      const { toolCall } = event;
      const item: ChatItem = {
        kind: "tool",
        key: `t:${toolCall.id}`,
        toolCallId: toolCall.id,
        name: toolCall.name,
        args: toolCall.args,
        status: "running",
      };
      return { ...v, items: upsert(v.items, item) };
    }
    case "tool_end": {
      const found = v.items.find((i) => i.key === `t:${event.toolCallId}`);
      const args = found?.kind === "tool" ? found.args : {};
      const item: ChatItem = {
        kind: "tool",
        key: `t:${event.toolCallId}`,
        toolCallId: event.toolCallId,
        name: event.name,
        args,
        status: event.status,
        result: event.content,
      };
      return { ...v, items: upsert(v.items, item) };
    }
    case "interrupt":
      return v;
    case "done":
      return { ...commitLive(v), runId: null };
    case "error":
      return { ...commitLive(v), runId: null, error: event.error };
  }
}

/** The view of a thread loaded from its history (after a reload). */
export function viewFromHistory(messages: readonly MessageInfo[]): ChatView {
  let view = emptyView();
  const items: ChatItem[] = [];
  const tools = new Map<string, number>();
  messages.forEach((m, i) => {
    const key = m.id ?? `h${i}`;
    if (m.role === "user") items.push({ kind: "user", key, text: m.content });
    else if (m.role === "assistant") {
      if (m.content) items.push({ kind: "assistant", key, text: m.content });
      for (const call of m.toolCalls ?? []) {
        tools.set(call.id, items.length);
        items.push({ kind: "tool", key: `t:${call.id}`, toolCallId: call.id, name: call.name, args: call.args, status: "running" });
      }
    } else if (m.role === "tool" && m.toolCallId !== undefined) {
      const at = tools.get(m.toolCallId);
      const found = at === undefined ? undefined : items[at];
      if (found?.kind === "tool") items[at!] = { ...found, status: m.status ?? "success", result: m.content };
    }
  });
  view = { ...view, items, seq: items.length };
  return view;
}
