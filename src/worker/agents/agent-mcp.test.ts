/**
 * An agent folder's own MCP servers in the worker (Node, fake-indexeddb, a loopback MCP server and a scripted
 * OpenAI-compatible server): until the person adds the server, the agent runs without its tools (its lists naming
 * them are not an error); once added under the agent's name, the tools are offered as the folder lists them, and the
 * folder's `interrupt_on` for one (a read-only tool the app would run without asking) makes it ask first.
 */
import "fake-indexeddb/auto";
import { afterAll, describe, expect, it } from "vitest";
import { startMcpServer, type McpTestServer } from "../../testing/mcp-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi, storeFolderAgent } from "../../testing/worker-api.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";

const serve = serveScripted();
const servers: McpTestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

type Chat = { tools?: Array<{ function: { name: string } }> };

async function send(api: AgentWorkerApi, thread: string, text: string) {
  const run = await collectRun((cb) => api.startRun(thread, { text }, cb));
  return run.done;
}

describe("an agent folder's MCP servers", () => {
  it("runs without the server's tools until the person adds it; then offers them and asks first as the folder says", async () => {
    const mcp = await startMcpServer();
    servers.push(mcp);
    const model = await serve("openai", []);
    const { api } = openWorkerApi();
    const yaml = [
      "mcp_servers:",
      `  - { name: docs-hub, url: "${mcp.url}" }`,
      "tools: [read_file, docs-hub__echo]",
      "interrupt_on:",
      "  docs-hub__echo: true",
      "",
    ].join("\n");
    const agentId = await storeFolderAgent(api, { "AGENTS.md": "Use the docs.", "agent.yaml": yaml });
    const choice = { provider: "openai-compatible" as const, model: "m", baseUrl: model.baseUrl(), contextWindow: 128_000 };
    const lastTools = () =>
      ((model.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!.body as Chat).tools ?? []).map((t) => t.function.name);

    // Not added: the agent runs, without the server's tool.
    for (const thread of ["a", "b"]) {
      const set = await api.setThreadAgent(thread, agentId);
      if (!set.ok) throw new Error(set.error.message);
      await api.setThreadModel(thread, choice);
    }
    model.script([{ text: "No docs here." }]);
    expect(await send(api, "a", "Look it up")).toMatchObject({ type: "done", status: "complete" });
    expect(lastTools()).toContain("read_file");
    expect(lastTools()).not.toContain("docs-hub__echo");
    expect(mcp.calls.echo ?? 0).toBe(0);

    // Added under the agent's name (the person's consent): offered, and the folder's rule asks before it.
    const added = await (await api.mcpServers()).addMcpServer({ url: mcp.url, name: "docs-hub" });
    expect(added.ok && added.value.state).toBe("connected");
    model.script([{ toolCalls: [{ name: "docs-hub__echo", args: { text: "hello" } }] }, { text: "Echoed." }]);
    expect(await send(api, "b", "Look it up")).toMatchObject({ type: "done", status: "interrupted" });
    expect(lastTools()).toEqual(expect.arrayContaining(["read_file", "docs-hub__echo"]));
    expect(mcp.calls.echo ?? 0).toBe(0);
    const view = await api.getThread("b");
    expect(view.approval?.actions.map((a) => a.name)).toEqual(["docs-hub__echo"]);
  });
});
