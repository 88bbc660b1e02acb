/**
 * Harness profiles (deepagentsjs 1.14 `profiles/harness`, issue 18): createHarnessProfile, mergeProfiles,
 * registerHarnessProfile / resolveHarnessProfile, serialization, the built-ins reaching the model's request, tool
 * exclusion, and deeptab's compact profile as one of them. Chromium runs this file too (harness-profiles.browser.test.ts).
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { DeeptabError } from "../core/errors.ts";
import type { AgentMiddleware } from "../harness/types.ts";
import { ScriptedChatModel, type RecordedCall } from "../models/scripted.ts";
import { createDeepAgent, type CreateDeepAgentOptions } from "./create-deep-agent.ts";
import {
  applyProfilePrompt,
  COMPACT_PROFILE,
  createHarnessProfile,
  EMPTY_HARNESS_PROFILE,
  getHarnessProfile,
  harnessProfileKeys,
  hasUserRegisteredProfiles,
  mergeProfiles,
  parseHarnessProfileConfig,
  registerHarnessProfile,
  resolveHarnessProfile,
  serializeProfile,
} from "./profiles/index.ts";
import { _resetRegistryForTesting } from "./profiles/registry.ts";

afterEach(() => _resetRegistryForTesting());

/** A scripted model that reports a provider and a model name, as ChatAnthropic / ChatOpenAI do. */
class NamedModel extends ScriptedChatModel {
  constructor(
    readonly provider: string,
    readonly model: string,
  ) {
    super({ script: [{ text: "done" }] });
  }
  override _llmType(): string {
    return this.provider;
  }
}

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DeeptabError ? e.code : `not coded: ${String(e)}`;
  }
  return undefined;
};

/** One turn of an agent; the model's first request. */
async function firstRequest(model: ScriptedChatModel, options: Partial<CreateDeepAgentOptions> = {}): Promise<RecordedCall> {
  const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), ...options });
  await agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: crypto.randomUUID() } });
  return model.calls[0]!;
}
const systemText = (call: RecordedCall) =>
  call.messages
    .filter((m) => SystemMessage.isInstance(m))
    .map((m) => m.text)
    .join("\n");
const descriptions = (call: RecordedCall): Record<string, string> =>
  Object.fromEntries(
    (call.toolDefinitions as unknown as { function: { name: string; description: string } }[]).map((d) => [
      d.function.name,
      d.function.description,
    ]),
  );

describe("createHarnessProfile", () => {
  it("freezes the profile and turns exclusions into sets", () => {
    const p = createHarnessProfile({ excludedTools: ["execute"], toolDescriptionOverrides: { ls: "List." } });
    expect(Object.isFrozen(p)).toBe(true);
    expect(p.excludedTools.has("execute")).toBe(true);
    expect(p.toolDescriptionOverrides).toEqual({ ls: "List." });
    expect(EMPTY_HARNESS_PROFILE.excludedTools.size).toBe(0);
  });

  it("refuses excluding required, private, class-path and empty middleware names", () => {
    expect(codeOf(() => createHarnessProfile({ excludedMiddleware: ["FilesystemMiddleware"] }))).toBe("required_middleware");
    expect(codeOf(() => createHarnessProfile({ excludedMiddleware: ["SubAgentMiddleware"] }))).toBe("required_middleware");
    expect(codeOf(() => createHarnessProfile({ excludedMiddleware: ["_private"] }))).toBe("invalid_option");
    expect(codeOf(() => createHarnessProfile({ excludedMiddleware: ["pkg:Cls"] }))).toBe("invalid_option");
    expect(codeOf(() => createHarnessProfile({ excludedMiddleware: [" "] }))).toBe("invalid_option");
  });
});

describe("mergeProfiles", () => {
  it("lets the override's scalars win, unites exclusions and merges overrides and the general-purpose settings", () => {
    const mw = (name: string, tag: string) => ({ name, tag }) as unknown as AgentMiddleware;
    const base = createHarnessProfile({
      systemPromptSuffix: "base",
      toolDescriptionOverrides: { ls: "a", grep: "b" },
      excludedTools: ["execute"],
      extraMiddleware: [mw("A", "base"), mw("B", "base")],
      generalPurposeSubagent: { description: "d", enabled: true },
    });
    const over = createHarnessProfile({
      systemPromptSuffix: "over",
      toolDescriptionOverrides: { ls: "c" },
      excludedTools: ["glob"],
      extraMiddleware: () => [mw("B", "over"), mw("C", "over")],
      generalPurposeSubagent: { enabled: false },
    });
    const merged = mergeProfiles(base, over);
    expect(merged.systemPromptSuffix).toBe("over");
    expect(merged.toolDescriptionOverrides).toEqual({ ls: "c", grep: "b" });
    expect([...merged.excludedTools]).toEqual(["execute", "glob"]);
    expect(merged.generalPurposeSubagent).toEqual({ enabled: false, description: "d", systemPrompt: undefined });
    const extra = typeof merged.extraMiddleware === "function" ? merged.extraMiddleware() : merged.extraMiddleware;
    expect(extra.map((m) => `${m.name}:${(m as unknown as { tag: string }).tag}`)).toEqual(["A:base", "B:over", "C:over"]);
  });
});

describe("registerHarnessProfile / resolveHarnessProfile", () => {
  it("loads the built-ins: Claude Opus 4.7, Sonnet 4.6, Haiku 4.5, OpenAI's Codex models and compact", () => {
    expect(harnessProfileKeys()).toEqual(
      expect.arrayContaining([
        "anthropic:claude-opus-4-7",
        "anthropic:claude-sonnet-4-6",
        "anthropic:claude-haiku-4-5",
        "openai:gpt-5.1-codex",
        "openai:gpt-5.2-codex",
        "openai:gpt-5.3-codex",
        COMPACT_PROFILE,
      ]),
    );
    expect(hasUserRegisteredProfiles()).toBe(false);
    // Codex profiles are per model: other OpenAI models keep the default behaviour.
    expect(resolveHarnessProfile({ providerHint: "openai", identifierHint: "gpt-4.1" })).toBe(EMPTY_HARNESS_PROFILE);
  });

  it("resolves the most specific profile: provider:model over provider, merged", () => {
    registerHarnessProfile("acme", { systemPromptSuffix: "acme", excludedTools: ["execute"] });
    registerHarnessProfile("acme:big", { systemPromptSuffix: "big" });
    expect(hasUserRegisteredProfiles()).toBe(true);
    const big = resolveHarnessProfile({ providerHint: "acme", identifierHint: "big" });
    expect(big.systemPromptSuffix).toBe("big");
    expect(big.excludedTools.has("execute")).toBe(true);
    expect(resolveHarnessProfile({ providerHint: "acme", identifierHint: "small" }).systemPromptSuffix).toBe("acme");
    expect(resolveHarnessProfile({ identifierHint: "acme:big" }).systemPromptSuffix).toBe("big");
    expect(resolveHarnessProfile({ spec: "nobody" })).toBe(EMPTY_HARNESS_PROFILE);
    expect(getHarnessProfile("a:b:c")).toBeUndefined();
  });

  it("merges a second registration under a key over the first, built-ins included", () => {
    registerHarnessProfile("anthropic:claude-sonnet-4-6", { excludedTools: ["execute"] });
    const p = getHarnessProfile("anthropic:claude-sonnet-4-6")!;
    expect(p.systemPromptSuffix).toContain("<use_parallel_tool_calls>");
    expect(p.excludedTools.has("execute")).toBe(true);
  });

  it("refuses malformed keys with a coded error", () => {
    expect(codeOf(() => registerHarnessProfile("", {}))).toBe("invalid_option");
    expect(codeOf(() => registerHarnessProfile("a:b:c", {}))).toBe("invalid_option");
    expect(codeOf(() => registerHarnessProfile("a:", {}))).toBe("invalid_option");
  });

  it("applyProfilePrompt replaces the base prompt and appends the suffix after a blank line", () => {
    expect(applyProfilePrompt(createHarnessProfile({ systemPromptSuffix: "S" }), "P")).toBe("P\n\nS");
    expect(applyProfilePrompt(createHarnessProfile({ baseSystemPrompt: "B", systemPromptSuffix: "S" }), "P")).toBe("B\n\nS");
    expect(applyProfilePrompt(createHarnessProfile({ systemPromptSuffix: "S" }), "")).toBe("S");
  });
});

describe("serialization", () => {
  it("round-trips a profile through JSON", () => {
    const data = {
      systemPromptSuffix: "s",
      toolDescriptionOverrides: { ls: "List." },
      excludedTools: ["execute"],
      excludedMiddleware: ["PatchToolCallsMiddleware"],
      generalPurposeSubagent: { enabled: false },
      toolProfile: "compact" as const,
    };
    const profile = parseHarnessProfileConfig(JSON.parse(JSON.stringify(data)));
    expect(serializeProfile(profile)).toEqual(data);
    expect(serializeProfile(EMPTY_HARNESS_PROFILE)).toEqual({});
  });

  it("refuses unknown fields, wrong types, poisoned keys and middleware instances", () => {
    expect(codeOf(() => parseHarnessProfileConfig({ extra: 1 }))).toBe("invalid_option");
    expect(codeOf(() => parseHarnessProfileConfig({ excludedTools: "execute" }))).toBe("invalid_option");
    expect(codeOf(() => parseHarnessProfileConfig(JSON.parse('{"toolDescriptionOverrides":{"__proto__":"x"}}')))).toBe("invalid_option");
    expect(codeOf(() => parseHarnessProfileConfig({ excludedMiddleware: ["FilesystemMiddleware"] }))).toBe("required_middleware");
    expect(codeOf(() => serializeProfile(getHarnessProfile("openai:gpt-5.3-codex")!))).toBe("invalid_option");
  });
});

describe("createDeepAgent({ harnessProfile })", () => {
  it("picks the Anthropic built-in for a Claude Sonnet 4.6 model: its prompt additions reach the request", async () => {
    const call = await firstRequest(new NamedModel("anthropic", "claude-sonnet-4-6"), { systemPrompt: "You help." });
    const system = systemText(call);
    expect(system).toContain("You help.\n\n<use_parallel_tool_calls>");
    expect(system).toContain("<investigate_before_answering>");
  });

  it("picks the Codex built-in for an OpenAI Codex-class model: prompt suffix and the write_todos tool", async () => {
    const call = await firstRequest(new NamedModel("openai", "gpt-5.3-codex"));
    expect(systemText(call)).toContain("## Codex-Specific Behavior");
    expect(call.tools).toContain("write_todos");
    const plain = await firstRequest(new NamedModel("openai", "gpt-4.1"));
    expect(systemText(plain)).not.toContain("Codex-Specific");
    expect(plain.tools).not.toContain("write_todos");
  });

  it("sends a profile's tool description variants and leaves its excluded tools out of the request", async () => {
    registerHarnessProfile("acme", { toolDescriptionOverrides: { ls: "List a directory." }, excludedTools: ["grep", "edit_file"] });
    const call = await firstRequest(new NamedModel("acme", "m1"));
    expect(descriptions(call).ls).toBe("List a directory.");
    expect(call.tools).not.toContain("grep");
    expect(call.tools).not.toContain("edit_file");
    expect(call.tools).toContain("read_file");
  });

  it("takes a named profile or a profile object over the model's own, and refuses an unknown name", async () => {
    const named = await firstRequest(new NamedModel("anthropic", "claude-sonnet-4-6"), { harnessProfile: "openai:gpt-5.3-codex" });
    expect(systemText(named)).toContain("Codex-Specific");
    const object = await firstRequest(new ScriptedChatModel({ script: [{ text: "ok" }] }), {
      harnessProfile: { systemPromptSuffix: "SUFFIX", excludedTools: ["task"] },
    });
    expect(systemText(object)).toContain("SUFFIX");
    expect(object.tools).not.toContain("task");
    const err = codeOf(() => createDeepAgent({ model: new ScriptedChatModel({ script: [] }), harnessProfile: "nope" }));
    expect(err).toBe("invalid_option");
  });

  it("a profile can disable the general-purpose subagent", async () => {
    const call = await firstRequest(new ScriptedChatModel({ script: [{ text: "ok" }] }), {
      harnessProfile: { generalPurposeSubagent: { enabled: false } },
      subagents: [{ name: "helper", description: "helps", systemPrompt: "h" }],
    });
    expect(descriptions(call).task).toContain("helper");
    expect(descriptions(call).task).not.toContain("general-purpose");
  });

  it("keeps the compact profile for a small window, and the compact profile can be named for a large one", async () => {
    const small = await firstRequest(new ScriptedChatModel({ script: [{ text: "ok" }] }), { summarization: { maxInputTokens: 8_000 } });
    expect(small.tools).not.toContain("compact_conversation");
    const large = await firstRequest(new ScriptedChatModel({ script: [{ text: "ok" }] }), { summarization: { maxInputTokens: 200_000 } });
    expect(large.tools).toContain("compact_conversation");
    const named = await firstRequest(new ScriptedChatModel({ script: [{ text: "ok" }] }), {
      summarization: { maxInputTokens: 200_000 },
      harnessProfile: COMPACT_PROFILE,
    });
    expect(named.tools).not.toContain("compact_conversation");
    expect(descriptions(named).ls!.length).toBeLessThan(descriptions(large).ls!.length);
  });
});
