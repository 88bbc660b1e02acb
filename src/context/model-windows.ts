/**
 * Context windows (max input tokens) of the models the app offers, used when
 * the LangChain model has no `profile.maxInputTokens`. Matched by prefix of
 * the model name, longest first.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";

const MODEL_WINDOWS: Readonly<Record<string, number>> = {
  "gpt-4.1": 1_047_576,
  "gpt-4o": 128_000,
  "gpt-5": 272_000,
  o3: 200_000,
  "o4-mini": 200_000,
  "claude-opus-4": 200_000,
  "claude-sonnet-4": 200_000,
  "claude-haiku-4": 200_000,
  "claude-3-7-sonnet": 200_000,
  "claude-3-5-haiku": 200_000,
  "deepseek-chat": 128_000,
  "deepseek-reasoner": 128_000,
  qwen: 131_072,
  "llama-3.3": 131_072,
  "mistral-large": 131_072,
  "gemini-2.5": 1_048_576,
};

const prefixes = Object.keys(MODEL_WINDOWS).sort((a, b) => b.length - a.length);

export function windowForModelName(name: string | undefined): number | undefined {
  if (!name) return undefined;
  const lower = name.toLowerCase().replace(/^.*\//, "");
  const hit = prefixes.find((p) => lower.startsWith(p));
  return hit ? MODEL_WINDOWS[hit] : undefined;
}

/** The model's max input tokens: its LangChain profile, else our table, else undefined. */
export function maxInputTokens(model: BaseChatModel): number | undefined {
  const fromProfile = (model as { profile?: { maxInputTokens?: number } }).profile?.maxInputTokens;
  if (typeof fromProfile === "number" && fromProfile > 0) return fromProfile;
  const m = model as { model?: string; modelName?: string };
  return windowForModelName(m.model ?? m.modelName);
}
