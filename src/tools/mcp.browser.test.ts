import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { connectMcpServer, type McpConnection } from "./mcp-tools.ts";

const servers = inject("mcpServers");
const connections: McpConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

async function connect(options: Parameters<typeof connectMcpServer>[0]): Promise<McpConnection> {
  const result = await connectMcpServer(options);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  connections.push(result.value);
  return result.value;
}

async function toolMessages(connection: McpConnection, turns: ScriptedTurn[]): Promise<ToolMessage[]> {
  const model = new ScriptedChatModel({ script: [...turns, { text: "done" }] });
  const agent = createDeepAgent({ model, tools: connection.tools, checkpointer: new MemorySaver() });
  const out = (await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: crypto.randomUUID() } })) as {
    messages: BaseMessage[];
  };
  return out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

describe("MCP servers from a page (Chromium, cross-origin loopback SDK servers)", () => {
  it("connects over Streamable HTTP across origins and runs text, image and isError tools through the harness", async () => {
    const c = await connect({ url: servers.cors, name: "web" });
    expect(c.transport).toBe("http");
    const tools = await toolMessages(c, [
      {
        toolCalls: [
          { name: "web__echo", args: { text: "from the tab" }, id: "b1" },
          { name: "web__image", args: {}, id: "b2" },
          { name: "web__fail", args: {}, id: "b3" },
        ],
      },
    ]);
    expect(tools.map((m) => [m.tool_call_id, m.status])).toEqual([
      ["b1", "success"],
      ["b2", "success"],
      ["b3", "error"],
    ]);
    expect(tools[0]!.content).toBe("echo: from the tab");
    expect(tools[1]!.content).toMatch(/saved at \/large_tool_results\/b2-1\.png/);
    expect(tools[2]!.content).toBe("Error: the quota is used up");
  });

  it("a server without CORS headers: the error names CORS and what the server must send", async () => {
    // This page is cross-origin isolated (require-corp), as the app is: an opaque request reaches only a server that
    // sends Cross-Origin-Resource-Policy, so only then can a refused connection and a CORS refusal be told apart.
    const told = await connectMcpServer({ url: servers.noCorsCorp });
    const untold = await connectMcpServer({ url: servers.noCors });
    expect([!told.ok && told.error.code, !untold.ok && untold.error.code]).toEqual(["cors", "unreachable"]);
    for (const result of [told, untold]) {
      if (result.ok) continue;
      expect(result.error.message).toContain("(CORS)");
      expect(result.error.message).toContain(`Access-Control-Allow-Origin: ${location.origin}`);
      expect(result.error.message).toContain("Access-Control-Expose-Headers: Mcp-Session-Id");
    }
    expect(!told.ok && told.error.message).toContain("does not allow this page to read its answers (CORS)");
    expect(!untold.ok && untold.error.message).toContain("it is not running at that URL, or it does not allow this page's origin (CORS)");
  });

  it("a server that allows the origin but does not expose Mcp-Session-Id: the error says so", async () => {
    const result = await connectMcpServer({ url: servers.noExpose });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("cors");
    expect(result.error.message).toContain("Mcp-Session-Id is not exposed to the page");
  });

  it("a server that is not running: unreachable", async () => {
    const result = await connectMcpServer({ url: "http://127.0.0.1:9/mcp" });
    expect(!result.ok && result.error.code).toBe("unreachable");
  });

  it("falls back to HTTP+SSE for a server that speaks only it", async () => {
    const c = await connect({ url: servers.legacy, name: "old" });
    expect(c.transport).toBe("sse");
    const tools = await toolMessages(c, [{ toolCalls: [{ name: "old__echo", args: { text: "sse" }, id: "l1" }] }]);
    expect(tools[0]!.content).toBe("echo: sse");
  });

  it("a tool that does not answer in time is cancelled; a server gone mid-call is a tool error; the run goes on", async () => {
    const c = await connect({ url: servers.dying, name: "d", timeoutMs: 1_000 });
    const tools = await toolMessages(c, [
      { toolCalls: [{ name: "d__slow", args: {}, id: "t1" }] },
      { toolCalls: [{ name: "d__die", args: {}, id: "t2" }] },
      { toolCalls: [{ name: "d__echo", args: { text: "still here" }, id: "t3" }] },
    ]);
    expect(tools[0]!.content).toContain("did not answer in time; the call was cancelled");
    expect(tools[1]!.status).toBe("error");
    expect(tools[1]!.content).toContain("went away during the call");
    expect(tools[2]!.content).toBe("echo: still here");
  });
});
