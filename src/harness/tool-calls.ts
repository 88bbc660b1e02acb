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
import type { InvalidToolCall, ToolCall, ToolCallChunk } from "@langchain/core/messages/tool";
import { jsonText } from "../core/json-text.ts";
import { historyIndex } from "../core/history-index.ts";
import { copyAIMessage } from "../core/messages.ts";
import type { AgentTool } from "./types.ts";

/** `response_metadata` key: new id → the id the provider sent (only for ids that were changed). */
export const ORIGINAL_IDS_KEY = "deeptab_original_tool_call_ids";
/** `response_metadata` key: call id → the raw arguments and parse error of a call that did not parse. */
export const INVALID_CALLS_KEY = "deeptab_invalid_tool_calls";

interface InvalidCallInfo {
  args: string;
  error: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function argsKind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "a list" : typeof value;
}

function randomSuffix(): string {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 8);
}

/** A fresh id derived from `base` (kept readable, in the characters every provider accepts). */
function freshCallId(base: string | undefined, taken: (id: string) => boolean): string {
  const stem = (base ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 40) || "call";
  for (;;) {
    const id = `${stem}_${randomSuffix()}`;
    if (!taken(id)) return id;
  }
}

function callIdsOf(m: BaseMessage): string[] {
  if (ToolMessage.isInstance(m)) return [m.tool_call_id];
  if (AIMessage.isInstance(m)) return (m.tool_calls ?? []).flatMap((c) => (c.id ? [c.id] : []));
  return [];
}

/** The ids a history uses, each with the position of its first use. */
export interface HistoryIds {
  /** Tool-call ids of calls and results. */
  readonly callIds: ReadonlyMap<string, number>;
  /** Message ids. */
  readonly messageIds: ReadonlyMap<string, number>;
}

const keepBefore = (ids: ReadonlyMap<string, number>, length: number) => new Map([...ids].filter(([, at]) => at < length));

const idsIndex = historyIndex<{ callIds: Map<string, number>; messageIds: Map<string, number> }>({
  empty: () => ({ callIds: new Map(), messageIds: new Map() }),
  add(ids, m, i) {
    for (const id of callIdsOf(m)) if (!ids.callIds.has(id)) ids.callIds.set(id, i);
    if (m.id && !ids.messageIds.has(m.id)) ids.messageIds.set(m.id, i);
  },
  truncate: (ids, length) => ({ callIds: keepBefore(ids.callIds, length), messageIds: keepBefore(ids.messageIds, length) }),
});

/**
 * The ids used so far in a history, maintained incrementally across steps
 * (see core/history-index.ts): read them right away, do not keep the maps.
 */
export function historyIds(history: readonly BaseMessage[]): HistoryIds {
  return idsIndex(history);
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
 * The AI message with every tool call given a thread-unique id and a string
 * name, and every unusable call (arguments that did not parse, or that are
 * not an object) kept in `tool_calls` with arguments `{}`, its raw arguments
 * and the problem in `response_metadata` (its result will say what was
 * wrong). Returns the message itself when nothing needed a change.
 */
/** Parses text as a JSON object, strictly (no repair of cut-off text), or undefined. */
function strictObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.trim() || "{}");
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const CUT_OFF = "the argument text is not one complete JSON object (was it cut off?)";

interface StreamedCall {
  index: number | undefined;
  id: string | undefined;
  name: string;
  text: string;
  /** A custom tool's raw input (LangChain's `isCustomTool`): its text is the `input` argument, not JSON. */
  raw: boolean;
}

/**
 * Streamed pieces joined into calls. A piece belongs to the call with its
 * `index` (the position the provider gave the call; continuation pieces
 * often carry no id), unless both carry different ids; a piece without an
 * index joins the latest call with its id. Providers that give parallel
 * calls one id (`call_0` for all) keep them apart this way.
 */
function joinChunks(chunks: readonly ToolCallChunk[]): StreamedCall[] {
  const joined: StreamedCall[] = [];
  for (const chunk of chunks) {
    const id = typeof chunk.id === "string" && chunk.id !== "" ? chunk.id : undefined;
    const index = typeof chunk.index === "number" ? chunk.index : undefined;
    const call =
      index !== undefined
        ? joined.findLast((c) => c.index === index && (id === undefined || c.id === undefined || c.id === id))
        : id !== undefined
          ? joined.findLast((c) => c.id === id)
          : undefined;
    const piece = typeof chunk.args === "string" ? chunk.args : "";
    const raw = (chunk as { isCustomTool?: unknown }).isCustomTool === true;
    if (!call) {
      joined.push({ index, id, name: typeof chunk.name === "string" ? chunk.name : "", text: piece, raw });
      continue;
    }
    call.id ??= id;
    if (!call.name && typeof chunk.name === "string") call.name = chunk.name;
    call.text += piece;
    call.raw ||= raw;
  }
  return joined;
}

function sameCalls(a: readonly ToolCall[], b: readonly ToolCall[]): boolean {
  const key = (calls: readonly ToolCall[]) => jsonText(calls.map((c) => [c.id, c.name, c.args]));
  return a.length === b.length && key(a) === key(b);
}

/**
 * The calls of a message, strictly. A streamed message's calls are sorted
 * again from its pieces: LangChain collapses them with a partial-JSON parser,
 * which "repairs" arguments cut off mid-stream (a truncated `content` would
 * be written as if complete), and calls a call without an id invalid even
 * when its arguments parse. Here a call is valid when its joined argument
 * text is one whole JSON object, whatever its id. `rebuilt`: the calls differ
 * from the message's own `tool_calls`.
 */
function strictCalls(message: AIMessage): { calls: ToolCall[]; invalid: InvalidToolCall[]; rebuilt: boolean } {
  const chunks = (message as AIMessage & { tool_call_chunks?: ToolCallChunk[] }).tool_call_chunks;
  if (chunks?.length) {
    const calls: ToolCall[] = [];
    const invalid: InvalidToolCall[] = [];
    for (const c of joinChunks(chunks)) {
      const args = c.raw ? { input: c.text } : strictObject(c.text);
      if (args) calls.push({ type: "tool_call", id: c.id, name: c.name, args });
      else invalid.push({ type: "invalid_tool_call", id: c.id, name: c.name, args: c.text, error: CUT_OFF });
    }
    return { calls, invalid, rebuilt: !sameCalls(calls, message.tool_calls ?? []) };
  }
  const calls = [...(message.tool_calls ?? [])];
  const invalid: InvalidToolCall[] = [];
  for (const bad of message.invalid_tool_calls ?? []) {
    const args = typeof bad.args === "string" ? strictObject(bad.args) : undefined;
    if (args && typeof bad.name === "string" && bad.name) calls.push({ type: "tool_call", id: bad.id, name: bad.name, args });
    else invalid.push(bad);
  }
  return { calls, invalid, rebuilt: calls.length !== (message.tool_calls?.length ?? 0) };
}

/**
 * Whether the message's calls need no change (the common case, checked
 * without building anything): none unparsed or streamed in pieces to sort
 * again, every id a non-empty string new to the thread and to the message,
 * every name a string, every argument value an object.
 */
function alreadyNormal(message: AIMessage, history: readonly BaseMessage[]): boolean {
  if (message.invalid_tool_calls?.length || (message as AIMessage & { tool_call_chunks?: unknown[] }).tool_call_chunks?.length)
    return false;
  const calls = message.tool_calls ?? [];
  const used = historyIds(history).callIds;
  const seen = new Set<string>();
  for (const { id, name, args } of calls) {
    if (typeof id !== "string" || id === "" || used.has(id) || seen.has(id) || typeof name !== "string" || !isPlainObject(args))
      return false;
    seen.add(id);
  }
  return true;
}

export function normalizeToolCalls(message: AIMessage, history: readonly BaseMessage[]): AIMessage {
  if (!message.tool_calls?.length && !message.invalid_tool_calls?.length) return message;
  if (alreadyNormal(message, history)) return message;
  const { calls, invalid, rebuilt } = strictCalls(message);
  const used = historyIds(history).callIds;
  const placed = new Set<string>();
  const taken = (id: string) => used.has(id) || placed.has(id);
  const originals: Record<string, string> = {};
  const renamed = new Map<string, string[]>();
  const invalidInfo: Record<string, InvalidCallInfo> = {};
  let changed = rebuilt || invalid.length > 0 || (message.invalid_tool_calls?.length ?? 0) > 0;

  /** The final id of each occurrence of an original id, in order (content blocks are renamed the same way). */
  const place = (id: string | undefined): string => {
    let final = id;
    if (!id || taken(id)) {
      final = freshCallId(id, taken);
      changed = true;
      if (id) originals[final] = id;
    }
    placed.add(final!);
    if (id) renamed.set(id, [...(renamed.get(id) ?? []), final!]);
    return final!;
  };

  const out: ToolCall[] = calls.map((raw) => {
    const id = place(raw.id);
    const name = typeof raw.name === "string" ? raw.name : "";
    if (name !== raw.name) changed = true;
    const call = { ...raw, id, name };
    if (isPlainObject(call.args)) return call;
    // Arguments that are not an object (null, a list, a string) cannot be passed on: the call gets an error result.
    changed = true;
    invalidInfo[id] = { args: jsonText(call.args), error: `the arguments must be a JSON object, got ${argsKind(call.args)}` };
    return { ...call, args: {} };
  });
  for (const bad of invalid) {
    const id = place(bad.id);
    invalidInfo[id] = {
      args: typeof bad.args === "string" ? bad.args : String(bad.args ?? ""),
      error: bad.error ?? "the arguments are not valid JSON",
    };
    out.push({ type: "tool_call", id, name: typeof bad.name === "string" ? bad.name : "", args: {} });
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

const callIdSets = new WeakMap<AIMessage, ReadonlySet<string | undefined>>();

/** The ids of an AI message's calls (kept per message: every call of a step asks about its message). */
function callIdsIn(m: AIMessage): ReadonlySet<string | undefined> {
  let ids = callIdSets.get(m);
  if (!ids) callIdSets.set(m, (ids = new Set((m.tool_calls ?? []).map((c) => c.id))));
  return ids;
}

/**
 * The error text for call `id` when its arguments did not parse (it was an
 * invalid tool call), else undefined. Looks at the last AI message holding
 * the call.
 */
export function invalidCallProblem(messages: readonly BaseMessage[], id: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m) || !callIdsIn(m).has(id)) continue;
    const info = (m.response_metadata?.[INVALID_CALLS_KEY] as Record<string, InvalidCallInfo> | undefined)?.[id];
    if (!info) return undefined;
    const name = m.tool_calls!.find((c) => c.id === id)!.name || "(no name)";
    const raw = info.args.length > 500 ? `${info.args.slice(0, 500)}…` : info.args;
    return (
      `Error: the arguments of your call to '${name}' are not usable: ${info.error.replace(/\.+$/, "")}. ` +
      `Arguments received: ${raw || "(empty)"}\nCall the tool again with its arguments as one JSON object.`
    );
  }
  return undefined;
}

/** A call's arguments with the tool's aliases resolved, or the arguments themselves when none applies. */
function unaliased(args: Record<string, unknown>, aliases: Readonly<Record<string, string>>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [alias, name] of Object.entries(aliases)) {
    if (!Object.hasOwn(args, alias)) continue;
    out ??= { ...args };
    const value = out[alias];
    delete out[alias];
    if (!Object.hasOwn(out, name)) out[name] = value;
  }
  return out ?? args;
}

/**
 * The AI message with each call's argument aliases resolved (see {@link AgentTool.argAliases}); the message
 * itself when no call sent an alias. The model node applies it after {@link normalizeToolCalls}.
 */
export function resolveArgAliases(message: AIMessage, tools: ReadonlyMap<string, Pick<AgentTool, "argAliases">>): AIMessage {
  const calls = message.tool_calls ?? [];
  let changed = false;
  const out = calls.map((call) => {
    const aliases = tools.get(call.name)?.argAliases;
    if (!aliases || !isPlainObject(call.args)) return call;
    const args = unaliased(call.args, aliases);
    if (args === call.args) return call;
    changed = true;
    return { ...call, args };
  });
  return changed ? copyAIMessage(message, { tool_calls: out }) : message;
}
