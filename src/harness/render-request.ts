/**
 * Turns a ModelRequest into the message list sent to the model: the system
 * message (stable text, then volatile text) and the conversation view. With
 * cache breakpoints, the stable system block and the last message carry
 * Anthropic `cache_control` marks: tools and the stable prompt form the cached
 * prefix, volatile text (memory) comes after it.
 */
import { SystemMessage, type BaseMessage, type MessageContent } from "@langchain/core/messages";
import type { ModelRequest } from "./types.ts";

const EPHEMERAL = { type: "ephemeral" } as const;

function withCacheMark(message: BaseMessage): BaseMessage {
  const blocks: Array<Record<string, unknown>> =
    typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : (message.content as Array<Record<string, unknown>>).map((b) => ({ ...b }));
  if (blocks.length === 0) return message;
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: EPHEMERAL };
  const Ctor = message.constructor as new (fields: Record<string, unknown>) => BaseMessage;
  return new Ctor({ ...message, content: blocks as MessageContent });
}

export function renderRequestMessages(request: ModelRequest): BaseMessage[] {
  const stable = request.systemPrompt;
  const volatile = request.systemPromptVolatile ?? "";
  const messages = [...request.messages];
  let system: SystemMessage | undefined;
  if (request.cacheBreakpoints) {
    const blocks: Array<Record<string, unknown>> = [];
    if (stable) blocks.push({ type: "text", text: stable, cache_control: EPHEMERAL });
    if (volatile) blocks.push({ type: "text", text: volatile });
    if (blocks.length) system = new SystemMessage({ content: blocks as MessageContent });
    if (messages.length) messages[messages.length - 1] = withCacheMark(messages[messages.length - 1]!);
  } else {
    const text = [stable, volatile].filter(Boolean).join("\n\n");
    if (text) system = new SystemMessage(text);
  }
  return system ? [system, ...messages] : messages;
}
