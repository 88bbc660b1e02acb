/**
 * Pure translation from LangGraph stream chunks and LangChain messages to the
 * plain protocol values of protocol.ts. No I/O, no timers: the host feeds
 * chunks in and sends what comes out.
 */
import { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { AgentEvent, MessageInfo, Role, TokenEvent, ToolCallInfo } from "./protocol.ts";

/** The text of a message content: a string, or the text blocks of a block list. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const block of content) {
    if (typeof block === "string") text += block;
    else if (isRecord(block) && block.type === "text" && typeof block.text === "string") text += block.text;
  }
  return text;
}

const ROLES: Partial<Record<string, Role>> = { human: "user", ai: "assistant", tool: "tool", system: "system" };

export function toToolCallInfo(call: { id?: string | undefined; name: string; args: Record<string, unknown> }): ToolCallInfo {
  return { id: call.id ?? "", name: call.name, args: plain(call.args) as Record<string, unknown> };
}

/** A message as plain data. Unknown message types are reported as `user`. */
export function toMessageInfo(msg: BaseMessage): MessageInfo {
  const info: MessageInfo = { role: ROLES[msg.getType()] ?? "user", content: textOf(msg.content) };
  if (msg.id) info.id = msg.id;
  if (AIMessage.isInstance(msg) && msg.tool_calls?.length) info.toolCalls = msg.tool_calls.map(toToolCallInfo);
  if (ToolMessage.isInstance(msg)) {
    info.toolCallId = msg.tool_call_id;
    if (msg.name) info.name = msg.name;
    info.status = msg.status === "error" ? "error" : "success";
  }
  return info;
}

/** Turns one run's stream chunks (`streamMode: ["messages", "updates"]`) into events. */
export interface Translator {
  translate(chunk: unknown): AgentEvent[];
  /** True once an update carried `__interrupt__`. */
  readonly interrupted: boolean;
}

export function createTranslator(runId: string): Translator {
  const started = new Set<string>();
  let interrupted = false;

  function fromMessage(msg: BaseMessage): AgentEvent[] {
    if (ToolMessage.isInstance(msg)) {
      const status = msg.status === "error" ? "error" : "success";
      return [{ type: "tool_end", runId, toolCallId: msg.tool_call_id, name: msg.name ?? "", content: textOf(msg.content), status }];
    }
    if (msg.getType() !== "ai") return [];
    const message = toMessageInfo(msg);
    const events: AgentEvent[] = [{ type: "message", runId, message }];
    for (const toolCall of message.toolCalls ?? []) {
      if (started.has(toolCall.id)) continue;
      started.add(toolCall.id);
      events.push({ type: "tool_start", runId, toolCall });
    }
    return events;
  }

  function fromUpdates(payload: unknown): AgentEvent[] {
    if (!isRecord(payload)) return [];
    const events: AgentEvent[] = [];
    for (const [node, update] of Object.entries(payload)) {
      if (node === "__interrupt__") {
        interrupted = true;
        const list = Array.isArray(update) ? update : [update];
        events.push({ type: "interrupt", runId, interrupts: list.map(toInterrupt) });
        continue;
      }
      for (const part of Array.isArray(update) ? update : [update]) {
        if (!isRecord(part) || part.messages === undefined) continue;
        const messages: unknown[] = Array.isArray(part.messages) ? part.messages : [part.messages];
        for (const m of messages) if (BaseMessage.isInstance(m)) events.push(...fromMessage(m));
      }
    }
    return events;
  }

  function fromMessages(payload: unknown): AgentEvent[] {
    if (!Array.isArray(payload)) return [];
    const [msg, meta] = payload as [unknown, unknown];
    if (!BaseMessage.isInstance(msg) || msg.getType() !== "ai") return [];
    const text = textOf(msg.content);
    if (!text) return [];
    const event: TokenEvent = { type: "token", runId, text, chunks: 1 };
    if (msg.id) event.messageId = msg.id;
    const subagent = isRecord(meta) ? meta.deeptab_subagent : undefined;
    if (typeof subagent === "string") event.subagent = subagent;
    return [event];
  }

  return {
    translate(chunk) {
      if (!Array.isArray(chunk) || chunk.length !== 2) return [];
      const [mode, payload] = chunk as [unknown, unknown];
      if (mode === "messages") return fromMessages(payload);
      if (mode === "updates") return fromUpdates(payload);
      return [];
    },
    get interrupted() {
      return interrupted;
    },
  };
}

/** Two token events as one, when they continue the same message; otherwise undefined. */
export function mergeTokens(a: TokenEvent, b: TokenEvent): TokenEvent | undefined {
  if (a.runId !== b.runId || a.messageId !== b.messageId || a.subagent !== b.subagent) return undefined;
  return { ...a, text: a.text + b.text, chunks: a.chunks + b.chunks };
}

function toInterrupt(raw: unknown): { id?: string; value: unknown } {
  if (!isRecord(raw)) return { value: plain(raw) };
  return typeof raw.id === "string" ? { id: raw.id, value: plain(raw.value) } : { value: plain(raw.value) };
}

/** A JSON copy: guarantees a value is structured-cloneable (class instances become plain objects). */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
