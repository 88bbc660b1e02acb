/**
 * The server's chat model, from the environment: `DEEPTAB_MODEL=<provider>:<model>` with the providers' standard
 * variables. The providers and their variables are the provider table's network rows with a `serverEnv`
 * (models/catalog.ts): `openai` (`OPENAI_API_KEY`, optional `OPENAI_BASE_URL`), `openai-compatible`
 * (`OPENAI_BASE_URL`, optional `OPENAI_API_KEY`), `anthropic` (`ANTHROPIC_API_KEY`, optional `ANTHROPIC_BASE_URL`).
 *
 * A missing or malformed setting is a startup error that says what to set; a key never appears in it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { err, ok, type Result } from "../core/result.ts";
import { PROVIDERS, type Api, type ProviderId, type ProviderInfo } from "../models/catalog.ts";

/** A provider row a server model may use: a network one with its variables. */
export type ServerProviderInfo = ProviderInfo & { runsIn: "network"; api: Api; serverEnv: string };

/** A server provider's variables: the key's (required when the row's key is) and the base URL's (unset: `officialUrl`). */
export function serverVars(info: ServerProviderInfo): { key: string; baseUrl: string } {
  return { key: `${info.serverEnv}_API_KEY`, baseUrl: `${info.serverEnv}_BASE_URL` };
}

/** The providers a server model may use (the table's network rows with a `serverEnv`), in the table's order. */
export const SERVER_PROVIDERS: readonly ServerProviderInfo[] = PROVIDERS.filter(
  (p): p is ServerProviderInfo => p.runsIn === "network" && p.serverEnv !== null,
);

/** A parsed `DEEPTAB_MODEL` with what the environment gives it. */
export interface ServerModelSpec {
  provider: ProviderId;
  model: string;
  apiKey?: string;
  baseUrl?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const USAGE =
  "Set DEEPTAB_MODEL=<provider>:<model>, where provider is one of " +
  `${SERVER_PROVIDERS.map((p) => p.id).join(", ")} (e.g. DEEPTAB_MODEL=anthropic:claude-sonnet-4-5).`;

const serverProvider = (name: string): ServerProviderInfo | undefined => SERVER_PROVIDERS.find((p) => p.id === name);

/** Reads `DEEPTAB_MODEL` and the provider's variables; an error says what is missing or wrong. */
export function modelSpecFromEnv(env: Env): Result<ServerModelSpec, string> {
  const raw = env.DEEPTAB_MODEL?.trim();
  if (!raw) return err(`DEEPTAB_MODEL is not set. ${USAGE}`);
  const cut = raw.indexOf(":");
  const name = cut < 0 ? raw : raw.slice(0, cut);
  const model = cut < 0 ? "" : raw.slice(cut + 1).trim();
  const info = serverProvider(name);
  // The value is echoed only when it names no known provider; it holds no secret by contract, but is cut short anyway.
  if (!info) return err(`DEEPTAB_MODEL names an unknown provider '${name.slice(0, 40)}'. ${USAGE}`);
  if (!model) return err(`DEEPTAB_MODEL has no model after '${name}:'. ${USAGE}`);
  const vars = serverVars(info);
  const apiKey = env[vars.key] || undefined;
  const baseUrl = env[vars.baseUrl] || undefined;
  if (info.key === "required" && !apiKey) return err(`DEEPTAB_MODEL uses ${name}: set ${vars.key}.`);
  if (info.baseUrl === "required" && !baseUrl)
    return err(`DEEPTAB_MODEL uses ${name}: set ${vars.baseUrl}${info.defaultBaseUrl ? ` (e.g. ${info.defaultBaseUrl})` : ""}.`);
  if (baseUrl && !URL.canParse(baseUrl)) return err(`${vars.baseUrl} is not a URL.`);
  return ok({ provider: info.id, model, ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) });
}

/** Builds the chat model of a spec (the client of its provider's protocol, loaded on demand). */
export async function createServerModel(spec: ServerModelSpec): Promise<BaseChatModel> {
  const info = serverProvider(spec.provider);
  if (!info) throw new Error(`deeptab server: '${spec.provider}' is not a provider the server offers.`);
  // Unset, the base URL is the row's official one (the client's own default for OpenAI and Anthropic; not for others).
  const baseUrl = spec.baseUrl ?? info.officialUrl;
  switch (info.api) {
    case "anthropic": {
      const { ChatAnthropic } = await import("@langchain/anthropic");
      return new ChatAnthropic({
        model: spec.model,
        apiKey: spec.apiKey,
        maxRetries: 2,
        ...(baseUrl ? { anthropicApiUrl: baseUrl } : {}),
      });
    }
    case "openai": {
      const { ChatOpenAI } = await import("@langchain/openai");
      return new ChatOpenAI({
        model: spec.model,
        apiKey: spec.apiKey ?? "no-key",
        maxRetries: 2,
        streamUsage: true,
        ...(baseUrl ? { configuration: { baseURL: baseUrl } } : {}),
      });
    }
  }
}

/** The server's model, or a thrown Error naming what to set (the server refuses to start without one). */
export async function modelFromEnv(env: Env): Promise<BaseChatModel> {
  const spec = modelSpecFromEnv(env);
  if (!spec.ok) throw new Error(`deeptab server: ${spec.error}`);
  return createServerModel(spec.value);
}
