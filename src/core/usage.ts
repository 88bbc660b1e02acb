/**
 * Provider-reported token usage as plain numbers, and the two operations
 * every layer needs on it: reading LangChain's `usage_metadata` and adding
 * two counts. A leaf (type imports only), so the page can use it too.
 */
import type { UsageMetadata } from "@langchain/core/messages";

/** Tokens of one or more model calls. `cacheRead`: prompt tokens the provider's cache served (part of `input`). */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead?: number;
}

/** LangChain's usage of one call as plain numbers (its `input_tokens` already include cache reads). */
export function tokenUsage(u: Partial<UsageMetadata>): TokenUsage {
  const cacheRead = u.input_token_details?.cache_read;
  return { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0, ...(cacheRead ? { cacheRead } : {}) };
}

/** `a` and `b` added; `cacheRead` only when some was reported. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const cacheRead = (a.cacheRead ?? 0) + (b.cacheRead ?? 0);
  return { input: a.input + b.input, output: a.output + b.output, ...(cacheRead ? { cacheRead } : {}) };
}
