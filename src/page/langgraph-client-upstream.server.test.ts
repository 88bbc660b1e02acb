/**
 * The page's LangGraph client (page/langgraph-client.ts) against a graph made with upstream npm `deepagents`
 * (src/testing/upstream-deepagents-graph.ts), on a real `langgraph dev` beside deeptab's graph, with the scripted
 * OpenAI-compatible model: the page works with any deepagents deployment (issue 19). A streamed run whose files and
 * todos come from deepagents' own `files` and `todos` channels; its human-in-the-loop pause, approved and rejected
 * in deepagents' decision format; a `task` subagent; Stop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLangGraph, type LangGraphConnection } from "./langgraph-client.ts";
import { expectOk, recorder, scenarioScript, startScriptedLangGraph, type ScriptedLangGraph } from "../testing/langgraph-server.ts";
import type { ServerReply } from "../testing/provider-servers.ts";

const SLOW = Array.from({ length: 24 }, (_, i) => `word${i} `);

/** Each scenario's model turn by step (tool results so far), chosen by the thread's (or subagent's) first user message. */
const SCENARIOS: Record<string, ServerReply[]> = {
  notes: [
    { toolCalls: [{ name: "write_file", args: { file_path: "/notes/a.txt", content: "alpha\nbeta\ngamma\n" } }] },
    { toolCalls: [{ name: "write_todos", args: { todos: [{ content: "count the notes", status: "in_progress" }] } }] },
    { chunks: ["Three ", "notes ", "written."] },
  ],
  edit: [
    { toolCalls: [{ name: "write_file", args: { file_path: "/plan.md", content: "draft\n" } }] },
    { toolCalls: [{ name: "edit_file", args: { file_path: "/plan.md", old_string: "draft", new_string: "final" } }] },
    { text: "Edited." },
  ],
  delegate: [
    { toolCalls: [{ name: "task", args: { description: "[research] What is in the box?", subagent_type: "researcher" } }] },
    { text: "The researcher says: a cat." },
  ],
  research: [{ chunks: ["A ", "cat."] }],
  slow: [{ chunks: SLOW, delayMs: 400 }],
};

let scripted: ScriptedLangGraph;
let lg: LangGraphConnection;
let assistant = "";

beforeAll(async () => {
  scripted = await startScriptedLangGraph(scenarioScript(SCENARIOS), "none", {
    graphs: { upstream: "./src/testing/upstream-deepagents-graph.ts:graph" },
  });
  lg = await expectOk(connectLangGraph({ url: scripted.server.url }));
  const assistants = await expectOk(lg.assistants());
  assistant = assistants.find((a) => a.graphId === "upstream")!.id;
}, 240_000);
afterAll(async () => {
  await scripted?.stop();
});

describe("the page's LangGraph client on a graph made with upstream deepagents", () => {
  it("lists the upstream graph's assistant beside deeptab's", async () => {
    const graphs = (await expectOk(lg.assistants())).map((a) => a.graphId);
    expect(graphs).toEqual(expect.arrayContaining(["deeptab", "upstream"]));
  });

  it("streams a run, then shows its messages, and its files and todos from deepagents' own channels", async () => {
    const threadId = crypto.randomUUID();
    const { events, onEvent } = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[notes] write notes" }, onEvent));
    expect(await run.done).toEqual({ type: "done", runId: run.runId, status: "complete" });
    expect(
      events
        .filter((e) => e.type === "token")
        .map((e) => e.text)
        .join(""),
    ).toBe("Three notes written.");
    expect(events.find((e) => e.type === "todos")).toMatchObject({ todos: [{ content: "count the notes", status: "in_progress" }] });
    // The tool results stream as they come (upstream's tool node sends them as a list of updates), not only at the end.
    const streamed = events.flatMap((e) => (e.type === "messages" ? e.messages : []));
    expect(streamed.filter((m) => m.role === "tool").map((m) => m.name)).toEqual(["write_file", "write_todos"]);

    const thread = await expectOk(lg.thread(threadId));
    expect(thread.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    expect(thread.messages.at(-1)!.content).toBe("Three notes written.");
    expect(thread.todos).toEqual([{ content: "count the notes", status: "in_progress" }]);
    expect(thread.files.filter((f) => !f.isDir).map((f) => f.path)).toEqual(["/notes/a.txt"]);
    const page = await expectOk(lg.readFile(threadId, "/notes/a.txt", 0, 10));
    expect(page).toMatchObject({ lines: ["alpha", "beta", "gamma"], binary: false });
  });

  it("pauses at deepagents' interrupt and shows it as the page's approval; approved, the edit runs", async () => {
    const threadId = crypto.randomUUID();
    const first = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[edit] plan" }, first.onEvent));
    expect(await run.done).toMatchObject({ type: "done", status: "interrupted" });
    const paused = await expectOk(lg.thread(threadId));
    expect(paused.approval).toMatchObject({
      actions: [{ name: "edit_file", args: { file_path: "/plan.md", old_string: "draft", new_string: "final" } }],
    });
    expect(first.events.find((e) => e.type === "interrupt")).toBeDefined();

    const second = recorder();
    const resumed = await expectOk(
      lg.run(threadId, assistant, { decisions: [{ type: "approve" }], approvalId: paused.approval!.id }, second.onEvent),
    );
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
    const done = await expectOk(lg.thread(threadId));
    expect(done.approval).toBeNull();
    expect(await expectOk(lg.readFile(threadId, "/plan.md", 0, 10))).toMatchObject({ lines: ["final"] });
    expect(done.messages.at(-1)!.content).toBe("Edited.");
  });

  it("a rejected edit leaves the file as it was, and the model is told", async () => {
    const threadId = crypto.randomUUID();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[edit] plan" }, () => undefined));
    expect(await run.done).toMatchObject({ type: "done", status: "interrupted" });
    const paused = await expectOk(lg.thread(threadId));
    const decisions = [{ type: "reject" as const, message: "Keep the draft." }];
    const resumed = await expectOk(lg.run(threadId, assistant, { decisions, approvalId: paused.approval!.id }, () => undefined));
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
    expect(await expectOk(lg.readFile(threadId, "/plan.md", 0, 10))).toMatchObject({ lines: ["draft"] });
    const done = await expectOk(lg.thread(threadId));
    const tool = done.messages.find((m) => m.role === "tool" && m.name === "edit_file");
    expect(String(tool?.content)).toContain("Keep the draft.");
    const asked = scripted.model.requestsOf().filter((r) => JSON.stringify(r.body).includes("[edit] plan"));
    expect(JSON.stringify(asked.at(-1)?.body)).toContain("Keep the draft.");
  });

  it("runs a task subagent: its answer returns to the parent, which answers", async () => {
    const threadId = crypto.randomUUID();
    const { events, onEvent } = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[delegate] ask the researcher" }, onEvent));
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });
    const thread = await expectOk(lg.thread(threadId));
    const task = thread.messages.find((m) => m.role === "tool" && m.name === "task");
    expect(String(task?.content)).toContain("A cat.");
    expect(thread.messages.at(-1)!.content).toBe("The researcher says: a cat.");
    const streamed = events.flatMap((e) => (e.type === "messages" ? e.messages : []));
    const taskCall = streamed.find((m) => m.toolCalls?.[0]?.name === "task")!.toolCalls![0]!;
    // The subagent's words streamed live under its task call (the page's card key), not under a server namespace.
    const nested = events.filter((e) => e.type === "token" && e.taskId);
    expect(nested.map((e) => (e.type === "token" ? e.text : "")).join("")).toBe("A cat.");
    expect(new Set(nested.map((e) => (e.type === "token" ? e.taskId : "")))).toEqual(new Set([taskCall.id]));
  });

  it("stops a run: the server's run ends cancelled before the model would have finished", async () => {
    const threadId = crypto.randomUUID();
    const { events, onEvent } = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[slow] talk" }, onEvent));
    await expect.poll(() => events.some((e) => e.type === "token"), { timeout: 60_000 }).toBe(true);
    expect(await lg.cancel(threadId, run.runId)).toEqual({ ok: true, value: null });
    expect(await run.done).toEqual({ type: "done", runId: run.runId, status: "cancelled" });
    const streamed = events
      .filter((e) => e.type === "token")
      .map((e) => e.text)
      .join("");
    expect(streamed.length).toBeLessThan(SLOW.join("").length);
    expect(await expectOk(lg.activeRun(threadId))).toBeNull();
    // The API forgets a stopped thread's values; its checkpoint still has the user's message, and the answer as far as
    // it had streamed is kept in the thread, marked stopped, as the tab keeps it.
    expect((await expectOk(lg.thread(threadId))).messages).toEqual([
      expect.objectContaining({ role: "user", content: "[slow] talk" }),
      expect.objectContaining({ role: "assistant", content: streamed, stopped: true }),
    ]);
    expect((await expectOk(lg.threads())).find((t) => t.id === threadId)).toMatchObject({ title: "[slow] talk", messageCount: 2 });
  });
});
