/**
 * Which web search a thread's model is offered, in the worker (Node, fake-indexeddb, loopback provider and MCP
 * servers): with neither the provider's own search nor a search MCP server, no `web_search` tool at all; with a
 * search MCP server added, its tool as `web_search`; with Anthropic's own search switched on for the thread, the
 * server tool, and the MCP tool keeps its namespaced name (the model gets one `web_search`, the provider's).
 */
import "fake-indexeddb/auto";
import { afterAll, describe, expect, it } from "vitest";
import { startMcpServer, type McpTestServer } from "../../testing/mcp-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import { serverToolsOf } from "../../harness/bind-tools.ts";
import { subagentModel } from "../agents/agent-run.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";

const serve = serveScripted();
const servers: McpTestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

type Tool = { name?: string; type?: string; function?: { name: string } };
const names = (body: Record<string, unknown>) => ((body.tools ?? []) as Tool[]).map((t) => t.function?.name ?? t.name ?? t.type);

async function send(api: AgentWorkerApi, thread: string) {
  const run = await collectRun((cb) => api.startRun(thread, { text: "Look it up" }, cb));
  expect(await run.done).toMatchObject({ type: "done", status: "complete" });
}

describe("the web search a thread is offered", () => {
  it("none without a search; the MCP server's as web_search; the provider's own when switched on", async () => {
    const openai = await serve("openai", []);
    const anthropic = await serve("anthropic", []);
    const { api } = openWorkerApi();
    await api.setKey("anthropic", "sk-ant-test", false, anthropic.url);
    const local = { provider: "openai-compatible" as const, model: "m", baseUrl: openai.baseUrl(), contextWindow: 128_000 };

    await api.setThreadModel("none", local);
    await send(api, "none");
    expect(names(openai.requests.at(-1)!.body).filter((n) => /search/.test(String(n)))).toEqual([]);

    const mcp = await startMcpServer();
    servers.push(mcp);
    const added = await (await api.mcpServers()).addMcpServer({ url: mcp.url, name: "finder" });
    expect(added.ok && added.value.state).toBe("connected");
    await api.setThreadModel("mcp", local);
    await send(api, "mcp");
    expect(names(openai.requests.at(-1)!.body)).toContain("web_search");
    expect(names(openai.requests.at(-1)!.body)).not.toContain("finder__web_search");

    await api.setThreadModel("native", { provider: "anthropic", model: "claude-sonnet-4-5", baseUrl: anthropic.url, webSearch: true });
    await send(api, "native");
    const offered = (anthropic.requests.at(-1)!.body.tools ?? []) as Tool[];
    expect(offered.filter((t) => t.name === "web_search")).toEqual([
      expect.objectContaining({ type: "web_search_20250305", name: "web_search" }),
    ]);
    expect(offered.map((t) => t.name)).toContain("finder__web_search");
  });
});

describe("an agent folder's subagent model", () => {
  it("keeps the thread's Web search switch where its provider has a search of its own", async () => {
    const context = { sandbox: "none" as const, key: async () => "sk-test", fetch };
    const on = { provider: "anthropic" as const, model: "claude-sonnet-4-5", webSearch: true as const };
    const tools = async (ref: Parameters<typeof subagentModel>[0], choice: typeof on | Omit<typeof on, "webSearch">) => {
      const model = await subagentModel(ref, { ...context, choice });
      if (!model.ok) throw new Error(model.error);
      return serverToolsOf(model.value).map((t) => t.type);
    };
    expect(await tools({ model: "claude-haiku-4-5" }, on)).toEqual(["web_search_20250305"]);
    expect(await tools({ provider: "openai", model: "gpt-4.1" }, on)).toEqual(["web_search"]);
    expect(await tools({ provider: "openai-compatible", model: "m", baseUrl: "http://127.0.0.1:1/v1" }, on)).toEqual([]);
    expect(await tools({ model: "claude-haiku-4-5" }, { provider: "anthropic", model: "claude-sonnet-4-5" })).toEqual([]);
  });
});
