/**
 * Tool calls as the harness keeps them: every call of an AI message has an
 * id that is unique in the thread, and a call whose arguments did not parse
 * is a call like any other, answered with an error result the model can fix.
 *
 * Providers get this wrong in several ways: calls without an id, two calls
 * with one id, the same id on every turn (llama.cpp and several
 * OpenAI-compatible servers send `call_0` each time), and arguments that are
 * not JSON (LangChain puts those in `invalid_tool_calls`, and a message with
 * only such calls would otherwise end the run as an empty answer). The model
 * node passes each new AI message through {@link normalizeToolCalls}, so
 * results pair with their calls, and eviction files, approvals and subagent
 * threads (all keyed by call id) never collide.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { copyAIMessage } from "../core/messages.ts";

/** `response_metadata` key: new id → the id the provider sent (only for ids that were changed). */
export const ORIGINAL_IDS_KEY = "deeptab_original_tool_call_ids";
/** `response_metadata` key: call id → the raw arguments and parse error of a call that did not parse. */
export const INVALID_CALLS_KEY = "deeptab_invalid_tool_calls";

interface InvalidCallInfo {
  args: string;
  error: string;
}

function randomSuffix(): string {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 8);
}

/** A fresh id derived from `base` (kept readable, in the characters every provider accepts). */
function freshCallId(base: string | undefined, taken: ReadonlySet<string>): string {
  const stem = (base ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 40) || "call";
  for (;;) {
    const id = `${stem}_${randomSuffix()}`;
    if (!taken.has(id)) return id;
  }
}

/** Every tool-call id used so far in the history (calls and results). */
export function usedToolCallIds(history: readonly BaseMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of history) {
    if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) if (c.id) ids.add(c.id);
    if (ToolMessage.isInstance(m)) ids.add(m.tool_call_id);
  }
  return ids;
}

/** Renames ids in content blocks: the n-th block with an original id gets that id's n-th final id. */
function rewriteBlockIds(content: AIMessage["content"], renamed: ReadonlyMap<string, string[]>): AIMessage["content"] {
  if (typeof content === "string" || renamed.size === 0) return content;
  const queues = new Map([...renamed].map(([k, v]) => [k, [...v]]));
  return content.map((block) => {
    if (typeof block !== "object" || block === null) return block;
    const id = (block as { id?: unknown }).id;
    const type = (block as { type?: unknown }).type;
    if (typeof id !== "string" || (type !== "tool_use" && type !== "tool_call" && type !== "function_call")) return block;
    const next = queues.get(id)?.shift();
    return next ? { ...block, id: next } : block;
  }) as AIMessage["content"];
}

function rewriteKwargsIds(kwargs: AIMessage["additional_kwargs"], renamed: ReadonlyMap<string, string[]>): AIMessage["additional_kwargs"] {
  const calls = kwargs?.tool_calls;
  if (!Array.isArray(calls) || renamed.size === 0) return kwargs;
  const queues = new Map([...renamed].map(([k, v]) => [k, [...v]]));
  return {
    ...kwargs,
    tool_calls: calls.map((c) => (typeof c.id === "string" && queues.get(c.id)?.length ? { ...c, id: queues.get(c.id)!.shift()! } : c)),
  };
}

/**
 * The AI message with every tool call given a thread-unique id and every
 * invalid call moved into `tool_calls` (arguments `{}`, the raw text and
 * parse error kept in `response_metadata`). Returns the message itself when
 * nothing needed a change.
 */
export function normalizeToolCalls(message: AIMessage, history: readonly BaseMessage[]): AIMessage {
  const calls = message.tool_calls ?? [];
  const invalid = message.invalid_tool_calls ?? [];
  if (calls.length === 0 && invalid.length === 0) return message;
  const taken = usedToolCallIds(history);
  const originals: Record<string, string> = {};
  const renamed = new Map<string, string[]>();
  const invalidInfo: Record<string, InvalidCallInfo> = {};
  let changed = invalid.length > 0;

  /** The final id of each occurrence of an original id, in order (content blocks are renamed the same way). */
  const place = (id: string | undefined): string => {
    let final = id;
    if (!id || taken.has(id)) {
      final = freshCallId(id, taken);
      changed = true;
      if (id) originals[final] = id;
    }
    taken.add(final!);
    if (id) renamed.set(id, [...(renamed.get(id) ?? []), final!]);
    return final!;
  };

  const out: ToolCall[] = calls.map((call) => ({ ...call, id: place(call.id) }));
  for (const bad of invalid) {
    const id = place(bad.id);
    invalidInfo[id] = {
      args: typeof bad.args === "string" ? bad.args : String(bad.args ?? ""),
      error: bad.error ?? "the arguments are not valid JSON",
    };
    out.push({ type: "tool_call", id, name: bad.name ?? "", args: {} });
  }
  if (!changed) return message;
  const metadata: Record<string, unknown> = { ...message.response_metadata };
  if (Object.keys(originals).length) metadata[ORIGINAL_IDS_KEY] = originals;
  if (Object.keys(invalidInfo).length) metadata[INVALID_CALLS_KEY] = invalidInfo;
  return copyAIMessage(message, {
    content: rewriteBlockIds(message.content, renamed),
    tool_calls: out,
    invalid_tool_calls: [],
    additional_kwargs: rewriteKwargsIds(message.additional_kwargs, renamed),
    response_metadata: metadata,
  });
}

/**
 * The error text for call `id` when its arguments did not parse (it was an
 * invalid tool call), else undefined. Looks at the last AI message holding
 * the call.
 */
export function invalidCallProblem(messages: readonly BaseMessage[], id: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m) || !(m.tool_calls ?? []).some((c) => c.id === id)) continue;
    const info = (m.response_metadata?.[INVALID_CALLS_KEY] as Record<string, InvalidCallInfo> | undefined)?.[id];
    if (!info) return undefined;
    const name = m.tool_calls!.find((c) => c.id === id)!.name || "(no name)";
    const raw = info.args.length > 500 ? `${info.args.slice(0, 500)}…` : info.args;
    return `Error: the arguments of your call to '${name}' could not be parsed (${info.error}). Arguments received: ${raw || "(empty)"}\nCall the tool again with its arguments as one JSON object.`;
  }
  return undefined;
}
