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
import { providerInfo, webSearchToolOf, type ModelChoice, type ProviderId } from "./catalog.ts";
import { createDemoModel } from "./demo.ts";
import { watchDrops } from "./dropped-stream.ts";

export { LOCAL_SERVER_WINDOW, type ModelChoice, type ProviderId } from "./catalog.ts";
export { effectiveServerWindow, type ServerWindow } from "./server-window.ts";
export type { ServerProbe } from "./server-probe.ts";

/** The provider clients: a few hundred KB each, imported when first used (or preloaded), never at startup. */
const openaiClient = once(() => import("@langchain/openai"));
const anthropicClient = once(() => import("@langchain/anthropic"));

/**
 * Starts importing the client of a provider in the background (nothing for
 * the demo and the models in the tab), so the first request of a thread
 * that uses it does not wait for the import.
 */
export function preloadClient(provider: ProviderId): void {
  const load = provider === "anthropic" ? anthropicClient : provider === "openai" || provider === "openai-compatible" ? openaiClient : null;
  void load?.().catch(() => undefined);
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
  // A stream that drops after the answer began is told from an endpoint never reached (dropped-stream.ts).
  const fetchFn = watchDrops(fetchImpl ?? ((input, init) => fetch(input, init)));
  switch (choice.provider) {
    case "demo":
      return ok(createDemoModel());
    case "openai":
    case "openai-compatible": {
      if (choice.provider === "openai" && !key) return err("Add an OpenAI API key in Settings.");
      if (choice.provider === "openai-compatible" && !choice.baseUrl)
        return err("Set the server's base URL in Settings (for Ollama: http://localhost:11434/v1).");
      if (!choice.model) return err("Choose a model in Settings.");
      const { ChatOpenAI } = await openaiClient();
      return ok(
        new ChatOpenAI({
          model: choice.model,
          apiKey: key || "no-key",
          maxRetries: 0,
          streamUsage: true,
          configuration: { baseURL: endpointOf(choice), dangerouslyAllowBrowser: true, fetch: fetchFn },
        }),
      );
    }
    case "anthropic": {
      if (!key) return err("Add an Anthropic API key in Settings.");
      const { ChatAnthropic } = await anthropicClient();
      return ok(
        new ChatAnthropic({
          model: choice.model || "claude-sonnet-4-5",
          apiKey: key,
          maxRetries: 0,
          ...(choice.baseUrl ? { anthropicApiUrl: choice.baseUrl } : {}),
          clientOptions: { dangerouslyAllowBrowser: true, fetch: fetchFn },
        }),
      );
    }
    // Every provider is named (no default): a new row of the provider table does not compile until it is handled here.
    case "wllama":
    case "chrome":
      return err(`The ${providerInfo(choice.provider).label} model is built in the worker from its engine.`);
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

/** Model ids a provider lists (`/v1/models`), for the picker; a coded error when it cannot (then the field is free text). */
export async function listModels(
  choice: ModelChoice,
  key: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<Result<string[], ModelListError>> {
  const base = endpointOf(choice);
  if (!base) return ok([...providerInfo(choice.provider).suggestions]);
  const headers: Record<string, string> = {};
  if (choice.provider === "anthropic") {
    if (!key) return listFailed("no_key", "no key");
    Object.assign(headers, { "x-api-key": key, "anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true" });
  } else if (key) headers.authorization = `Bearer ${key}`;
  const url = choice.provider === "anthropic" ? `${base.replace(/\/+$/, "")}/v1/models` : `${base.replace(/\/+$/, "")}/models`;
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
