/**
 * Moving a thread between the tab and a LangGraph server (Node: the tab's real worker API over fake-indexeddb with
 * the demo model; a real `langgraph dev` on loopback serving deeptab's graph with a scripted OpenAI-compatible model).
 * A tab thread copied to the server is a server thread whose next run sends the model the whole earlier conversation
 * and reads its files; a server thread copied into the tab opens there with its messages and files and runs on; a
 * copy the tab cannot read is refused with its problem and nothing is stored.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentText, startScriptedLangGraph, type ScriptedLangGraph } from "../testing/langgraph-server.ts";
import type { RecordedRequest, ServerReply } from "../testing/provider-servers.ts";
import { collectRun, openWorkerApi } from "../testing/worker-api.ts";
import { connectLangGraph, type LangGraphConnection } from "./langgraph-client.ts";
import type { AgentWorkerApi } from "../protocol/worker-api.ts";
import type { ThreadCopy } from "../protocol/threads.ts";

type Message = { role?: string; content?: unknown };

/** The server's model: "[recall]" answers with what the conversation held before; "[note]" writes a file. */
function script(req: RecordedRequest): ServerReply | undefined {
  const messages = (req.body.messages ?? []) as Message[];
  const last = messages.at(-1);
  const said = contentText(messages.filter((m) => m.role === "user").at(-1)?.content);
  if (last?.role === "tool") return { text: "Noted on the server." };
  if (said.includes("[recall]")) {
    const earlier = messages.filter((m) => m.role === "user" || m.role === "assistant").length;
    return { text: `I see ${earlier} earlier messages.` };
  }
  if (said.includes("[note]"))
    return { toolCalls: [{ name: "write_file", args: { file_path: "/notes/server.md", content: "written on the server\n" } }] };
  return undefined;
}

let lg: ScriptedLangGraph;
let server: LangGraphConnection;
beforeAll(async () => {
  lg = await startScriptedLangGraph(script);
  const connected = await connectLangGraph({ url: lg.server.url });
  if (!connected.ok) throw new Error(connected.error.message);
  server = connected.value;
});
afterAll(async () => {
  await lg?.stop();
});

async function tabTurn(api: AgentWorkerApi, threadId: string, text: string) {
  const run = await collectRun((cb) => api.startRun(threadId, { text }, cb));
  const end = await run.done;
  if (end.type !== "done") throw new Error(`the run ended with ${JSON.stringify(end)}`);
}

async function serverTurn(threadId: string, text: string) {
  const started = await server.run(threadId, "deeptab", { text }, () => undefined);
  if (!started.ok) throw new Error(started.error.message);
  const end = await started.value.done;
  if (end.type !== "done") throw new Error(`the server run ended with ${JSON.stringify(end)}`);
}

describe("moving a thread between the tab and a LangGraph server", () => {
  it("a tab thread copied to the server runs on there with its history and files", async () => {
    const { api } = openWorkerApi();
    await tabTurn(api, "t1", "hello");
    const inTab = await api.getThread("t1");
    expect(inTab.messages.map((m) => m.role)).toContain("tool");
    const copy = await api.copyThread("t1");
    if (!copy.ok) throw new Error(copy.error.message);
    expect(Object.keys(copy.value.files)).toContain("/hello.md");
    expect(copy.value.messages[0]).toMatchObject({ type: "human", content: "hello" });

    const created = await server.createThreadFrom(copy.value, "deeptab");
    if (!created.ok) throw new Error(created.error.message);
    const there = await server.thread(created.value);
    if (!there.ok) throw new Error(there.error.message);
    expect(there.value.messages.map((m) => [m.role, m.content])).toEqual(inTab.messages.map((m) => [m.role, m.content]));
    expect(there.value.files.map((f) => f.path)).toContain("/hello.md");
    const listed = await server.threads();
    expect(listed.ok && listed.value.find((t) => t.id === created.value)?.title).toBe("hello");

    // The next run on the server: the model gets the whole conversation, and the agent reads the copied file.
    await serverTurn(created.value, "[recall] what did we do?");
    const after = await server.thread(created.value);
    if (!after.ok) throw new Error(after.error.message);
    // The tab's user and assistant messages (the tool call's included), and the new question.
    const sent = inTab.messages.filter((m) => m.role === "user" || m.role === "assistant").length + 1;
    expect(after.value.messages.at(-1)?.content).toBe(`I see ${sent} earlier messages.`);
    const file = await server.readFile(created.value, "/hello.md", 0, 100);
    const original = await api.readFile("t1", "/hello.md", 0, 100);
    expect(file.ok && original.ok && file.value.lines).toEqual(original.ok ? original.value.lines : null);
  }, 120_000);

  it("a server thread copied into the tab opens with its messages and files, and runs on in the tab", async () => {
    const { api } = openWorkerApi();
    const created = await server.createThreadFrom({ title: "", messages: [], files: {} }, "deeptab");
    if (!created.ok) throw new Error(created.error.message);
    await serverTurn(created.value, "[note] keep a note");
    const copy = await server.copy(created.value);
    if (!copy.ok) throw new Error(copy.error.message);

    const made = await api.createThreadFrom(copy.value);
    if (!made.ok) throw new Error(made.error.message);
    const view = await api.getThread(made.value);
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(view.messages.at(-1)?.content).toBe("Noted on the server.");
    const note = await api.readFile(made.value, "/notes/server.md", 0, 10);
    expect(note.ok && note.value.lines).toEqual(["written on the server"]);
    expect((await api.listThreads()).find((t) => t.id === made.value)?.title).toBe("[note] keep a note");

    // The demo model runs on in the tab, after the copied history.
    await tabTurn(api, made.value, "hello");
    expect((await api.getThread(made.value)).messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "[note] keep a note",
      "hello",
    ]);
  }, 120_000);

  it("a copy the tab cannot read is refused with its problem, and nothing is stored", async () => {
    const { api } = openWorkerApi();
    const before = await api.listThreads();
    const broken: ThreadCopy[] = [
      { title: "x", messages: [{ type: "tool", content: "result", tool_call_id: "call_9" }], files: {} },
      { title: "x", messages: [{ type: "ai", content: "hi", tool_calls: [{ id: "", name: "ls", args: {} }] }], files: {} },
      { title: "x", messages: [], files: { "/../etc/passwd": { content: "x", encoding: "utf-8", createdAt: "", modifiedAt: "" } } },
      { title: "x", messages: "nope" as unknown as ThreadCopy["messages"], files: {} },
    ];
    const problems = [];
    for (const copy of broken) {
      const made = await api.createThreadFrom(copy);
      expect(made.ok).toBe(false);
      if (!made.ok) problems.push([made.error.code, made.error.message]);
    }
    expect(problems.map(([code]) => code)).toEqual(["invalid_copy", "invalid_copy", "invalid_copy", "invalid_copy"]);
    expect(problems.map(([, message]) => message)).toEqual([
      expect.stringContaining("answers tool call call_9, which no earlier message made"),
      expect.stringContaining("tool call 1 has no string id"),
      expect.stringContaining("has no absolute, normalized path"),
      expect.stringContaining("the messages are not a list"),
    ]);
    expect(await api.listThreads()).toEqual(before);
  }, 60_000);
});
