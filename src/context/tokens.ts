/**
 * Cheap token counting. Never tokenizes (LangChain's getNumTokens fetches
 * tiktoken data from a CDN): characters / 4 per message, memoized per message
 * object, and the provider's reported usage where the view allows it.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { AgentTool } from "../harness/types.ts";

export const CHARS_PER_TOKEN = 4;
const PER_MESSAGE_OVERHEAD = 4;
const cache = new WeakMap<BaseMessage, number>();

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function contentLength(content: BaseMessage["content"]): number {
  if (typeof content === "string") return content.length;
  let n = 0;
  for (const block of content as ReadonlyArray<unknown>) {
    const text = (block as { text?: unknown }).text;
    n += typeof text === "string" ? text.length : JSON.stringify(block).length;
  }
  return n;
}

/** Estimated tokens of one message (content plus tool-call arguments). */
export function estimateMessageTokens(message: BaseMessage): number {
  const hit = cache.get(message);
  if (hit !== undefined) return hit;
  let chars = contentLength(message.content);
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) chars += call.name.length + JSON.stringify(call.args).length;
  }
  const tokens = Math.ceil(chars / CHARS_PER_TOKEN) + PER_MESSAGE_OVERHEAD;
  cache.set(message, tokens);
  return tokens;
}

export function estimateMessagesTokens(messages: readonly BaseMessage[]): number {
  let total = 0;
  for (const m of messages) total += estimateMessageTokens(m);
  return total;
}

const toolCache = new WeakMap<AgentTool, number>();

/** Estimated tokens of the tool schemas sent with a request (memoized per tool). */
export function estimateToolsTokens(tools: readonly AgentTool[]): number {
  let total = 0;
  for (const t of tools) {
    let n = toolCache.get(t);
    if (n === undefined) {
      n = Math.ceil((t.name.length + t.description.length + JSON.stringify(t.schema).length) / CHARS_PER_TOKEN);
      toolCache.set(t, n);
    }
    total += n;
  }
  return total;
}

/**
 * Tokens of a request: the latest reported usage (input + output of the last
 * AI message at or after `trustFrom`) plus estimates for what came after it;
 * a full estimate when no usage applies.
 */
export function countRequestTokens(messages: readonly BaseMessage[], fixedTokens: number, trustFrom = 0): number {
  for (let i = messages.length - 1; i >= trustFrom && i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m)) continue;
    const usage = m.usage_metadata;
    if (!usage || !(usage.input_tokens > 0)) continue;
    return usage.input_tokens + (usage.output_tokens ?? 0) + estimateMessagesTokens(messages.slice(i + 1));
  }
  return fixedTokens + estimateMessagesTokens(messages);
}
