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
import { err, ok, type Result } from "../core/result.ts";
import { windowForModelName } from "../context/model-windows.ts";
import { providerInfo, type ModelChoice } from "./catalog.ts";
import { createDemoModel } from "./demo.ts";

export { PROVIDERS, providerInfo, LOCAL_SERVER_WINDOW, type ModelChoice, type ProviderId, type ProviderInfo } from "./catalog.ts";

export const OPENAI_URL = "https://api.openai.com/v1";
export const ANTHROPIC_URL = "https://api.anthropic.com";

/** The base URL requests of a choice go to (what the page's request log may show). */
export function endpointOf(choice: ModelChoice): string | undefined {
  if (choice.provider === "openai") return choice.baseUrl ?? OPENAI_URL;
  if (choice.provider === "anthropic") return choice.baseUrl ?? ANTHROPIC_URL;
  if (choice.provider === "openai-compatible") return choice.baseUrl;
  return undefined;
}

/**
 * The window of a choice: what the user set, else deeptab's table (for names
 * it knows), else undefined. Never the table for OpenAI-compatible servers:
 * a local server loads a model with far less than its family's maximum
 * (Ollama's default is a few thousand tokens), so its window comes from the
 * server (`probeServerWindow`) or the user.
 */
export function contextWindowOf(choice: ModelChoice): number | undefined {
  if (choice.contextWindow) return choice.contextWindow;
  return choice.provider === "openai-compatible" ? undefined : windowForModelName(choice.model);
}

/** Ollama's context when a model sets no num_ctx (recent releases). */
export const OLLAMA_DEFAULT_WINDOW = 4_096;

async function getJson(fetchImpl: typeof fetch, url: string, init: RequestInit = {}): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3_000);
  try {
    const res = await fetchImpl(url, { ...init, signal: controller.signal });
    return res.ok ? ((await res.json()) as unknown) : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const positive = (n: unknown): number | undefined => (typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined);

/**
 * Asks an OpenAI-compatible server for the context its model is loaded with:
 * llama.cpp's server (`/props`), LM Studio (`/api/v0/models/<id>`), Ollama
 * (`/api/ps` for a loaded model, else `num_ctx` from `/api/show`, else its
 * default). Undefined when the server does not tell.
 */
export async function probeServerWindow(choice: ModelChoice, fetchImpl: typeof fetch = fetch): Promise<number | undefined> {
  if (choice.provider !== "openai-compatible" || !choice.baseUrl) return undefined;
  const root = choice.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  const props = (await getJson(fetchImpl, `${root}/props`)) as
    { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown } | undefined;
  const llama = positive(props?.default_generation_settings?.n_ctx) ?? positive(props?.n_ctx);
  if (llama) return llama;
  if (choice.model) {
    const lms = (await getJson(fetchImpl, `${root}/api/v0/models/${encodeURIComponent(choice.model)}`)) as
      { loaded_context_length?: unknown; max_context_length?: unknown } | undefined;
    const lmsWindow = positive(lms?.loaded_context_length) ?? positive(lms?.max_context_length);
    if (lmsWindow) return lmsWindow;
  }
  const version = await getJson(fetchImpl, `${root}/api/version`);
  if (!version) return undefined;
  const ps = (await getJson(fetchImpl, `${root}/api/ps`)) as
    { models?: Array<{ name?: unknown; model?: unknown; context_length?: unknown }> } | undefined;
  const running = ps?.models?.find((m) => m.name === choice.model || m.model === choice.model);
  const loaded = positive(running?.context_length);
  if (loaded) return loaded;
  const show = (await getJson(fetchImpl, `${root}/api/show`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: choice.model }),
  })) as { parameters?: unknown } | undefined;
  const numCtx = typeof show?.parameters === "string" ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined;
  return numCtx ? Number(numCtx) : OLLAMA_DEFAULT_WINDOW;
}

/**
 * Builds the chat model for a network or demo choice. `fetchImpl` lets the
 * worker log every request it makes (the request log shows their hosts).
 */
export async function createRemoteModel(
  choice: ModelChoice,
  key: string | undefined,
  fetchImpl?: typeof fetch,
): Promise<Result<BaseChatModel, string>> {
  switch (choice.provider) {
    case "demo":
      return ok(createDemoModel());
    case "openai":
    case "openai-compatible": {
      if (choice.provider === "openai" && !key) return err("Add an OpenAI API key in Settings.");
      if (choice.provider === "openai-compatible" && !choice.baseUrl)
        return err("Set the server's base URL in Settings (for Ollama: http://localhost:11434/v1).");
      if (!choice.model) return err("Choose a model in Settings.");
      const { ChatOpenAI } = await import("@langchain/openai");
      return ok(
        new ChatOpenAI({
          model: choice.model,
          apiKey: key || "no-key",
          maxRetries: 0,
          streamUsage: true,
          configuration: { baseURL: endpointOf(choice), dangerouslyAllowBrowser: true, ...(fetchImpl ? { fetch: fetchImpl } : {}) },
        }),
      );
    }
    case "anthropic": {
      if (!key) return err("Add an Anthropic API key in Settings.");
      const { ChatAnthropic } = await import("@langchain/anthropic");
      return ok(
        new ChatAnthropic({
          model: choice.model || "claude-sonnet-4-5",
          apiKey: key,
          maxRetries: 0,
          ...(choice.baseUrl ? { anthropicApiUrl: choice.baseUrl } : {}),
          clientOptions: { dangerouslyAllowBrowser: true, ...(fetchImpl ? { fetch: fetchImpl } : {}) },
        }),
      );
    }
    default:
      return err(`The ${providerInfo(choice.provider).label} model is built in the worker from its engine.`);
  }
}

/** Model ids a provider lists (`/v1/models`), for the picker; an error value when it cannot (then the field is free text). */
export async function listModels(
  choice: ModelChoice,
  key: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<Result<string[], string>> {
  const base = endpointOf(choice);
  if (!base) return ok(providerInfo(choice.provider).suggestions);
  const headers: Record<string, string> = {};
  if (choice.provider === "anthropic") {
    if (!key) return err("no key");
    Object.assign(headers, { "x-api-key": key, "anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true" });
  } else if (key) headers.authorization = `Bearer ${key}`;
  const url = choice.provider === "anthropic" ? `${base.replace(/\/+$/, "")}/v1/models` : `${base.replace(/\/+$/, "")}/models`;
  try {
    const res = await fetchImpl(url, { headers });
    if (!res.ok) return err(`HTTP ${res.status}`);
    const body = (await res.json()) as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> };
    const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string");
    return ok(ids.sort());
  } catch (cause) {
    return err(cause instanceof Error ? cause.message : String(cause));
  }
}
