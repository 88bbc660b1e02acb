/**
 * One decision of a choice's context window: an OpenAI-compatible server's
 * loaded context, which the user may lower but not raise (else the user's,
 * else LOCAL_SERVER_WINDOW, marked assumed); otherwise what the user set, the
 * in-tab engine's default, the Prompt API's, deeptab's table;
 * and the agent a run builds is sized by the same value the meter shows.
 */
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import type { PromptApiPort } from "../../models/chrome-ai.ts";
import { LOCAL_SERVER_WINDOW, type ModelChoice } from "../../models/providers.ts";
import { StateBackend } from "../../backends/state.ts";
import { buildAgent, type AgentDeps } from "../runs/agents.ts";
import { createLocalModels, DEFAULT_LOCAL_CONTEXT } from "./local-models.ts";
import { modelWindow, type WindowSources } from "./windows.ts";

const silent: WindowSources = { serverWindow: async () => undefined };
const server = (tokens: number, source: "loaded" | "default" = "loaded"): WindowSources => ({
  serverWindow: async () => ({ tokens, source }),
});

describe("modelWindow", () => {
  it("takes the window the user set, except above a local server's loaded context", async () => {
    const local = (contextWindow: number): ModelChoice => ({
      provider: "openai-compatible",
      model: "m",
      baseUrl: "http://x/v1",
      contextWindow,
    });
    expect(await modelWindow(local(4_096), server(32_768))).toEqual({ tokens: 4_096 });
    expect(await modelWindow(local(65_536), server(32_768))).toEqual({ tokens: 32_768 });
    expect(await modelWindow(local(65_536), server(4_096, "default"))).toEqual({ tokens: 65_536 });
    expect(await modelWindow(local(65_536), silent)).toEqual({ tokens: 65_536 });
    expect(await modelWindow({ provider: "openai", model: "gpt-4.1", contextWindow: 20_000 }, silent)).toEqual({ tokens: 20_000 });
  });

  it("OpenAI-compatible: the server's window, else LOCAL_SERVER_WINDOW marked assumed", async () => {
    const choice: ModelChoice = { provider: "openai-compatible", model: "qwen", baseUrl: "http://x/v1" };
    expect(await modelWindow(choice, server(32_768))).toEqual({ tokens: 32_768 });
    expect(await modelWindow(choice, server(4_096, "default"))).toEqual({ tokens: 4_096 });
    expect(await modelWindow(choice, silent)).toEqual({ tokens: LOCAL_SERVER_WINDOW, assumed: true });
  });

  it("in the tab: the engine's default context; Chrome: the Prompt API's; OpenAI and Anthropic: deeptab's table", async () => {
    expect(await modelWindow({ provider: "wllama", model: "tiny" }, silent)).toEqual({ tokens: DEFAULT_LOCAL_CONTEXT });
    const port = { contextWindow: async () => 6_144 } as PromptApiPort;
    expect(await modelWindow({ provider: "chrome", model: "gemini-nano" }, { ...silent, promptApi: () => port })).toEqual({
      tokens: 6_144,
    });
    expect(await modelWindow({ provider: "chrome", model: "gemini-nano" }, silent)).toEqual({ tokens: undefined });
    expect((await modelWindow({ provider: "openai", model: "gpt-4.1" }, silent)).tokens).toBeGreaterThan(100_000);
    expect(await modelWindow({ provider: "anthropic", model: "not-a-known-model" }, silent)).toEqual({ tokens: undefined });
  });
});

describe("the agent a run builds", () => {
  const deps = (sources: WindowSources): AgentDeps => ({
    checkpointer: new MemorySaver(),
    backend: () => (rt) => new StateBackend(rt),
    key: async () => "sk-test",
    local: createLocalModels(),
    promptApi: () => sources.promptApi?.(),
    fetch: () => Promise.reject(new Error("no network in this test")),
    serverWindow: sources.serverWindow,
  });

  it("is sized by the window the meter shows, for every provider the worker builds from a choice", async () => {
    const port = { contextWindow: async () => 6_144 } as PromptApiPort;
    const cases: Array<[ModelChoice, WindowSources]> = [
      [{ provider: "openai-compatible", model: "qwen", baseUrl: "http://127.0.0.1:9/v1" }, silent],
      [{ provider: "openai-compatible", model: "qwen", baseUrl: "http://127.0.0.1:9/v1" }, server(32_768)],
      [{ provider: "openai-compatible", model: "qwen", baseUrl: "http://127.0.0.1:9/v1", contextWindow: 2_048 }, server(32_768)],
      [{ provider: "openai-compatible", model: "qwen", baseUrl: "http://127.0.0.1:9/v1", contextWindow: 65_536 }, server(32_768)],
      [{ provider: "openai", model: "gpt-4.1" }, silent],
      [{ provider: "anthropic", model: "claude-sonnet-4-5", contextWindow: 50_000 }, silent],
      [
        { provider: "chrome", model: "gemini-nano" },
        { ...silent, promptApi: () => port },
      ],
    ];
    for (const [choice, sources] of cases) {
      const built = await buildAgent({ choice, sandbox: "none", approveExecute: false }, deps(sources));
      if (!built.ok) throw new Error(built.error);
      expect(built.value.window, JSON.stringify(choice)).toBe((await modelWindow(choice, sources)).tokens);
    }
  });
});
