/**
 * `web_search` through an MCP server (Node): a real SDK server on loopback whose tool is `web.search`, and the real
 * OpenAI client against the loopback provider server. The model is offered `web_search` (not the namespaced name),
 * its call reaches the MCP tool, and its approval moves with it; with no search tool, nothing is renamed.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { startMcpServer } from "../testing/mcp-servers.ts";
import { startScriptedServer } from "../testing/provider-servers.ts";
import { remoteModelFor } from "../testing/remote-model.ts";
import { connectMcpServer, mcpInterruptOn } from "./mcp-tools.ts";
import { withMcpWebSearch } from "./web-search-mcp.ts";

const closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

async function mcpTools() {
  const server = await startMcpServer();
  closers.push(server);
  const connected = await connectMcpServer({ url: server.url, name: "t" });
  if (!connected.ok) throw new Error(connected.error.message);
  closers.push(connected.value);
  const tools = [...connected.value.tools];
  return { server, run: { tools, interruptOn: mcpInterruptOn(tools) } };
}

describe("web_search through an MCP server", () => {
  it("offers the server's search tool as web_search, and the model's call reaches it", async () => {
    const { server, run } = await mcpTools();
    const searched = withMcpWebSearch(run);
    const names = searched.tools.map((t) => t.name);
    expect(names).toContain("web_search");
    expect(names).not.toContain("t__web_search");
    expect(names).toContain("t__echo");
    // web.search is read-only: it runs without asking, under its new name.
    expect(searched.interruptOn).toMatchObject({ web_search: false });
    expect(searched.interruptOn).not.toHaveProperty("t__web_search");

    const provider = await startScriptedServer("openai", [
      { toolCalls: [{ id: "s1", name: "web_search", args: { query: "deep agents" } }] },
      { text: "Found them." },
    ]);
    closers.push(provider);
    const agent = createDeepAgent({ model: await remoteModelFor(provider), tools: searched.tools, checkpointer: new MemorySaver() });
    const out = await agent.invoke({ messages: [new HumanMessage("search")] }, { configurable: { thread_id: "t" } });
    const result = (out.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
    expect(result.content).toBe("results for deep agents");
    expect(server.calls["web.search"]).toBe(1);
    const offered = provider.requests[0]!.body.tools as Array<{ function: { name: string } }>;
    expect(offered.map((t) => t.function.name)).toContain("web_search");
  });

  it("renames nothing without a search tool, or when a tool is already called web_search", async () => {
    const { run } = await mcpTools();
    const without = { tools: run.tools.filter((t) => t.mcp.tool !== "web.search"), interruptOn: {} };
    expect(withMcpWebSearch(without)).toBe(without);
    expect(withMcpWebSearch(without).tools.some((t) => t.name === "web_search")).toBe(false);
    const taken = { tools: [...run.tools, { ...run.tools[0]!, name: "web_search" }], interruptOn: {} };
    expect(withMcpWebSearch(taken)).toBe(taken);
  });
});
