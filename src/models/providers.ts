/**
 * The model providers the app offers, and how each is built: OpenAI,
 * Anthropic (with its direct-browser-access header), any OpenAI-compatible
 * server by base URL (Ollama, LM Studio, llama.cpp's server, vLLM,
 * OpenRouter; no key required), the scripted demo, and the models that run
 * in the tab (llama.cpp via wllama; Chrome's built-in model) which the
 * worker builds itself from their engines.
 *
 * A model is built per choice and key; clients retry nothing themselves
 * (`maxRetries: 0`): the harness retries visibly (provider-retry).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ErrorInfo } from "../core/errors.ts";
import { once } from "../core/once.ts";
import { err, fail, ok, type Err, type Result } from "../core/result.ts";
import { windowForModelName } from "../context/model-windows.ts";
import { withServerTools } from "../harness/bind-tools.ts";
import { providerInfo, webSearchToolOf, type Api, type ModelChoice, type ProviderId, type ProviderInfo } from "./catalog.ts";
import { createDemoModel } from "./demo.ts";
import { watchDrops } from "./dropped-stream.ts";

export { LOCAL_SERVER_WINDOW, type ModelChoice, type ProviderId } from "./catalog.ts";
export { effectiveServerWindow, type ServerWindow } from "./server-window.ts";
export type { ServerProbe } from "./server-probe.ts";

/** The provider clients, one per wire protocol: a few hundred KB each, imported when first used (or preloaded), never at startup. */
const CLIENTS = {
  openai: once(() => import("@langchain/openai")),
  anthropic: once(() => import("@langchain/anthropic")),
} satisfies Record<Api, () => Promise<unknown>>;

/**
 * Starts importing the client of a provider in the background (nothing for
 * the demo and the models in the tab), so the first request of a thread
 * that uses it does not wait for the import. Returns the import, or undefined
 * when the provider has no client to load.
 */
export function preloadClient(provider: ProviderId): Promise<unknown> | undefined {
  const info = providerInfo(provider);
  if (info.runsIn !== "network") return undefined;
  return CLIENTS[info.api]().catch(() => undefined);
}

/** The base URL requests of a choice go to (what the page's request log may show): the one given, else the official API's. */
export function endpointOf(choice: ModelChoice): string | undefined {
  const info = providerInfo(choice.provider);
  return info.baseUrl === "none" ? undefined : (choice.baseUrl ?? info.officialUrl);
}

/**
 * The window of a choice: what the user set, else deeptab's table (for names
 * it knows), else undefined. Never the table for OpenAI-compatible servers:
 * a local server loads a model with far less than its family's maximum
 * (Ollama's default is a few thousand tokens), so its window comes from the
 * server and the user (`effectiveServerWindow`).
 */
export function contextWindowOf(choice: ModelChoice): number | undefined {
  if (choice.contextWindow) return choice.contextWindow;
  return providerInfo(choice.provider).serverWindow ? undefined : windowForModelName(choice.model);
}

/**
 * Builds the chat model for a network or demo choice, offering the provider's own web search when the choice
 * switches it on and the provider has one (catalog.ts: `webSearchTool`). `fetchImpl` lets the
 * worker log every request it makes (the request log shows their hosts).
 */
export async function createRemoteModel(
  choice: ModelChoice,
  key: string | undefined,
  fetchImpl?: typeof fetch,
): Promise<Result<BaseChatModel, string>> {
  const built = await buildRemoteModel(choice, key, fetchImpl);
  const search = webSearchToolOf(choice);
  return built.ok && search ? ok(withServerTools(built.value, [search])) : built;
}

async function buildRemoteModel(
  choice: ModelChoice,
  key: string | undefined,
  fetchImpl?: typeof fetch,
): Promise<Result<BaseChatModel, string>> {
  const info = providerInfo(choice.provider);
  // Every kind of row is named (no default): a new kind does not compile until it is handled here.
  switch (info.runsIn) {
    case "scripted":
      return ok(createDemoModel());
    case "tab":
    case "browser":
      return err(`The ${info.label} model is built in the worker from its engine.`);
    case "network":
      return buildNetworkModel(choice, info, key, fetchImpl);
  }
}

/** A network provider's model, from its row: the key and base URL it requires, and the client of its protocol. */
async function buildNetworkModel(
  choice: ModelChoice,
  info: ProviderInfo & { runsIn: "network" },
  key: string | undefined,
  fetchImpl?: typeof fetch,
): Promise<Result<BaseChatModel, string>> {
  if (info.key === "required" && !key) return err(`Add your ${info.label} API key in Settings.`);
  if (info.baseUrl === "required" && !choice.baseUrl)
    return err(`Set the server's base URL in Settings${info.defaultBaseUrl ? ` (for example ${info.defaultBaseUrl})` : ""}.`);
  const model = choice.model || info.defaultModel;
  if (!model) return err("Choose a model in Settings.");
  // A stream that drops after the answer began is told from an endpoint never reached (dropped-stream.ts).
  const fetchFn = watchDrops(fetchImpl ?? ((input, init) => fetch(input, init)));
  switch (info.api) {
    case "openai": {
      const { ChatOpenAI } = await CLIENTS.openai();
      return ok(
        new ChatOpenAI({
          model,
          apiKey: key || "no-key",
          maxRetries: 0,
          streamUsage: true,
          configuration: { baseURL: endpointOf(choice), dangerouslyAllowBrowser: true, fetch: fetchFn },
        }),
      );
    }
    case "anthropic": {
      const { ChatAnthropic } = await CLIENTS.anthropic();
      return ok(
        new ChatAnthropic({
          model,
          apiKey: key,
          maxRetries: 0,
          ...(choice.baseUrl ? { anthropicApiUrl: choice.baseUrl } : {}),
          clientOptions: { dangerouslyAllowBrowser: true, fetch: fetchFn },
        }),
      );
    }
  }
}

/**
 * Why a provider's model list could not be read:
 * - `no_key`: the provider lists its models only for a key, and none is set;
 * - `http`: it answered an error status (`status` holds it: 401 for a wrong key, 404 for a server without the route);
 * - `network`: no answer (offline, a server that is down, or one that refuses a browser request: CORS);
 * - `invalid_response`: an answer that is not a model list.
 */
export type ModelListErrorCode = "no_key" | "http" | "network" | "invalid_response";
export type ModelListError = ErrorInfo & { code: ModelListErrorCode };

function listFailed(code: ModelListErrorCode, message: string, status?: number): Err<ModelListError> {
  const failed = fail(code, message, "ModelListError");
  return status === undefined ? failed : err({ ...failed.error, status });
}

/** Where each protocol lists its models, and how the key goes with the request. */
const LIST_ROUTES: Record<Api, { path: string; needsKey: boolean; headers(key: string): Record<string, string> }> = {
  openai: { path: "/models", needsKey: false, headers: (key) => ({ authorization: `Bearer ${key}` }) },
  anthropic: {
    path: "/v1/models",
    needsKey: true,
    headers: (key) => ({ "x-api-key": key, "anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true" }),
  },
};

/** Model ids a provider lists (`/v1/models`), for the picker; a coded error when it cannot (then the field is free text). */
export async function listModels(
  choice: ModelChoice,
  key: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<Result<string[], ModelListError>> {
  const info = providerInfo(choice.provider);
  const base = endpointOf(choice);
  if (info.runsIn !== "network" || !base) return ok([...info.suggestions]);
  const route = LIST_ROUTES[info.api];
  if (route.needsKey && !key) return listFailed("no_key", "no key");
  const url = `${base.replace(/\/+$/, "")}${route.path}`;
  const headers = key ? route.headers(key) : {};
  let res: Response;
  try {
    res = await fetchImpl(url, { headers });
  } catch (cause) {
    return listFailed("network", cause instanceof Error ? cause.message : String(cause));
  }
  if (!res.ok) return listFailed("http", `HTTP ${res.status}`, res.status);
  try {
    const body = (await res.json()) as { data?: Array<{ id?: unknown }> };
    const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string");
    return ok(ids.sort());
  } catch (cause) {
    return listFailed("invalid_response", `not a model list (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}
