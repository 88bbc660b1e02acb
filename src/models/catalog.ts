/**
 * The providers the app offers, as plain data: no imports, so the page can
 * show the list without loading any model code (models/providers.ts builds
 * the models; protocol/catalog.ts hands this table to the page).
 *
 * {@link PROVIDER_TABLE} is the one source: `ProviderId` is its keys, and
 * every list of providers (the settings' Provider select, the providers that
 * take a key, the ids the worker accepts from storage, the providers a
 * LangGraph server offers) is derived from it. What a provider does is a field
 * of its row, never a branch on its id: the key and base URL it requires, its
 * wire protocol (`api`, which picks the client, the preload and the model-list
 * route), who a run waits for (`waitingFor`), the server's variables
 * (`serverEnv`). Code that treats every kind of row switches over `runsIn` or
 * `api` exhaustively (no `default`), so a new kind fails to compile until it is
 * handled; a new row of a known kind needs no code at all.
 */

/** Whether a provider takes a key or a base URL. */
export type Need = "required" | "optional" | "none";

/** Where a provider's model runs: a network API, a scripted demo, llama.cpp in this tab, or the browser's built-in model. */
export type RunsIn = "network" | "scripted" | "tab" | "browser";

/**
 * The wire protocol of a network provider, which picks its LangChain client (in the tab: models/providers.ts; on the
 * server: server/model.ts) and its model-list route: OpenAI's chat completions (OpenAI and every compatible server)
 * or Anthropic's messages API. A new protocol is a new client in both places: each switches over `Api` exhaustively.
 */
export type Api = "openai" | "anthropic";

/** What every row says. */
interface SpecCommon {
  /** What the Provider select shows. */
  label: string;
  /** An API key: required (OpenAI, Anthropic), optional (OpenAI-compatible servers; hosted ones need one), or none. */
  key: Need;
  /** A base URL: required (a server of the user's), optional (a proxy in front of the official API; empty means it), or none. */
  baseUrl: Need;
  /** Where requests go when the base URL is optional and left empty. */
  officialUrl?: string;
  /** The base URL a required one starts with. */
  defaultBaseUrl?: string;
  /** Examples shown under a required base URL. */
  baseUrlExamples?: string;
  /** The key field's placeholder when no key is set and the key is optional. */
  keyPlaceholder?: string;
  defaultModel: string;
  /** Models offered when the provider cannot list its own. */
  suggestions: readonly string[];
  /**
   * Who a run waits for before the first token ("Waiting for OpenAI", ui/lib/run-status.ts); a row whose base URL is
   * required (a server of the user's) shows that server's host instead, and this when it has none.
   */
  waitingFor: string;
  /** The window comes from the server (llama.cpp's /props, LM Studio, Ollama), never from deeptab's table of model names. */
  serverWindow?: true;
  /** Its models take images in tool results (an MCP tool's screenshot); others read the text, which names the saved file. */
  toolResultImages?: true;
  /**
   * The provider's own web search, run on its servers (no CORS, no other key): the tool definition bound beside the
   * agent's tools when a thread switches "Web search" on. Anthropic's server tool; OpenAI's through the Responses API.
   */
  webSearchTool?: Readonly<Record<string, unknown>>;
}

/** A provider reached over the network: how it is spoken to, and whether a LangGraph server may use it. */
interface NetworkSpec extends SpecCommon {
  runsIn: "network";
  api: Api;
  /**
   * The prefix of a LangGraph server's variables for it (`DEEPTAB_MODEL=<id>:<model>`, server/model.ts): `OPENAI`
   * reads `OPENAI_API_KEY` and `OPENAI_BASE_URL`. Null where the server does not offer it.
   */
  serverEnv: string | null;
}

/** A provider whose model the app builds itself: the scripted demo, llama.cpp in this tab, the browser's model. */
interface LocalSpec extends SpecCommon {
  runsIn: Exclude<RunsIn, "network">;
}

/** One row of the provider table. */
export type ProviderSpec = NetworkSpec | LocalSpec;

/** The providers, in the order the settings list them. */
export const PROVIDER_TABLE = {
  demo: {
    label: "Demo (scripted, no key)",
    key: "none",
    baseUrl: "none",
    defaultModel: "scripted",
    suggestions: ["scripted"],
    waitingFor: "the model",
    runsIn: "scripted",
  },
  openai: {
    label: "OpenAI",
    key: "required",
    baseUrl: "optional",
    officialUrl: "https://api.openai.com/v1",
    defaultModel: "gpt-4.1-mini",
    suggestions: ["gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini", "o4-mini"],
    waitingFor: "OpenAI",
    runsIn: "network",
    api: "openai",
    serverEnv: "OPENAI",
    webSearchTool: { type: "web_search" },
  },
  anthropic: {
    label: "Anthropic",
    key: "required",
    baseUrl: "optional",
    officialUrl: "https://api.anthropic.com",
    defaultModel: "claude-sonnet-4-5",
    suggestions: ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"],
    waitingFor: "Anthropic",
    runsIn: "network",
    api: "anthropic",
    serverEnv: "ANTHROPIC",
    toolResultImages: true,
    webSearchTool: { type: "web_search_20250305", name: "web_search", max_uses: 5 },
  },
  "openai-compatible": {
    label: "OpenAI-compatible (Ollama, LM Studio, llama.cpp, vLLM, OpenRouter)",
    key: "optional",
    baseUrl: "required",
    defaultBaseUrl: "http://localhost:11434/v1",
    baseUrlExamples: "Ollama: http://localhost:11434/v1 · LM Studio: http://localhost:1234/v1 · llama.cpp: http://localhost:8080/v1",
    keyPlaceholder: "optional (OpenRouter and hosted servers need one)",
    defaultModel: "",
    suggestions: [],
    waitingFor: "the server",
    runsIn: "network",
    api: "openai",
    serverEnv: "OPENAI",
    serverWindow: true,
  },
  wllama: {
    label: "In this tab (llama.cpp)",
    key: "none",
    baseUrl: "none",
    defaultModel: "",
    suggestions: [],
    waitingFor: "the model",
    runsIn: "tab",
  },
  chrome: {
    label: "Chrome built-in model",
    key: "none",
    baseUrl: "none",
    defaultModel: "gemini-nano",
    suggestions: ["gemini-nano"],
    waitingFor: "Chrome's built-in model",
    runsIn: "browser",
  },
} as const satisfies Record<string, ProviderSpec>;

export type ProviderId = keyof typeof PROVIDER_TABLE;

/** Which model a thread runs with. Plain data: it is stored with the thread (never with a key). */
export interface ModelChoice {
  provider: ProviderId;
  /** The model id (`gpt-4.1`, `claude-sonnet-4-5`, `qwen2.5:7b`, a downloaded GGUF's id, …). */
  model: string;
  /** OpenAI-compatible servers: their base URL, e.g. http://localhost:11434/v1. */
  baseUrl?: string;
  /** The window the user set (it drives summarization); otherwise the profile's or deeptab's table. */
  contextWindow?: number;
  /** The thread's "Web search" switch: the provider's own search is offered to the model (only where the row has `webSearchTool`). */
  webSearch?: true;
}

/** A row of the table with its id. */
export type ProviderInfo = ProviderSpec & { id: ProviderId };

/** Every provider id, in the table's order. */
export const PROVIDER_IDS = Object.keys(PROVIDER_TABLE) as ProviderId[];

/** The table as a list, in its order. */
export const PROVIDERS: readonly ProviderInfo[] = PROVIDER_IDS.map((id): ProviderInfo => ({ id, ...PROVIDER_TABLE[id] }));

/** Providers that take a key (required or optional): the ones whose key the page can set. */
export const KEY_PROVIDERS: readonly ProviderId[] = PROVIDERS.filter((p) => p.key !== "none").map((p) => p.id);

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && Object.hasOwn(PROVIDER_TABLE, value);
}

export function providerInfo(id: ProviderId): ProviderInfo {
  return PROVIDERS.find((p) => p.id === id) ?? PROVIDERS[0]!;
}

/** The provider's web search tool when `choice` switches it on and the provider has one; else undefined. */
export function webSearchToolOf(choice: ModelChoice): Readonly<Record<string, unknown>> | undefined {
  return choice.webSearch ? providerInfo(choice.provider).webSearchTool : undefined;
}

/** The window assumed for an OpenAI-compatible server that does not say and the user did not set. */
export const LOCAL_SERVER_WINDOW = 8_192;
