/**
 * The provider's real client for a loopback server's dialect, built as the
 * app builds it (models/providers.ts: `createRemoteModel`), for Node tests.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createRemoteModel, type ModelChoice } from "../models/providers.ts";
import type { ScriptedServer } from "./provider-servers.ts";

/** The model choice pointing at `server`: OpenAI's gpt-4.1 or Anthropic's claude-sonnet-4-5. */
export function choiceFor(server: Pick<ScriptedServer, "dialect" | "url">): ModelChoice {
  return server.dialect === "openai"
    ? { provider: "openai", model: "gpt-4.1", baseUrl: `${server.url}/v1` }
    : { provider: "anthropic", model: "claude-sonnet-4-5", baseUrl: server.url };
}

/** The app's chat model for `server`, with `key`. */
export async function remoteModelFor(server: Pick<ScriptedServer, "dialect" | "url">, key = "sk-test"): Promise<BaseChatModel> {
  const model = await createRemoteModel(choiceFor(server), key);
  if (!model.ok) throw new Error(model.error);
  return model.value;
}
