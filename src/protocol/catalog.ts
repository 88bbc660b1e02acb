/**
 * What the page needs to know about providers and in-tab models, for ui/
 * (which reaches models/ only through page/ and protocol/): the provider list, the window
 * below which tool descriptions are compact, whether this browser can run
 * llama.cpp, the shard and id rules of the model store, and the models the
 * settings recommend for the in-tab engine. Plain data and pure functions:
 * nothing here touches the network or storage.
 *
 * The provider list comes from models/catalog.ts, which imports nothing (not
 * from models/providers.ts, which builds models and would put ~700 KB of
 * worker code into the page's bundle).
 */
import { modelIdFor, shardUrls } from "../models/wllama/model-ids.ts";
import type { ModelSource } from "./settings.ts";

export { KEY_PROVIDERS, LOCAL_SERVER_WINDOW, PROVIDERS, providerInfo, type ProviderInfo } from "../models/catalog.ts";
export { COMPACT_PROFILE_BELOW } from "../context/tool-profile.ts";
export { BUILTIN_PROFILE_LABELS, type BuiltinProfileKey } from "../agent/profiles/builtins/labels.ts";
export { wllamaSupport, type WllamaSupport } from "../models/wllama/support.ts";

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
