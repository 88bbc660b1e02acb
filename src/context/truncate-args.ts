/**
 * Shortens old write_file/edit_file arguments in the request only: outside the
 * most recent messages, a file body the model already wrote is dead weight
 * (the file holds it). Always outside the last {@link TRUNCATE_KEEP_RECENT}
 * messages (deepagents' truncateArgsSettings without a known window: trigger
 * and keep 20 messages); and, as deepagents does with a known window, once a
 * request reaches the summarization trigger, outside the summarization's keep
 * (10% of the window), before deciding whether to summarize.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { copyAIMessage } from "../core/messages.ts";
import { TEXT_CARRYING_TOOLS } from "../core/tool-names.ts";
import { estimateMessageTokens } from "./tokens.ts";
import type { KeepPolicy } from "./view.ts";

const TRUNCATE_ARGS_OVER = 2_000;
export const TRUNCATE_KEEP_RECENT = 20;
const cache = new WeakMap<BaseMessage, BaseMessage>();

function shorten(value: string): string {
  return `${value.slice(0, 20)}...(argument truncated)`;
}

function truncated(message: AIMessage): AIMessage {
  let changed = false;
  const calls = (message.tool_calls ?? []).map((call) => {
    if (!TEXT_CARRYING_TOOLS.has(call.name)) return call;
    const args: Record<string, unknown> = { ...call.args };
    for (const [k, v] of Object.entries(args)) {
      if (typeof v === "string" && v.length > TRUNCATE_ARGS_OVER) {
        args[k] = shorten(v);
        changed = true;
      }
    }
    return { ...call, args };
  });
  if (!changed) return message;
  // The provider's raw copy of the calls (additional_kwargs.tool_calls) holds the full arguments too.
  const { tool_calls: _raw, ...kwargs } = message.additional_kwargs ?? {};
  return copyAIMessage(message, { tool_calls: calls, additional_kwargs: kwargs });
}

/** The message with its write/edit arguments over {@link TRUNCATE_ARGS_OVER} chars shortened (itself when none are). */
export function truncatedMessage(m: BaseMessage): BaseMessage {
  if (!AIMessage.isInstance(m) || !m.tool_calls?.length) return m;
  let hit = cache.get(m);
  if (!hit) {
    hit = truncated(m);
    cache.set(m, hit);
  }
  return hit;
}

export function truncateOldToolArgs(view: readonly BaseMessage[], keepRecent = TRUNCATE_KEEP_RECENT): BaseMessage[] {
  const limit = view.length - keepRecent;
  return view.map((m, i) => (i < limit ? truncatedMessage(m) : m));
}

/**
 * The view with write/edit arguments shortened outside `keep` (the last
 * messages, or the most recent messages within a token budget, as the
 * summarization keeps them); the same array when nothing changes.
 */
export function truncateArgsOutsideKeep(view: readonly BaseMessage[], keep: KeepPolicy): readonly BaseMessage[] {
  let limit: number;
  if ("messages" in keep) limit = view.length - keep.messages;
  else {
    let sum = 0;
    limit = view.length;
    while (limit > 0 && sum + estimateMessageTokens(view[limit - 1]!) <= keep.tokens) sum += estimateMessageTokens(view[--limit]!);
  }
  let out: BaseMessage[] | undefined;
  for (let i = 0; i < limit; i++) {
    const short = truncatedMessage(view[i]!);
    if (short !== view[i]) (out ??= [...view])[i] = short;
  }
  return out ?? view;
}
