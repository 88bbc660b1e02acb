/**
 * The agent on LangGraph's server against the same agent in process: one 50-step scripted turn (49 tool calls, then
 * an answer, from a loopback OpenAI-compatible server) through `langgraph dev` and the SDK, and through the graph's
 * `invoke` with an in-memory checkpointer. The ratio is what the server's queue, HTTP and its storage add per turn.
 */
import { Client } from "@langchain/langgraph-sdk";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph/web";
import { createServerAgent } from "../src/server/agent.ts";
import { createServerModel } from "../src/server/model.ts";
import { freePort, startLangGraphServer } from "../src/testing/langgraph-server.ts";
import { startScriptedServer, type RecordedRequest, type ServerReply } from "../src/testing/provider-servers.ts";

const STEPS = 50;

function step(req: RecordedRequest): ServerReply {
  const done = ((req.body.messages ?? []) as Array<{ role?: string }>).filter((m) => m.role === "tool").length;
  return done < STEPS - 1 ? { toolCalls: [{ name: "ls", args: { path: "/" } }] } : { text: "Done." };
}

const input = { messages: [{ role: "user", content: "list the files fifty times" }] };

export async function benchServer(): Promise<string[]> {
  const model = await startScriptedServer("openai", step);
  try {
    const chat = await createServerModel({ provider: "openai-compatible", model: "scripted", baseUrl: model.baseUrl() });
    const agent = createServerAgent({ model: chat, checkpointer: new MemorySaver(), store: new InMemoryStore() });
    const local = async (thread: string) => {
      const t0 = performance.now();
      await agent.invoke(input, { configurable: { thread_id: thread } });
      return performance.now() - t0;
    };
    const server = await startLangGraphServer({
      kind: "dev",
      port: await freePort(),
      env: { DEEPTAB_MODEL: "openai-compatible:scripted", OPENAI_BASE_URL: model.baseUrl(), DEEPTAB_INTERRUPT_ON: "none" },
    });
    try {
      const client = new Client({ apiUrl: server.url });
      const remote = async () => {
        const thread = await client.threads.create();
        const t0 = performance.now();
        await client.runs.wait(thread.thread_id, "deeptab", { input });
        return performance.now() - t0;
      };
      await local("warm");
      await remote();
      const localMs: number[] = [];
      const remoteMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        localMs.push(await local(`run-${i}`));
        remoteMs.push(await remote());
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
      const [l, r] = [median(localMs), median(remoteMs)];
      return [
        "## The agent on LangGraph's server (scripts/bench-server.ts)",
        `${STEPS}-step scripted turn, langgraph dev through the SDK vs in process: ${r.toFixed(0)} ms vs ${l.toFixed(0)} ms ` +
          `(${(r / l).toFixed(2)}×, median of 3)`,
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await model.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchServer()) console.log(line);
