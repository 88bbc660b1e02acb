/**
 * What an MCP tool call costs next to a built-in one: the same agent (createDeepAgent, the code the app's worker
 * runs; a scripted model, so only tools differ) makes N calls of the loopback MCP server's `echo` tool
 * (src/testing/mcp-servers.ts: the SDK's own server, Streamable HTTP over loopback, the SDK's client) and, in the
 * same process, interleaved, N calls of the built-in `read_file` on a StateBackend. The ratio is the MCP call's
 * overhead: a JSON-RPC round trip over HTTP, the SDK's validation and the result's conversion.
 *
 * Then the same through the worker's API (createWorkerApi over fake-indexeddb, as the app's worker runs it: the
 * server added in its MCP settings, a thread on an OpenAI-compatible loopback provider server scripting the calls,
 * every step checkpointed): STEPS calls of the MCP tool versus STEPS calls of the built-in `ls`, per step.
 *
 *   node --import tsx scripts/bench/mcp.ts
 */
import "fake-indexeddb/auto";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { pathToFileURL } from "node:url";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../../src/models/scripted.ts";
import { startMcpServer, type McpTestServer } from "../../src/testing/mcp-servers.ts";
import { startScriptedServer, type ToolCallReply } from "../../src/testing/provider-servers.ts";
import { collectRun, openWorkerApi } from "../../src/testing/worker-api.ts";
import { connectMcpServer, type McpAgentTool } from "../../src/tools/mcp-tools.ts";

const CALLS = 100;
const ROUNDS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs an agent whose model calls `call(i)` CALLS times, one call a step; ms per call. */
async function perCall(
  tools: readonly McpAgentTool[],
  call: (i: number) => ScriptedTurn,
  expected: (i: number) => string,
): Promise<number> {
  const model = new ScriptedChatModel({ script: ({ call: n }) => (n < CALLS ? call(n) : { text: "done" }) });
  const agent = createDeepAgent({ model, tools: [...tools] });
  const at = "2026-01-01T00:00:00.000Z";
  const files = { "/note.txt": { content: "a note", encoding: "utf-8" as const, createdAt: at, modifiedAt: at } };
  const start = performance.now();
  const out = (await agent.invoke({ messages: [new HumanMessage("go")], files }, { recursionLimit: 10_000 })) as {
    messages: BaseMessage[];
  };
  const ms = performance.now() - start;
  const results = out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  if (results.length !== CALLS || results.some((m, i) => m.status === "error" || !m.text.includes(expected(i))))
    throw new Error(`unexpected results: ${results.find((m, i) => m.status === "error" || !m.text.includes(expected(i)))?.text}`);
  return ms / CALLS;
}

/** Through the worker's API: ms a step of a run making WORKER_CALLS calls of `call`, one a step. */
const WORKER_CALLS = 30;

async function throughWorker(mcp: McpTestServer): Promise<{ builtin: number; mcp: number }> {
  const provider = await startScriptedServer("openai", []);
  const { api } = openWorkerApi(`bench-mcp-${crypto.randomUUID()}`);
  try {
    const added = await (await api.mcpServers()).addMcpServer({ url: mcp.url, name: "bench" });
    if (!added.ok || added.value.state !== "connected") throw new Error(`the MCP server did not connect: ${JSON.stringify(added)}`);
    let run = 0;
    const perStep = async (call: (i: number) => ToolCallReply, expected: string): Promise<number> => {
      const scope = `run${++run}`;
      provider.script((_req, n) => (n < WORKER_CALLS ? { toolCalls: [call(n)] } : { text: "done" }), scope);
      const thread = `bench-${scope}`;
      await api.setThreadModel(thread, { provider: "openai-compatible", baseUrl: provider.baseUrl(scope), model: "bench" });
      const start = performance.now();
      const { done } = await collectRun((cb) => api.startRun(thread, { text: "go" }, cb));
      const end = await done;
      const ms = performance.now() - start;
      if (end.type !== "done" || end.status !== "complete") throw new Error(`the run ended ${JSON.stringify(end)}`);
      const chats = provider.requestsOf(scope).filter((r) => r.method === "POST");
      const results = ((chats.at(-1)?.body.messages ?? []) as Array<{ role: string; content: unknown }>).filter((m) => m.role === "tool");
      if (chats.length !== WORKER_CALLS + 1 || results.length !== WORKER_CALLS || !JSON.stringify(results).includes(expected))
        throw new Error(`the run's tool results are not what was asked: ${JSON.stringify(results.at(-1))}`);
      return ms / WORKER_CALLS;
    };
    const builtin = () => perStep(() => ({ name: "ls", args: { path: "/" } }), "/memories/");
    const viaMcp = () => perStep((i) => ({ name: "bench__echo", args: { text: `call ${i}` } }), `echo: call ${WORKER_CALLS - 1}`);
    const before = mcp.calls.echo ?? 0;
    await builtin();
    await viaMcp();
    const b: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      b.push(await builtin());
      m.push(await viaMcp());
    }
    const seen = (mcp.calls.echo ?? 0) - before;
    if (seen !== WORKER_CALLS * (ROUNDS + 1)) throw new Error(`the MCP server saw ${seen} calls from the worker`);
    return { builtin: median(b), mcp: median(m) };
  } finally {
    await (
      await api.mcpServers()
    )
      .listMcpServers()
      .then((servers) => Promise.all(servers.map(async (s) => (await api.mcpServers()).removeMcpServer(s.id))));
    await provider.close();
  }
}

export async function benchMcp(): Promise<string[]> {
  const server = await startMcpServer();
  const connected = await connectMcpServer({ url: server.url, name: "bench" });
  if (!connected.ok) {
    await server.close();
    throw new Error(connected.error.message);
  }
  try {
    const tools = connected.value.tools;
    const mcp = () =>
      perCall(
        tools,
        (i) => ({ toolCalls: [{ name: "bench__echo", args: { text: `call ${i}` } }] }),
        (i) => `echo: call ${i}`,
      );
    const builtin = () =>
      perCall(
        tools,
        () => ({ toolCalls: [{ name: "read_file", args: { file_path: "/note.txt" } }] }),
        () => "a note",
      );
    await builtin();
    await mcp(); // warm the JIT and the connection
    const b: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      b.push(await builtin());
      m.push(await mcp());
    }
    const [builtinMs, mcpMs] = [median(b), median(m)];
    const ratio = (mcpMs / builtinMs).toFixed(2).padStart(6);
    const worker = await throughWorker(server);
    const workerRatio = (worker.mcp / worker.builtin).toFixed(2).padStart(6);
    return [
      `MCP tool call vs built-in tool call: ${CALLS} steps of one call each, one agent, a scripted model (median of ${ROUNDS})`,
      `  built-in read_file (StateBackend)               ${builtinMs.toFixed(2).padStart(7)} ms a step`,
      `  MCP echo (loopback SDK server, Streamable HTTP) ${mcpMs.toFixed(2).padStart(7)} ms a step`,
      `  MCP / built-in time ratio                       ${ratio}x  (+${(mcpMs - builtinMs).toFixed(2)} ms a call)`,
      `  through the worker's API (loopback OpenAI-compatible provider, fake-indexeddb; ${WORKER_CALLS} steps a run):`,
      `  built-in ls                                     ${worker.builtin.toFixed(2).padStart(7)} ms a step`,
      `  MCP echo                                        ${worker.mcp.toFixed(2).padStart(7)} ms a step`,
      `  MCP / built-in time ratio                       ${workerRatio}x  (+${(worker.mcp - worker.builtin).toFixed(2)} ms a call)`,
    ];
  } finally {
    await connected.value.close();
    await server.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchMcp()) console.log(line);
}
