/**
 * The agent in a real Web Worker in Chromium: the same entry the app loads
 * (agent.worker.ts, demo model), spawned by the test and driven through the
 * page-side client over Comlink.
 */
import { describe, expect, it } from "vitest";
import { filesOf, messagesOf, workerPool } from "../testing/worker-pool.ts";
import type { AgentClient } from "../page/client.ts";
import { demoAnswer, demoNotePath } from "../models/demo.ts";
import type { AgentEvent, TokenEvent } from "../protocol/events.ts";

const { spawn, connect } = workerPool();

async function turn(client: AgentClient, threadId: string, text: string) {
  const events: AgentEvent[] = [];
  const start = await client.run(threadId, { text: text }, (e) => events.push(e));
  if (!start.ok) throw new Error(start.error.message);
  const end = await start.value.done;
  return { events, end, runId: start.value.runId };
}

describe("agent worker", () => {
  it("runs in a WorkerGlobalScope, not on the page", async () => {
    const info = await spawn().ping();
    expect(info).toMatchObject({ inWorker: true });
    expect(typeof window).toBe("object");
  });

  it("where IndexedDB refuses to open, keeps threads in memory: a turn runs and its thread reads back", async () => {
    const client = connect(new Worker(new URL("../testing/refused-storage-worker.ts", import.meta.url), { type: "module" }));
    expect(await client.ping()).toMatchObject({ inWorker: true, storage: "memory" });
    const { end, runId } = await turn(client, "m1", "hi there");
    expect(end).toEqual({ type: "done", runId, status: "complete" });
    expect((await messagesOf(client, "m1")).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect((await filesOf(client, "m1"))["/hello.md"]!.content).toContain("You said: hi there");
    expect((await client.listThreads()).map((t) => t.id)).toEqual(["m1"]);
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
    expect(types[types.length - 1]).toBe("done");
    const sent = events.flatMap((e) => (e.type === "messages" ? e.messages : []));
    // A tool result is sent as soon as its call finishes, then again with its step's update: one message, by id.
    expect(sent.map((m) => m.role)).toEqual(["assistant", "tool", "tool", "assistant"]);
    expect(sent[1]!.id).toBeTruthy();
    expect(sent[2]).toEqual(sent[1]);
    const messages = sent.filter((m, i) => !(m.role === "tool" && sent.findIndex((o) => o.id === m.id) < i));
    expect(messages.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
    expect(messages[0]!.toolCalls![0]).toMatchObject({ name: "write_file", args: { file_path: "/hello.md" } });
    expect(messages[1]).toMatchObject({ name: "write_file", status: "success" });
    expect(types.indexOf("token")).toBeGreaterThan(types.indexOf("messages"));
    expect(messages[2]).toMatchObject({ role: "assistant", content: demoAnswer(1) });

    const files = await filesOf(client, "t1");
    expect(Object.keys(files)).toEqual([demoNotePath(1)]);
    expect(files["/hello.md"]!.content).toContain("You said: hi there");
  });

  it("keeps the thread across turns and reports its history as plain messages", async () => {
    const client = spawn();
    await turn(client, "t2", "first");
    const second = await turn(client, "t2", "second");
    expect(second.end.type).toBe("done");
    const messages = await messagesOf(client, "t2");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]);
    expect(messages.at(-1)!.content).toBe(demoAnswer(2));
    expect(messages[1]!.toolCalls![0]).toMatchObject({ name: "write_file" });
    expect(Object.keys(await filesOf(client, "t2")).sort()).toEqual([demoNotePath(1), demoNotePath(2)].sort());
  });

  it("refuses a second run on a busy thread and empty input, as values", async () => {
    const client = spawn();
    const first = await client.run("t3", { text: "go" });
    const again = await client.run("t3", { text: "go again" });
    expect(again).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    expect(await client.run("t4", { text: "   " })).toMatchObject({ ok: false, error: { code: "empty_input" } });
    if (first.ok) await first.value.done;
  });

  it("cancels a run mid-stream", async () => {
    const client = spawn();
    const events: AgentEvent[] = [];
    let firstToken: () => void = () => undefined;
    const streaming = new Promise<void>((resolve) => (firstToken = resolve));
    const start = await client.run("t5", { text: "go" }, (e) => {
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

  // The first command starts the offline shell's own worker: seconds on a loaded machine's dev server.
  it("runs execute in the offline shell and read_file on the file the command wrote (IndexedDB workspace)", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    expect(await client.sandboxStatus()).toMatchObject({ active: "shell" });
    const { events, end } = await turn(client, "t-shell", "$ seq 3 | sort -r && echo from-shell > /out.txt");
    expect(end).toMatchObject({ status: "complete" });
    expect(events.filter((e) => e.type === "tool_output").map((e) => (e.type === "tool_output" ? e.chunk : ""))).toEqual(["3\n2\n1\n"]);
    const messages = await messagesOf(client, "t-shell");
    const calls = messages.flatMap((m) => m.toolCalls ?? []).map((c) => c.name);
    expect(calls).toEqual(["execute", "read_file"]);
    const results = messages.filter((m) => m.role === "tool");
    expect(results[0]!.content).toContain("[Command succeeded with exit code 0]");
    expect(results[1]!.content).toContain("from-shell");
    expect((await filesOf(client, "t-shell"))["/out.txt"]).toEqual({ content: "from-shell" });
    // With approvals on (the default), execute waits and shows the command.
    await client.updateSettings({ approveExecute: true });
    const paused = await turn(client, "t-shell", "$ echo again");
    expect(paused.end).toMatchObject({ status: "interrupted" });
    expect((await client.getThread("t-shell")).approval?.actions[0]).toMatchObject({ name: "execute", args: { command: "echo again" } });
  }, 60_000);

  it("rejects calls instead of hanging when the worker script fails to load", async () => {
    const client = connect(new Worker("/no-such-agent.worker.js", { type: "module" }));
    await expect(client.ping()).rejects.toMatchObject({ name: "WorkerFailedError", code: "worker_failed" });
    expect(await client.failure).toMatchObject({ code: "worker_failed" });
  });
});
