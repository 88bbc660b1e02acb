/**
 * The app's "Tool descriptions" setting (automatic, full, compact), from the
 * settings the page saves to the tools of the request a provider receives:
 * the real worker API over fake-indexeddb and a scripted OpenAI-compatible
 * server on loopback (Node's real fetch). A small window (a llama.cpp server
 * with 4,096 tokens loaded) picks compact texts automatically, a large one
 * full texts, and the setting overrides either.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { ScriptedServer } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { ModelChoice, ToolProfileChoice } from "../../protocol/settings.ts";
import { DEFAULT_SETTINGS, sanitizeSettings } from "./settings.ts";

const serve = serveScripted();

const COMPACT_LS = "List a directory.";

const openApi = () => openWorkerApi().api;

/** Runs one turn with `profile` saved in the settings; returns the tools of the chat request. */
async function toolsWith(profile: ToolProfileChoice, choice: ModelChoice, server: ScriptedServer) {
  const api = openApi();
  expect((await api.updateSettings({ toolProfile: profile })).toolProfile).toBe(profile);
  const thread = `t-${profile}`;
  await api.setThreadModel(thread, choice);
  let finish!: (e: AgentEvent) => void;
  const done = new Promise<AgentEvent>((resolve) => (finish = resolve));
  const started = await api.startRun(thread, { text: "hi" }, (e) => {
    if (e.type === "done" || e.type === "error") finish(e);
  });
  if (!started.ok) throw new Error(started.error.message);
  const end = await done;
  expect(end, JSON.stringify(end)).toMatchObject({ type: "done", status: "complete" });
  const body = server.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.body;
  const tools = (body.tools as Array<{ function: { name: string; description: string } }>).map((t) => t.function);
  return { names: tools.map((t) => t.name), ls: tools.find((t) => t.name === "ls")!.description };
}

describe("the tool descriptions setting", () => {
  it("is automatic by default and sanitized like every setting", () => {
    expect(DEFAULT_SETTINGS.toolProfile).toBe("auto");
    expect(sanitizeSettings({ toolProfile: "compact" }).toolProfile).toBe("compact");
    expect(sanitizeSettings({ toolProfile: "tiny" }).toolProfile).toBe("auto");
  });

  it("in a 4,096-token window: compact when automatic, full when set to full", async () => {
    const server = await serve("openai", [], {
      local: { kind: "llama.cpp", model: "m.gguf", nCtx: 4_096, nCtxTrain: 32_768 },
    });
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "m" };
    const auto = await toolsWith("auto", choice, server);
    expect(auto.ls).toBe(COMPACT_LS);
    expect(auto.names).not.toContain("compact_conversation");
    const full = await toolsWith("default", choice, server);
    expect(full.ls).not.toBe(COMPACT_LS);
    expect(full.names).toContain("compact_conversation");
  });

  it("in a 128,000-token window: full when automatic, compact when set to compact", async () => {
    const server = await serve("openai");
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "m", contextWindow: 128_000 };
    const auto = await toolsWith("auto", choice, server);
    expect(auto.ls).not.toBe(COMPACT_LS);
    expect(auto.names).toContain("compact_conversation");
    const compact = await toolsWith("compact", choice, server);
    expect(compact.ls).toBe(COMPACT_LS);
    expect(compact.names).not.toContain("compact_conversation");
  });
});
