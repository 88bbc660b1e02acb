/**
 * The worker over a local server that says what it loaded (llama.cpp's
 * server on loopback, Node's real fetch): the window the settings show, the
 * window of a thread's view and the window its agent is built with (which
 * picks the tool profile, seen in the request) all follow the rule of
 * models/server-window.ts: the loaded context, lowered but never raised by
 * the user's setting.
 */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import type { ScriptedServer } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import type { createWorkerApi } from "../app.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { ModelChoice } from "../../protocol/settings.ts";
import { LOCAL_SERVER_WINDOW } from "../../models/catalog.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";

const serve = serveScripted();

const openApi = () => openWorkerApi().api;

async function turn(api: ReturnType<typeof createWorkerApi>, threadId: string): Promise<void> {
  let finish!: (e: AgentEvent) => void;
  const done = new Promise<AgentEvent>((resolve) => (finish = resolve));
  const started = await api.startRun(threadId, { text: "hi" }, (e) => {
    if (e.type === "done" || e.type === "error") finish(e);
  });
  if (!started.ok) throw new Error(started.error.message);
  const end = await done;
  expect(end, JSON.stringify(end)).toMatchObject({ type: "done", status: "complete" });
}

const toolNames = (s: ScriptedServer) =>
  (s.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.body.tools as Array<{ function: { name: string } }>).map(
    (t) => t.function.name,
  );

describe("a local server's window in the worker", () => {
  it("the server's 4,096 loaded tokens win over a larger setting; a smaller setting lowers them", async () => {
    const server = await serve("openai", [], {
      local: { kind: "llama.cpp", model: "qwen.gguf", nCtx: 4_096, nCtxTrain: 32_768 },
    });
    const api = openApi();
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "qwen" };
    expect(await api.defaultWindow(choice)).toBe(4_096);

    await api.setThreadModel("big", { ...choice, contextWindow: 32_768 });
    expect((await api.getThread("big")).window).toBe(4_096);
    await turn(api, "big");
    // 4,096 tokens is a small window: the compact tool profile (no compact_conversation).
    expect(toolNames(server)).toContain("read_file");
    expect(toolNames(server)).not.toContain("compact_conversation");

    await api.setThreadModel("small", { ...choice, contextWindow: 2_048 });
    expect((await api.getThread("small")).window).toBe(2_048);
    // The server was asked once for this base URL and model.
    expect(server.requests.filter((r) => r.path === "/props")).toHaveLength(1);
  });

  it("a server that cannot say takes the user's setting, else LOCAL_SERVER_WINDOW", async () => {
    const server = await serve("openai");
    const api = openApi();
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "gpt-4o" };
    // No default to show (the settings say the server did not tell); the thread works in LOCAL_SERVER_WINDOW, marked assumed.
    expect(await api.defaultWindow(choice)).toBeUndefined();
    await api.setThreadModel("t", choice);
    expect(await api.getThread("t")).toMatchObject({ window: LOCAL_SERVER_WINDOW, windowAssumed: true });
    await api.setThreadModel("t", { ...choice, contextWindow: 32_768 });
    expect((await api.getThread("t")).window).toBe(32_768);
    await turn(api, "t");
    expect(toolNames(server)).toContain("compact_conversation");
  });

  it("vLLM behind a key: the worker asks /v1/models with the key set for it, and a 131,072-token window gets the full texts", async () => {
    const server = await serve("openai", [], { local: { kind: "vllm", model: "llama-70b", maxModelLen: 131_072 }, requireKey: "sk-vllm" });
    const api = openApi();
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "llama-70b" };
    await api.setKey("openai-compatible", "sk-vllm", false, server.baseUrl());
    expect(await api.defaultWindow(choice)).toBe(131_072);
    await api.setThreadModel("t", choice);
    const view = await api.getThread("t");
    expect(view.window).toBe(131_072);
    expect(view.windowAssumed).toBeUndefined();
    await turn(api, "t");
    expect(toolNames(server)).toContain("compact_conversation");
  });

  it("a later worker session takes the window the server said before, asks once in the background, then uses its answer", async () => {
    const local = { kind: "llama.cpp", model: "qwen.gguf", nCtx: 4_096, nCtxTrain: 32_768 } as const;
    const server = await serve("openai", [], { local });
    const props = () => server.requests.filter((r) => r.path === "/props").length;
    const choice: ModelChoice = { provider: "openai-compatible", baseUrl: server.baseUrl(), model: "qwen" };
    const { api, db } = openWorkerApi();
    await api.setThreadModel("t", choice);
    expect((await api.getThread("t")).window).toBe(4_096);
    expect(props()).toBe(1);

    // The server restarts with a smaller context; a new worker (a reload) over the same storage.
    server.configure({ local: { ...local, nCtx: 2_048 } });
    const next = openWorkerApi(db).api;
    // The first view does not wait for the server: it shows what the server said last time.
    expect((await next.getThread("t")).window).toBe(4_096);
    await vi.waitFor(async () => expect((await next.getThread("t")).window).toBe(2_048), { timeout: 10_000 });
    await turn(next, "t");
    expect(props()).toBe(2);
    expect((await openWorkerApi(db).api.getThread("t")).window).toBe(2_048);
  });
});
