import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { BUILTIN_TOOL_NAMES } from "../core/tool-names.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../backends/output-cap.ts";
import { CHARS_PER_TOKEN, TOOL_RESULT_TOKEN_LIMIT } from "../middleware/eviction.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { RED_PIXEL_PNG, startMcpServer, type McpTestServer } from "../testing/mcp-servers.ts";
import type { McpConnection } from "./mcp-tools.ts";
import { connectMcpServer, mcpInterruptOn } from "./mcp-tools.ts";
import { MAX_TOOL_NAME, mcpToolName } from "./mcp-names.ts";

const servers: McpTestServer[] = [];
const connections: McpConnection[] = [];

async function server(options: Parameters<typeof startMcpServer>[0] = {}): Promise<McpTestServer> {
  const s = await startMcpServer(options);
  servers.push(s);
  return s;
}

async function connect(options: Parameters<typeof connectMcpServer>[0]): Promise<McpConnection> {
  const result = await connectMcpServer(options);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  connections.push(result.value);
  return result.value;
}

afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Runs an agent with `tools` whose model makes the calls of `turns`, then says "done"; the tool messages. */
async function run(connection: McpConnection, turns: ScriptedTurn[]): Promise<{ tools: ToolMessage[]; files: Record<string, unknown> }> {
  const model = new ScriptedChatModel({ script: [...turns, { text: "done" }] });
  const agent = createDeepAgent({ model, tools: connection.tools, checkpointer: new MemorySaver() });
  const out = (await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: crypto.randomUUID() } })) as {
    messages: BaseMessage[];
    files: Record<string, unknown>;
  };
  return { tools: out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)), files: out.files };
}

describe("MCP servers as tools (Node, a real SDK server on loopback)", () => {
  it("connects over Streamable HTTP and offers the tools namespaced, with schemas and annotations", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "test server" });
    expect(c.transport).toBe("http");
    expect(c.server).toBe("test_server");
    const names = c.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["test_server__echo", "test_server__image", "test_server__web_search"]));
    const echo = c.tools.find((t) => t.mcp.tool === "echo")!;
    expect(echo.description).toBe("Echoes its text.");
    expect(echo.schema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    expect(echo.mcp.annotations.readOnlyHint).toBe(true);
    expect(c.tools.find((t) => t.mcp.tool === "web.search")!.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // Read-only tools run without asking; every other tool asks.
    const interrupt = mcpInterruptOn(c.tools);
    expect(interrupt["test_server__echo"]).toBe(false);
    expect(interrupt["test_server__links"]).toBe(false);
    expect(interrupt["test_server__fail"]).toBe(true);
    expect(interrupt["test_server__die"]).toBe(true);
  });

  it("a tool annotated readOnly and destructive asks before running (destructive wins)", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const wipe = c.tools.find((t) => t.mcp.tool === "wipe")!;
    expect(wipe.mcp.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: true });
    expect(mcpInterruptOn(c.tools)[wipe.name]).toBe(true);
    // Through the harness: the call pauses for approval and the server is never reached.
    const agent = createDeepAgent({
      model: new ScriptedChatModel({ script: [{ toolCalls: [{ name: wipe.name, args: {}, id: "w1" }] }, { text: "done" }] }),
      tools: c.tools,
      interruptOn: mcpInterruptOn(c.tools),
      checkpointer: new MemorySaver(),
    });
    const out = (await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "wipe" } })) as {
      __interrupt__?: unknown[];
    };
    expect(out.__interrupt__?.length).toBe(1);
    expect(s.calls.wipe).toBeUndefined();
  });

  it("names never collide: across servers, with taken names, with built-ins, and stay under the providers' limit", () => {
    expect(BUILTIN_TOOL_NAMES.every((n) => !n.includes("__"))).toBe(true);
    const taken = new Set<string>();
    const a = mcpToolName("github", "search", taken);
    const b = mcpToolName("github", "search", taken);
    const c = mcpToolName("git hub", "search", taken);
    expect(new Set([a, b, c]).size).toBe(3);
    const long = mcpToolName("a".repeat(100), "b".repeat(100), taken);
    const long2 = mcpToolName("a".repeat(100), "b".repeat(99) + "c", taken);
    expect(long.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(long).not.toBe(long2);
    for (const n of taken) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it("two connections share taken names, so createDeepAgent accepts both servers' tools", async () => {
    const s1 = await server();
    const s2 = await server();
    const taken = new Set<string>();
    const c1 = await connect({ url: s1.url, name: "same", takenNames: taken });
    const c2 = await connect({ url: s2.url, name: "same", takenNames: taken });
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    expect(() => createDeepAgent({ model, tools: [...c1.tools, ...c2.tools] })).not.toThrow();
    expect(new Set([...c1.tools, ...c2.tools].map((t) => t.name)).size).toBe(c1.tools.length + c2.tools.length);
  });

  it("runs tools through the harness: text, image saved as a file, links, isError as an error, bad arguments refused", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const { tools, files } = await run(c, [
      {
        toolCalls: [
          { name: "t__echo", args: { text: "hi" }, id: "c1" },
          { name: "t__image", args: {}, id: "c2" },
          { name: "t__links", args: {}, id: "c3" },
          { name: "t__fail", args: {}, id: "c4" },
          { name: "t__echo", args: { txt: "typo" }, id: "c5" },
          { name: "t__web_search", args: { query: "deep agents" }, id: "c6" },
        ],
      },
    ]);
    const byId = (id: string) => tools.find((m) => m.tool_call_id === id)!;
    expect(byId("c1").content).toBe("echo: hi");
    expect(byId("c1").status).toBe("success");
    expect(byId("c2").content).toContain("here is the pixel");
    expect(byId("c2").content).toMatch(/\[image image\/png, \d+ bytes, saved at \/large_tool_results\/c2-1\.png\]/);
    const saved = files["/large_tool_results/c2-1.png"] as { content: string; encoding: string };
    expect(saved).toMatchObject({ encoding: "base64", content: RED_PIXEL_PNG });
    expect(byId("c3").content).toContain("[report.pdf](<https://example.com/report.pdf>) (application/pdf)");
    expect(byId("c3").content).toContain("the note's text");
    expect(byId("c4").status).toBe("error");
    expect(byId("c4").content).toBe("Error: the quota is used up");
    expect(byId("c5").status).toBe("error");
    expect(byId("c5").content).toContain("missing required argument 'text'");
    expect(byId("c6").content).toBe("results for deep agents");
    expect(s.calls.echo).toBe(1); // the refused call never reached the server
  });

  it("offloads a large result to /large_tool_results/ as any tool's", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const { tools, files } = await run(c, [{ toolCalls: [{ name: "t__big", args: { lines: 3_000 }, id: "big1" }] }]);
    expect(tools[0]!.content).toContain("Tool result too large");
    expect(files["/large_tool_results/big1"]).toBeDefined();
  });

  it("a text result over the shell's 1,000,000-byte output cap that fits a file is offloaded whole", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const { tools, files } = await run(c, [{ toolCalls: [{ name: "t__huge", args: { mib: 2 }, id: "h2" }] }]);
    expect(tools[0]!.content).toContain("Tool result too large, the result of this tool call h2 was saved");
    expect(String(tools[0]!.content).length).toBeLessThan(TOOL_RESULT_TOKEN_LIMIT * CHARS_PER_TOKEN);
    expect((files["/large_tool_results/h2"] as { content: string }).content).toHaveLength(2 * 1024 * 1024);
  });

  it("a 30 MiB text result (over the 10 MiB file cap) is cut to the output cap and says so; no message or file holds it", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const { tools, files } = await run(c, [{ toolCalls: [{ name: "t__huge", args: { mib: 30 }, id: "h30" }] }]);
    // Eviction offloads the cut text as any long result; the message is its stub.
    const message = String(tools[0]!.content);
    expect(message.length).toBeLessThan(TOOL_RESULT_TOKEN_LIMIT * CHARS_PER_TOKEN);
    const kept = (files["/large_tool_results/h30"] as { content: string }).content;
    expect(kept.length).toBeLessThan(DEFAULT_MAX_OUTPUT_BYTES + 1_000);
    expect(
      kept.endsWith(
        "\n[Output was truncated due to size limits]: the tool returned 30 MB; only the first 1,000,000 bytes are kept, " +
          "and the whole text was not saved (it is over the 10 MB a file may hold).",
      ),
    ).toBe(true);
    expect(JSON.stringify(files).length).toBeLessThan(2 * DEFAULT_MAX_OUTPUT_BYTES);
  });

  it("a text result over the output cap with no file to hold it is cut and says why", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const huge = c.tools.find((t) => t.mcp.tool === "huge")!;
    const out = await huge.run({ mib: 2 }, { toolCall: { id: "x", name: huge.name, args: {} }, config: {} } as never);
    const text = typeof out === "string" ? out : out.content;
    expect(text.length).toBeLessThan(DEFAULT_MAX_OUTPUT_BYTES + 1_000);
    expect(text).toContain("the whole text was not saved (this agent has no files to save it in)");
  });

  it("cancels a call that does not answer in time, and says so; the run goes on", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t", timeoutMs: 500 });
    const { tools } = await run(c, [
      { toolCalls: [{ name: "t__slow", args: {}, id: "s1" }] },
      { toolCalls: [{ name: "t__echo", args: { text: "after" }, id: "s2" }] },
    ]);
    expect(tools[0]!.status).toBe("error");
    expect(tools[0]!.content).toContain("did not answer in time; the call was cancelled");
    expect(tools[1]!.content).toBe("echo: after");
    await expect.poll(() => s.cancelled, { timeout: 30_000 }).toBe(1);
  });

  it("reopens a session the server forgot and retries the call once", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    await s.expireSessions();
    const { tools } = await run(c, [{ toolCalls: [{ name: "t__echo", args: { text: "again" }, id: "e1" }] }]);
    expect(tools[0]!.content).toBe("echo: again");
    expect(s.calls.echo).toBe(1);
  });

  it("a server that dies mid-call gives a tool error and the run goes on", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    const { tools } = await run(c, [
      { toolCalls: [{ name: "t__die", args: {}, id: "d1" }] },
      { toolCalls: [{ name: "t__echo", args: { text: "x" }, id: "d2" }] },
    ]);
    expect(tools[0]!.status).toBe("error");
    expect(tools[0]!.content).toContain("went away during the call");
    // The server's sockets were dropped but it still listens: the next call reconnects.
    expect(tools[1]!.content).toBe("echo: x");
  }, 60_000);

  it("a server that is not there: a coded error, no throw", async () => {
    const s = await server();
    const url = s.url;
    await s.close();
    servers.pop();
    const result = await connectMcpServer({ url });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("unreachable");
      expect(result.error.message).toContain("did not answer");
    }
    const bad = await connectMcpServer({ url: "ftp://example.com/mcp" });
    expect(!bad.ok && bad.error.code).toBe("invalid_url");
  });

  it("sends the bearer token; without it, 401 says to sign in again", async () => {
    const s = await server({ token: "s3cret" });
    const refused = await connectMcpServer({ url: s.url });
    expect(!refused.ok && refused.error.code).toBe("unauthorized");
    expect(!refused.ok && refused.error.message).toContain("sign in again");
    expect(!refused.ok && refused.error.message).not.toContain("s3cret");
    const c = await connect({ url: s.url, headers: { Authorization: "Bearer s3cret" } });
    expect(c.tools.length).toBeGreaterThan(0);
  });

  it("falls back to the older HTTP+SSE transport for a server that speaks only it", async () => {
    const s = await server({ legacySse: true });
    const c = await connect({ url: s.url, name: "old" });
    expect(c.transport).toBe("sse");
    const { tools } = await run(c, [{ toolCalls: [{ name: "old__echo", args: { text: "sse" }, id: "o1" }] }]);
    expect(tools[0]!.content).toBe("echo: sse");
  });

  it("after close, its tools answer with an error", async () => {
    const s = await server();
    const c = await connect({ url: s.url, name: "t" });
    await c.close();
    const { tools } = await run(c, [{ toolCalls: [{ name: "t__echo", args: { text: "x" }, id: "z1" }] }]);
    expect(tools[0]!.status).toBe("error");
    expect(tools[0]!.content).toContain("the connection was closed");
  });
});
