/**
 * The agent on LangGraph's server against the same agent in process: one 50-step scripted turn (49 tool calls, then
 * an answer, from a loopback OpenAI-compatible server) through `langgraph dev` and the SDK, and through the graph's
 * `invoke` with an in-memory checkpointer. The ratio is what the server's queue, HTTP and its storage add per turn.
 * Then a 1,000-message thread (copied to the server as the thread list's ⇄ does) opened as the page opens a server
 * thread, against the same thread opened in the tab's worker (Node, fake-indexeddb).
 */
import "fake-indexeddb/auto";
import { Client } from "@langchain/langgraph-sdk";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph/web";
import { createServerAgent } from "../../src/server/agent.ts";
import { createServerModel } from "../../src/server/model.ts";
import { freePort, startLangGraphServer } from "../../src/testing/langgraph-server.ts";
import { startScriptedServer, type RecordedRequest, type ServerReply } from "../../src/testing/provider-servers.ts";
import { openWorkerApi } from "../../src/testing/worker-api.ts";
import { connectLangGraph } from "../../src/page/langgraph-client.ts";
import type { MessageDict } from "../../src/protocol/messages.ts";

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
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const [l, r] = [median(localMs), median(remoteMs)];
      const open = await openThousand(server.url);
      return [
        "## The agent on LangGraph's server (scripts/bench/server.ts)",
        `${STEPS}-step scripted turn, langgraph dev through the SDK vs in process: ${r.toFixed(0)} ms vs ${l.toFixed(0)} ms ` +
          `(${(r / l).toFixed(2)}×, median of 3)`,
        `open a ${MESSAGES}-message thread, from the server as the page does vs from the tab's worker: ` +
          `${open.server.toFixed(0)} ms vs ${open.tab.toFixed(0)} ms (${(open.server / open.tab).toFixed(2)}×, median of 5)`,
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await model.close();
  }
}

const MESSAGES = 1_000;

/** A thread of {@link MESSAGES} messages (tool calls and results among them) on the server and in the tab; the median time to open each. */
async function openThousand(url: string): Promise<{ server: number; tab: number }> {
  const messages: MessageDict[] = [];
  for (let i = 0; messages.length < MESSAGES; i++) {
    messages.push({ type: "human", content: `question ${i}: ${"lorem ipsum ".repeat(20)}` });
    messages.push({ type: "ai", content: "", tool_calls: [{ id: `call_${i}`, name: "ls", args: { path: "/" } }] });
    messages.push({ type: "tool", content: "/a.md\n/b.md", tool_call_id: `call_${i}`, status: "success" });
    messages.push({ type: "ai", content: `answer ${i}: ${"dolor sit amet ".repeat(30)}` });
  }
  const copy = { title: "a long thread", messages: messages.slice(0, MESSAGES), files: {} };
  const connected = await connectLangGraph({ url });
  if (!connected.ok) throw new Error(connected.error.message);
  const made = await connected.value.createThreadFrom(copy, "deeptab");
  if (!made.ok) throw new Error(made.error.message);
  const { api } = openWorkerApi();
  const inTab = await api.createThreadFrom(copy);
  if (!inTab.ok) throw new Error(inTab.error.message);
  const time = async (open: () => Promise<unknown>) => {
    const ms: number[] = [];
    await open();
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await open();
      ms.push(performance.now() - t0);
    }
    return ms.sort((a, b) => a - b)[2]!;
  };
  const server = await time(async () => {
    const shown = await connected.value.thread(made.value);
    if (!shown.ok || shown.value.messages.length !== MESSAGES) throw new Error("the server thread did not open whole");
  });
  const tab = await time(async () => {
    const shown = await api.getThread(inTab.value);
    if (shown.messages.length !== MESSAGES) throw new Error("the tab thread did not open whole");
  });
  return { server, tab };
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchServer()) console.log(line);
