/**
 * deeptab's graph on LangGraph's real API server, driven through the real SDK, with a scripted OpenAI-compatible
 * model on loopback as `DEEPTAB_MODEL`: `langgraph dev` (in memory) and `npm run serve` (PostgreSQL), restarted.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contentText as textOf,
  freePort,
  scenarioScript,
  startLangGraphServer,
  testDatabaseUrl,
  type LangGraphServer,
} from "../testing/langgraph-server.ts";
import { startScriptedServer, type ScriptedServer, type ServerReply } from "../testing/provider-servers.ts";

/** Ports of this file's servers (the lg-server range); the scripted model takes an ephemeral one. */

type FileData = { content: string };
type ThreadValues = { messages?: Array<{ type: string; content: unknown; name?: string }>; files?: Record<string, FileData> };

/** Each scenario's model turn by step (tool results so far), chosen by the thread's first user message. */
const SCENARIOS: Record<string, ServerReply[]> = {
  notes: [
    { toolCalls: [{ name: "write_file", args: { file_path: "/notes.txt", content: "alpha\nbeta\ngamma\n" } }] },
    { toolCalls: [{ name: "write_todos", args: { todos: [{ content: "count the notes", status: "in_progress" }] } }] },
    { toolCalls: [{ name: "execute", args: { command: "wc -l < /notes.txt > /count.txt && grep -c a /notes.txt" } }] },
    { text: "Three notes." },
  ],
  approval: [{ toolCalls: [{ name: "execute", args: { command: "echo ran > /ran.txt" } }] }, { text: "Finished." }],
  durable: [
    { toolCalls: [{ name: "write_file", args: { file_path: "/kept.txt", content: "kept across a restart\n" } }] },
    { toolCalls: [{ name: "execute", args: { command: "cat /kept.txt > /copy.txt" } }] },
    { text: "Copied." },
  ],
};

const ask = (scenario: string, text: string) => ({ messages: [{ role: "user", content: `[${scenario}] ${text}` }] });

async function values(client: Client, thread: string): Promise<ThreadValues> {
  return (await client.threads.getState<ThreadValues>(thread)).values;
}

let model: ScriptedServer;
beforeAll(async () => {
  model = await startScriptedServer("openai", scenarioScript(SCENARIOS));
});
afterAll(async () => {
  await model?.close();
});

const modelEnv = (interruptOn: string) => ({
  DEEPTAB_MODEL: "openai-compatible:scripted",
  OPENAI_BASE_URL: model.baseUrl(),
  DEEPTAB_INTERRUPT_ON: interruptOn,
});

describe("on `langgraph dev`", () => {
  let server: LangGraphServer;
  beforeAll(async () => {
    server = await startLangGraphServer({ kind: "dev", port: await freePort(), env: modelEnv("none") });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("runs a multi-step turn with files, todos and execute through the SDK, its state in deepagents' channels", async () => {
    const client = new Client({ apiUrl: server.url });
    const assistants = await client.assistants.search({ graphId: "deeptab" });
    expect(assistants.map((a) => a.graph_id)).toContain("deeptab");
    const thread = await client.threads.create();
    const modes = new Set<string>();
    for await (const part of client.runs.stream(thread.thread_id, "deeptab", {
      input: ask("notes", "write three notes and count them"),
      streamMode: ["updates", "messages-tuple"],
    })) {
      modes.add(part.event);
    }
    expect(modes).toContain("updates");
    const state = await client.threads.getState<ThreadValues & { todos?: unknown[] }>(thread.thread_id);
    const last = state.values.messages!.at(-1)!;
    expect(textOf(last.content)).toBe("Three notes.");
    const tool = state.values.messages!.find((m) => m.type === "tool" && m.name === "execute")!;
    expect(textOf(tool.content)).toMatch(/^3\n[\s\S]*exit code 0/);
    expect(state.values.files?.["/notes.txt"]?.content).toBe("alpha\nbeta\ngamma\n");
    // The shell wrote a file the agent's tools see: one set of files.
    expect(state.values.files?.["/count.txt"]?.content.trim()).toBe("3");
    expect(state.values.todos).toEqual([{ content: "count the notes", status: "in_progress" }]);
  });
});

describe("on `npm run serve` (PostgreSQL)", () => {
  let server: LangGraphServer;
  const env = () => ({ ...modelEnv("execute"), DATABASE_URL: testDatabaseUrl() });
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    server = await startLangGraphServer({ kind: "serve", port, env: env() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("pauses at an approval in deepagents' format and takes approve and reject decisions through the SDK", async () => {
    const client = new Client({ apiUrl: server.url });
    const decide = async (decision: Record<string, unknown>) => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "deeptab", { input: ask("approval", "run it") });
      const paused = await client.threads.getState<ThreadValues>(thread.thread_id);
      const request = paused.tasks.flatMap((t) => t.interrupts).map((i) => i.value)[0];
      expect(request).toEqual({
        actionRequests: [{ name: "execute", args: { command: "echo ran > /ran.txt" }, description: expect.stringContaining("execute") }],
        reviewConfigs: [{ actionName: "execute", allowedDecisions: ["approve", "edit", "reject", "respond"] }],
      });
      expect(paused.values.files?.["/ran.txt"]).toBeUndefined();
      await client.runs.wait(thread.thread_id, "deeptab", { command: { resume: { decisions: [decision] } } });
      return values(client, thread.thread_id);
    };

    const approved = await decide({ type: "approve" });
    expect(approved.files?.["/ran.txt"]?.content).toBe("ran\n");
    expect(textOf(approved.messages!.at(-1)!.content)).toBe("Finished.");

    const rejected = await decide({ type: "reject", message: "Not on this machine." });
    expect(rejected.files?.["/ran.txt"]).toBeUndefined();
    expect(rejected.messages!.find((m) => m.type === "tool")?.content).toBe("Not on this machine.");
    expect(textOf(rejected.messages!.at(-1)!.content)).toBe("Finished.");
  });

  it("keeps a thread, its files and its pending approval across a restart of the server", async () => {
    const before = new Client({ apiUrl: server.url });
    const thread = await before.threads.create();
    await before.runs.wait(thread.thread_id, "deeptab", { input: ask("durable", "keep a file") });
    const paused = await before.threads.getState<ThreadValues>(thread.thread_id);
    expect(paused.next.length).toBeGreaterThan(0);
    // The checkpoints are in PostgreSQL, not in the API's own files.
    const saver = PostgresSaver.fromConnString(testDatabaseUrl());
    try {
      const stored = await saver.getTuple({ configurable: { thread_id: thread.thread_id, checkpoint_ns: "" } });
      expect(stored?.checkpoint.channel_values).toHaveProperty("files");
    } finally {
      await saver.end();
    }

    await server.stop();
    server = await startLangGraphServer({ kind: "serve", port, env: env() });

    const after = new Client({ apiUrl: server.url });
    const restored = await after.threads.getState<ThreadValues>(thread.thread_id);
    expect(restored.values.files?.["/kept.txt"]?.content).toBe("kept across a restart\n");
    expect(restored.tasks.flatMap((t) => t.interrupts).map((i) => i.value)).toHaveLength(1);
    await after.runs.wait(thread.thread_id, "deeptab", { command: { resume: { decisions: [{ type: "approve" }] } } });
    const done = await values(after, thread.thread_id);
    expect(done.files?.["/copy.txt"]?.content).toBe("kept across a restart\n");
    expect(textOf(done.messages!.at(-1)!.content)).toBe("Copied.");
  });
});
