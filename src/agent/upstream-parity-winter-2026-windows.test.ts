/**
 * Issue 42, "small windows keep their meaning": in the compact profile (a window under 16,384 tokens) the request a
 * real provider client sends still names every subagent and every skill with its description, one line each, a long
 * one cut with "…". Through the app's OpenAI-compatible client against a loopback server (provider-servers.ts),
 * reading the request the server recorded. And the window read where a server gives it (vLLM, OpenRouter, LM Studio,
 * Ollama), from the same loopback server playing each one's JSON. Chromium runs this file too
 * (upstream-parity-winter-2026-windows.browser.test.ts), against the browser tier's provider server.
 */
import { HumanMessage } from "@langchain/core/messages";
import { afterAll, describe, expect, inject, it } from "vitest";
import { COMPACT_DESCRIPTION_CHARS, compactLine } from "../context/tool-profile.ts";
import { createRemoteModel } from "../models/providers.ts";
import { probeServerWindow } from "../models/server-probe.ts";
import type { LocalServer } from "../testing/local-servers.ts";
import type { startScriptedServer as StartServer } from "../testing/provider-servers.ts";
import { serverScope, type ServerScope } from "../testing/server-scope.ts";
import { textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

/** Node starts its own server; Chromium has the browser tier's (browser-global-setup.ts). */
const PROVIDER_SERVERS = "../testing/provider-servers.ts";
let close: (() => Promise<void>) | undefined;
async function scope(): Promise<ServerScope> {
  const given = inject("providerServer") as string | undefined;
  if (given) return serverScope(given);
  const { startScriptedServer } = (await import(/* @vite-ignore */ PROVIDER_SERVERS)) as { startScriptedServer: typeof StartServer };
  const server = await startScriptedServer("openai");
  close = () => server.close();
  return serverScope(server.url);
}
afterAll(async () => close?.());

const FACT_CHECKER = "Checks each claim of a draft against its cited sources and lists the ones it cannot confirm.";
const LONG =
  "Writes the final report: gathers the notes under /notes, orders them by topic, drafts every section with its " +
  "citations, then reads the whole draft again for tone, repetition and claims that lack a source, and fixes them.";
const SKILL = "Research a topic on the web and cite every source.";
const LONG_SKILL =
  "Fill and merge PDF forms: reads the form's fields, fills them from the given data, flattens the result and " +
  "merges several forms into one file, keeping bookmarks.";

interface Row {
  name: string;
  /** The window the agent works in (summarization.maxInputTokens, as the app sets it). */
  window: number;
  /** Texts the recorded request must contain. */
  contains: string[];
  /** Texts it must not (the whole long descriptions in the compact profile). */
  lacks: string[];
}

const ROWS: Row[] = [
  {
    name: "8,192 tokens (compact): one line per subagent and skill, each with its description, long ones cut",
    window: 8_192,
    contains: [
      `- fact-checker: ${FACT_CHECKER}`,
      `- report-writer: ${compactLine(LONG)}`,
      `- web-research: ${SKILL} (/skills/web-research/SKILL.md)`,
      `- pdf: ${compactLine(LONG_SKILL)} (/skills/pdf/SKILL.md)`,
    ],
    lacks: [LONG, LONG_SKILL, "compact_conversation"],
  },
  {
    name: "131,072 tokens (full): deepagents' texts, whole descriptions",
    window: 131_072,
    contains: [`- fact-checker: ${FACT_CHECKER}`, `- report-writer: ${LONG}`, `- pdf: ${LONG_SKILL} (/skills/pdf/SKILL.md)`],
    lacks: [],
  },
];

const skillFile = (name: string, description: string) =>
  textFile(`---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n## Steps\n\nThe body of ${name}.\n`);

describe("small windows keep their meaning (issue 42)", () => {
  it("compactLine keeps a short text, cuts a long one at a word with an ellipsis", () => {
    expect(compactLine("  Checks\n claims.  ")).toBe("Checks claims.");
    const cut = compactLine(LONG);
    expect(cut.length).toBeLessThanOrEqual(COMPACT_DESCRIPTION_CHARS);
    expect(cut).toMatch(/^Writes the final report: .*\w…$/);
    expect(LONG.startsWith(cut.slice(0, -1))).toBe(true);
  });

  for (const row of ROWS) {
    it(row.name, async () => {
      const server = await scope();
      await server.script([{ text: "done" }]);
      const model = await createRemoteModel({ provider: "openai-compatible", baseUrl: server.baseUrl, model: "served-model" }, "sk-test");
      if (!model.ok) throw new Error(model.error);
      const agent = createDeepAgent({
        model: model.value,
        summarization: { maxInputTokens: row.window },
        subagents: [
          { name: "fact-checker", description: FACT_CHECKER, systemPrompt: "Check facts." },
          { name: "report-writer", description: LONG, systemPrompt: "Write." },
        ],
        skills: ["/skills/"],
      });
      await agent.invoke({
        messages: [new HumanMessage("check the draft")],
        files: { "/skills/web-research/SKILL.md": skillFile("web-research", SKILL), "/skills/pdf/SKILL.md": skillFile("pdf", LONG_SKILL) },
      });
      const chat = (await server.requests()).filter((r) => r.path.endsWith("/chat/completions"));
      expect(chat).toHaveLength(1);
      // The whole request as the provider received it: the system message and the tool definitions.
      const flat = collectStrings(chat[0]!.body).join("\n");
      for (const part of row.contains) expect(flat).toContain(part);
      for (const part of row.lacks) expect(flat).not.toContain(part);
    });
  }
});

/** Every string in a JSON value (the request's texts, unescaped). */
function collectStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(collectStrings);
  return [];
}

interface WindowRow {
  name: string;
  /** What the loopback server plays (local-servers.ts). */
  server: LocalServer;
  /** The base URL's path under the scope's root. */
  path: string;
  model: string;
  tokens: number | undefined;
}

const WINDOW_ROWS: WindowRow[] = [
  {
    name: "vLLM: /v1/models max_model_len",
    server: { kind: "vllm", model: "llama-70b", maxModelLen: 131_072 },
    path: "/v1",
    model: "llama-70b",
    tokens: 131_072,
  },
  {
    name: "OpenRouter: /api/v1/models context_length, lowered to top_provider.context_length",
    server: { kind: "openrouter", models: [{ id: "qwen/qwen3-235b-a22b", contextLength: 262_144, topProviderContextLength: 40_960 }] },
    path: "/api/v1",
    model: "qwen/qwen3-235b-a22b",
    tokens: 40_960,
  },
  {
    name: "LM Studio: loaded_context_length of the loaded model",
    server: { kind: "lmstudio", models: [{ id: "qwen2.5-7b", arch: "qwen2", maxContextLength: 32_768, loadedContextLength: 16_384 }] },
    path: "/v1",
    model: "qwen2.5-7b",
    tokens: 16_384,
  },
  {
    name: "LM Studio, not loaded: nothing (max_context_length is not what it loads with)",
    server: { kind: "lmstudio", models: [{ id: "qwen2.5-7b", arch: "qwen2", maxContextLength: 32_768 }] },
    path: "/v1",
    model: "qwen2.5-7b",
    tokens: undefined,
  },
  {
    name: "Ollama: the Modelfile's num_ctx, capped at model_info's <arch>.context_length",
    server: {
      kind: "ollama",
      version: "0.12.6",
      models: [{ name: "tiny:latest", arch: "llama", familyContextLength: 2_048, numCtx: 8_192 }],
    },
    path: "/v1",
    model: "tiny",
    tokens: 2_048,
  },
];

describe("the window where the server gives it (issue 42)", () => {
  for (const row of WINDOW_ROWS) {
    it(row.name, async () => {
      const server = await scope();
      await server.configure({ local: row.server });
      const window = await probeServerWindow({ provider: "openai-compatible", baseUrl: `${server.root}${row.path}`, model: row.model });
      expect(window?.tokens).toBe(row.tokens);
    });
  }
});
