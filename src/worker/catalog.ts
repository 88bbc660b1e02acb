/**
 * What the page needs to know about providers and in-tab models, for ui/
 * (which reaches models/ only through worker/): the provider list, the shard
 * and id rules of the model store, and the models the settings recommend
 * for the in-tab engine (llama.cpp). Plain data and pure functions: nothing
 * here touches the network or storage.
 *
 * The provider list is a copy of models/providers.ts's PROVIDERS, not a
 * re-export: that module builds models (it imports the demo model and with
 * it LangChain), which would put ~700 KB of worker code into the page's
 * bundle. catalog.test.ts checks that the copy equals the original.
 */
import { modelIdFor, shardUrls } from "../models/wllama/model-store.ts";
import type { ProviderInfo } from "../models/providers.ts";
import type { ModelSource, ProviderId } from "./protocol.ts";

export type { ProviderInfo };
export { MAX_FILE_BYTES, modelIdFor, shardUrls } from "../models/wllama/model-store.ts";

/** The providers the app offers (the same list as models/providers.ts). */
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

/** The window the worker assumes for an OpenAI-compatible server that does not say (models/providers.ts). */
export const LOCAL_SERVER_WINDOW = 8_192;

/** Providers whose key the page can set (the worker's keyStatus lists these). */
export const KEY_PROVIDERS: readonly ProviderId[] = ["openai", "anthropic", "openai-compatible"];

export interface RecommendedModel {
  name: string;
  url: string;
  /** The approximate download size, as the model's host states it. */
  size: string;
  note: string;
}

/** Small instruct models that run in a tab (Q4_K_M, one file each, well under the 2 GB per-file limit). */
export const RECOMMENDED_MODELS: readonly RecommendedModel[] = [
  {
    name: "Qwen2.5-0.5B-Instruct Q4_K_M",
    url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf",
    size: "≈ 491 MB",
    note: "fastest; fine for chat, weak at tool use",
  },
  {
    name: "Qwen2.5-1.5B-Instruct Q4_K_M",
    url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    size: "≈ 1.12 GB",
    note: "a good balance of speed and tool use",
  },
  {
    name: "Qwen3-1.7B Q4_K_M",
    url: "https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf",
    size: "≈ 1.11 GB",
    note: "newest; thinks before it answers (slower)",
  },
];

/** The file name of a URL's path (`…/x.gguf?download=1` → `x.gguf`). */
export function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() || url);
  } catch {
    return url;
  }
}

/** The store's source for a GGUF URL: a split model's first shard expands to every shard. */
export function modelSourceFor(url: string, name: string = fileNameOf(url)): ModelSource {
  return { id: modelIdFor(url), name, urls: shardUrls(url) };
}
