/**
 * The agent in a real Web Worker in Chromium: the same entry the app loads
 * (agent.worker.ts, demo model), spawned by the test and driven through the
 * page-side client over Comlink.
 */
import { describe, expect, it } from "vitest";
import { workerPool } from "../testing/worker-pool.ts";
import { connectAgent, WorkerFailedError, type AgentClient } from "./client.ts";
import { demoAnswer, demoNotePath } from "./demo.ts";
import type { AgentEvent, TokenEvent } from "./protocol.ts";

const { spawn } = workerPool();

async function turn(client: AgentClient, threadId: string, text: string) {
  const events: AgentEvent[] = [];
  const start = await client.run(threadId, text, (e) => events.push(e));
  if (!start.ok) throw new Error(start.error.message);
  const end = await start.value.done;
  return { events, end, runId: start.value.runId };
}

describe("agent worker", () => {
  it("runs in a WorkerGlobalScope, not on the page", async () => {
    const info = await spawn().ping();
    expect(info).toMatchObject({ inWorker: true, model: "scripted", demo: true });
    expect(typeof window).toBe("object");
  });

  it("streams a turn: write_file, then the answer in several token chunks", async () => {
    const client = spawn();
    const { events, end, runId } = await turn(client, "t1", "hi there");
    expect(end).toEqual({ type: "done", runId, status: "complete" });
    expect(events.every((e) => e.runId === runId)).toBe(true);

    const tokens = events.filter((e): e is TokenEvent => e.type === "token");
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.map((t) => t.text).join("")).toBe(demoAnswer(1));

    const types = events.map((e) => e.type);
    expect(types.indexOf("tool_start")).toBeLessThan(types.indexOf("tool_end"));
    expect(types.indexOf("tool_end")).toBeLessThan(types.indexOf("token"));
    expect(types[types.length - 1]).toBe("done");
    const start = events.find((e) => e.type === "tool_start");
    expect(start).toMatchObject({ toolCall: { name: "write_file", args: { file_path: "/hello.md" } } });
    expect(events.find((e) => e.type === "tool_end")).toMatchObject({ name: "write_file", status: "success" });

    const last = events.filter((e) => e.type === "message").at(-1);
    expect(last).toMatchObject({ message: { role: "assistant", content: demoAnswer(1) } });

    const files = await client.getFiles("t1");
    expect(Object.keys(files)).toEqual([demoNotePath(1)]);
    expect(files["/hello.md"]!.content).toContain("You said: hi there");
  });

  it("keeps the thread across turns and reports its history as plain messages", async () => {
    const client = spawn();
    await turn(client, "t2", "first");
    const second = await turn(client, "t2", "second");
    expect(second.end.type).toBe("done");
    const messages = await client.getMessages("t2");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]);
    expect(messages.at(-1)!.content).toBe(demoAnswer(2));
    expect(messages[1]!.toolCalls![0]).toMatchObject({ name: "write_file" });
    expect(Object.keys(await client.getFiles("t2")).sort()).toEqual([demoNotePath(1), demoNotePath(2)].sort());
  });

  it("refuses a second run on a busy thread and empty input, as values", async () => {
    const client = spawn();
    const first = await client.run("t3", "go");
    const again = await client.run("t3", "go again");
    expect(again).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    expect(await client.run("t4", "   ")).toMatchObject({ ok: false, error: { code: "empty_input" } });
    if (first.ok) await first.value.done;
  });

  it("cancels a run mid-stream", async () => {
    const client = spawn();
    const events: AgentEvent[] = [];
    let firstToken: () => void = () => undefined;
    const streaming = new Promise<void>((resolve) => (firstToken = resolve));
    const start = await client.run("t5", "go", (e) => {
      events.push(e);
      if (e.type === "token") firstToken();
    });
    if (!start.ok) throw new Error(start.error.message);
    await streaming;
    expect(await client.cancel(start.value.runId)).toBe(true);
    expect(await start.value.done).toMatchObject({ type: "done", status: "cancelled" });
    const streamed = events
      .filter((e): e is TokenEvent => e.type === "token")
      .map((t) => t.text)
      .join("");
    expect(streamed.length).toBeLessThan(demoAnswer(1).length);
    expect(await client.cancel(start.value.runId)).toBe(false);
    // The thread is free again.
    expect((await turn(client, "t5", "again")).end).toMatchObject({ status: "complete" });
  });

  it("rejects calls instead of hanging when the worker script fails to load", async () => {
    const client = connectAgent(new Worker("/no-such-agent.worker.js", { type: "module" }));
    try {
      await expect(client.ping()).rejects.toBeInstanceOf(WorkerFailedError);
      expect(await client.failure).toMatchObject({ code: "worker_failed" });
    } finally {
      client.close();
    }
  });
});
