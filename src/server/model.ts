/**
 * The server's chat model, from the environment: `DEEPTAB_MODEL=<provider>:<model>` with the providers' standard
 * variables. Providers: `openai` (`OPENAI_API_KEY`, optional `OPENAI_BASE_URL`), `openai-compatible` (`OPENAI_BASE_URL`,
 * optional `OPENAI_API_KEY`) and `anthropic` (`ANTHROPIC_API_KEY`, optional `ANTHROPIC_BASE_URL`).
 *
 * A missing or malformed setting is a startup error that says what to set; a key never appears in it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { err, ok, type Result } from "../core/result.ts";

/** The providers a server model may use, and what each needs from the environment. */
export const SERVER_PROVIDERS = {
  openai: { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL", needsKey: true, needsBaseUrl: false },
  "openai-compatible": { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL", needsKey: false, needsBaseUrl: true },
  anthropic: { key: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL", needsKey: true, needsBaseUrl: false },
} as const;

export type ServerProvider = keyof typeof SERVER_PROVIDERS;

/** A parsed `DEEPTAB_MODEL` with what the environment gives it. */
export interface ServerModelSpec {
  provider: ServerProvider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const USAGE =
  "Set DEEPTAB_MODEL=<provider>:<model>, where provider is one of " +
  `${Object.keys(SERVER_PROVIDERS).join(", ")} (e.g. DEEPTAB_MODEL=anthropic:claude-sonnet-4-5).`;

const isProvider = (name: string): name is ServerProvider => Object.hasOwn(SERVER_PROVIDERS, name);

/** Reads `DEEPTAB_MODEL` and the provider's variables; an error says what is missing or wrong. */
export function modelSpecFromEnv(env: Env): Result<ServerModelSpec, string> {
  const raw = env.DEEPTAB_MODEL?.trim();
  if (!raw) return err(`DEEPTAB_MODEL is not set. ${USAGE}`);
  const cut = raw.indexOf(":");
  const provider = cut < 0 ? raw : raw.slice(0, cut);
  const model = cut < 0 ? "" : raw.slice(cut + 1).trim();
  // The value is echoed only when it names no known provider; it holds no secret by contract, but is cut short anyway.
  if (!isProvider(provider)) return err(`DEEPTAB_MODEL names an unknown provider '${provider.slice(0, 40)}'. ${USAGE}`);
  if (!model) return err(`DEEPTAB_MODEL has no model after '${provider}:'. ${USAGE}`);
  const needs = SERVER_PROVIDERS[provider];
  const apiKey = env[needs.key] || undefined;
  const baseUrl = env[needs.baseUrl] || undefined;
  if (needs.needsKey && !apiKey) return err(`DEEPTAB_MODEL uses ${provider}: set ${needs.key}.`);
  if (needs.needsBaseUrl && !baseUrl) return err(`DEEPTAB_MODEL uses ${provider}: set ${needs.baseUrl} (e.g. http://localhost:11434/v1).`);
  if (baseUrl && !URL.canParse(baseUrl)) return err(`${needs.baseUrl} is not a URL.`);
  return ok({ provider, model, ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) });
}

/** Builds the chat model of a spec (the provider's LangChain client, loaded on demand). */
export async function createServerModel(spec: ServerModelSpec): Promise<BaseChatModel> {
  if (spec.provider === "anthropic") {
    const { ChatAnthropic } = await import("@langchain/anthropic");
    return new ChatAnthropic({
      model: spec.model,
      apiKey: spec.apiKey,
      maxRetries: 2,
      ...(spec.baseUrl ? { anthropicApiUrl: spec.baseUrl } : {}),
    });
  }
  const { ChatOpenAI } = await import("@langchain/openai");
  return new ChatOpenAI({
    model: spec.model,
    apiKey: spec.apiKey ?? "no-key",
    maxRetries: 2,
    streamUsage: true,
    ...(spec.baseUrl ? { configuration: { baseURL: spec.baseUrl } } : {}),
  });
}

/** The server's model, or a thrown Error naming what to set (the server refuses to start without one). */
export async function modelFromEnv(env: Env): Promise<BaseChatModel> {
  const spec = modelSpecFromEnv(env);
  if (!spec.ok) throw new Error(`deeptab server: ${spec.error}`);
  return createServerModel(spec.value);
}
