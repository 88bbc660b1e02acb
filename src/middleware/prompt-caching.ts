/**
 * Prompt caching for Anthropic models: asks the request renderer to place
 * cache breakpoints after the stable system prompt and on the last message.
 * Sits in the tail of the stack, before memory, as in deepagents.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentMiddleware } from "../harness/types.ts";

export const PROMPT_CACHING = "AnthropicPromptCachingMiddleware";

export function isAnthropicModel(model: BaseChatModel): boolean {
  return model._llmType() === "anthropic";
}

export function promptCachingMiddleware(isAnthropic: (model: BaseChatModel) => boolean = isAnthropicModel): AgentMiddleware {
  return {
    name: PROMPT_CACHING,
    async wrapModelCall(request, next) {
      return isAnthropic(request.model) ? next({ ...request, cacheBreakpoints: true }) : next(request);
    },
  };
}
