/**
 * Shortens old write_file/edit_file arguments in the request only: outside the
 * most recent messages, a file body the model already wrote is dead weight.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { copyAIMessage } from "../core/messages.ts";

export const TRUNCATE_ARGS_OVER = 2_000;
export const TRUNCATE_KEEP_RECENT = 20;
const TRUNCATED_TOOLS = new Set(["write_file", "edit_file"]);
const cache = new WeakMap<BaseMessage, BaseMessage>();

function shorten(value: string): string {
  return `${value.slice(0, 20)}...(argument truncated)`;
}

function truncated(message: AIMessage): AIMessage {
  let changed = false;
  const calls = (message.tool_calls ?? []).map((call) => {
    if (!TRUNCATED_TOOLS.has(call.name)) return call;
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
