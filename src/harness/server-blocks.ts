/**
 * An answer's provider-run tool blocks made whole, and what they searched read once for the page. Loaded only for
 * a message that may hold such blocks (loop.ts). The blocks are made whole as the provider sent them. @langchain/anthropic streams a
 * `server_tool_use` block (Anthropic's web search) as the block with an empty input, then its input as separate
 * `input_json_delta` blocks and as a tool-call chunk without a name; concatenated, that is a block whose input is
 * lost on the next turn and a nameless tool call the harness would run. Here the input goes back into its block (the
 * provider needs it back as it was), the delta blocks go, and so does the nameless call. Messages without
 * `server_tool_use` blocks are returned as they are. A message whose provider searched gets its searches and
 * citations (core/web-search-blocks.ts: http(s) links only) under `response_metadata[WEB_SEARCH_KEY]`, which is never
 * sent to a provider. Pure.
 */
import type { AIMessage } from "@langchain/core/messages";
import { copyAIMessage, WEB_SEARCH_KEY } from "../core/messages.ts";
import { webSearchBlocks } from "../core/web-search-blocks.ts";

type Block = Record<string, unknown>;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/** {@link settleServerToolUse}, then the searches and citations kept on the message for the page. */
export function settleProviderBlocks(message: AIMessage): AIMessage {
  const settled = settleServerToolUse(message);
  const { searches, citations } = webSearchBlocks(settled);
  if (!searches.length && !citations.length) return settled;
  return copyAIMessage(settled, { response_metadata: { ...settled.response_metadata, [WEB_SEARCH_KEY]: { searches, citations } } });
}

export function settleServerToolUse(message: AIMessage): AIMessage {
  if (!Array.isArray(message.content)) return message;
  const blocks = message.content as Block[];
  const serverIndices = new Set(blocks.filter((b) => b.type === "server_tool_use" && "index" in b).map((b) => b.index));
  if (!blocks.some((b) => b.type === "server_tool_use")) return message;
  const deltas = new Map<unknown, string>();
  for (const b of blocks)
    if (b.type === "input_json_delta" && serverIndices.has(b.index) && typeof b.input === "string")
      deltas.set(b.index, (deltas.get(b.index) ?? "") + b.input);
  const content = blocks.flatMap((b): Block[] => {
    if (b.type === "input_json_delta" && serverIndices.has(b.index)) return [];
    if (b.type !== "server_tool_use" || (typeof b.input === "object" && b.input !== null)) return [b];
    const text = (typeof b.input === "string" ? b.input : "") + (deltas.get(b.index) ?? "");
    return [{ ...b, input: text.trim() ? parsed(text) : {} }];
  });
  return copyAIMessage(message, {
    content: content as AIMessage["content"],
    tool_calls: (message.tool_calls ?? []).filter((c) => c.name !== ""),
    invalid_tool_calls: (message.invalid_tool_calls ?? []).filter((c) => c.name),
  });
}
