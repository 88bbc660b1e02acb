/**
 * The providers the app offers, as plain data: no imports, so the page can
 * show the list without loading any model code (models/providers.ts builds
 * the models; worker/catalog.ts hands this list to the page).
 */

export type ProviderId = "demo" | "openai" | "anthropic" | "openai-compatible" | "wllama" | "chrome";

/** Which model a thread runs with. Plain data: it is stored with the thread (never with a key). */
export interface ModelChoice {
  provider: ProviderId;
  /** The model id (`gpt-4.1`, `claude-sonnet-4-5`, `qwen2.5:7b`, a downloaded GGUF's id, …). */
  model: string;
  /** OpenAI-compatible servers: their base URL, e.g. http://localhost:11434/v1. */
  baseUrl?: string;
  /** The window the user set (it drives summarization); otherwise the profile's or deeptab's table. */
  contextWindow?: number;
}

export interface ProviderInfo {
  id: ProviderId;
  label: string;
  /** A key is required (OpenAI-compatible servers take one optionally). */
  needsKey: boolean;
  usesBaseUrl: boolean;
  defaultModel: string;
  defaultBaseUrl?: string;
  /** Models offered when the provider cannot list its own. */
  suggestions: string[];
}

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    id: "demo",
    label: "Demo (scripted, no key)",
    needsKey: false,
    usesBaseUrl: false,
    defaultModel: "scripted",
    suggestions: ["scripted"],
  },
  {
    id: "openai",
    label: "OpenAI",
    needsKey: true,
    usesBaseUrl: false,
    defaultModel: "gpt-4.1-mini",
    suggestions: ["gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini", "o4-mini"],
  },
  {
    id: "anthropic",
    label: "Anthropic",
    needsKey: true,
    usesBaseUrl: false,
    defaultModel: "claude-sonnet-4-5",
    suggestions: ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"],
  },
  {
    id: "openai-compatible",
    label: "OpenAI-compatible (Ollama, LM Studio, llama.cpp, vLLM, OpenRouter)",
    needsKey: false,
    usesBaseUrl: true,
    defaultModel: "",
    defaultBaseUrl: "http://localhost:11434/v1",
    suggestions: [],
  },
  { id: "wllama", label: "In this tab (llama.cpp)", needsKey: false, usesBaseUrl: false, defaultModel: "", suggestions: [] },
  {
    id: "chrome",
    label: "Chrome built-in model",
    needsKey: false,
    usesBaseUrl: false,
    defaultModel: "gemini-nano",
    suggestions: ["gemini-nano"],
  },
];

export function providerInfo(id: ProviderId): ProviderInfo {
  return PROVIDERS.find((p) => p.id === id) ?? PROVIDERS[0]!;
}

/** The window assumed for an OpenAI-compatible server that does not say and the user did not set. */
export const LOCAL_SERVER_WINDOW = 8_192;
