/**
 * The profile an agent runs under: the one named (a key or an object), else the one registered for its model's
 * provider and name (most specific wins), else none. A name no profile has is an error, not a silent no-op.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HarnessError } from "../../harness/errors.ts";
import type { AgentMiddleware, AgentTool } from "../../harness/types.ts";
import { createHarnessProfile } from "./create.ts";
import { getHarnessProfile, harnessProfileKeys, resolveHarnessProfile } from "./registry.ts";
import { isHarnessProfile, resolveMiddleware, type HarnessProfile, type HarnessProfileOptions } from "./types.ts";

/** The provider LangChain's client reports (`ChatAnthropic`: `anthropic`, `ChatOpenAI`: `openai`). */
function providerOf(model: BaseChatModel): string | undefined {
  try {
    return model._llmType();
  } catch {
    return undefined;
  }
}

/** The model name a client holds (`model`, or the older `modelName`). */
function identifierOf(model: BaseChatModel): string | undefined {
  const fields = model as unknown as { model?: unknown; modelName?: unknown };
  const name = fields.model ?? fields.modelName;
  return typeof name === "string" && name ? name : undefined;
}

/** The profile for an agent of `model`, by name (refused when unknown), by object, or resolved from the model. */
export function pickHarnessProfile(
  model: BaseChatModel,
  given: string | HarnessProfile | HarnessProfileOptions | undefined,
): HarnessProfile {
  if (typeof given === "string") {
    const named = getHarnessProfile(given.trim());
    if (!named) {
      throw new HarnessError(
        "invalid_option",
        `Unknown harness profile "${given}" (registered: ${harnessProfileKeys().join(", ")}); ` +
          "register it with registerHarnessProfile first.",
      );
    }
    return named;
  }
  if (given) return isHarnessProfile(given) ? given : createHarnessProfile(given);
  return resolveHarnessProfile({ providerHint: providerOf(model), identifierHint: identifierOf(model) });
}

/** The profile's extra middleware ahead of the agent's own; one the agent names alike is the agent's. */
export function withProfileMiddleware(profile: HarnessProfile, own: readonly AgentMiddleware[]): AgentMiddleware[] {
  const names = new Set(own.map((m) => m.name));
  return [...resolveMiddleware(profile.extraMiddleware).filter((m) => !names.has(m.name)), ...own];
}

/** Tools with the profile's description overrides applied (a copy per overridden tool). */
export function withProfileDescriptions(profile: HarnessProfile, tools: AgentTool[]): AgentTool[] {
  const overrides = profile.toolDescriptionOverrides;
  return tools.map((t) => (Object.hasOwn(overrides, t.name) ? { ...t, description: overrides[t.name]! } : t));
}
