import { describe, expect, it } from "vitest";
import {
  approvalFromInterrupts,
  eventsFromPart,
  filePage,
  filesFromState,
  messagesFromState,
  subagentNester,
  todosFromState,
} from "./langgraph-state.ts";

describe("a LangGraph thread's state in the page's shapes", () => {
  it("maps serialized messages, keeping tool calls, tool results and usage, and skips what is not a message", () => {
    const messages = messagesFromState([
      { type: "human", content: "hi", id: "h1" },
      {
        type: "ai",
        content: [{ type: "text", text: "Let me " }, { type: "image_url" }, { type: "text", text: "look." }],
        id: "a1",
        tool_calls: [{ id: "call_0", name: "ls", args: { path: "/" } }],
        usage_metadata: { input_tokens: 10, output_tokens: 3 },
      },
      { type: "tool", content: "a.txt", tool_call_id: "call_0", name: "ls", status: "success" },
      { type: "remove", id: "x" },
      null,
      "text",
    ]);
    expect(messages).toEqual([
      { role: "user", content: "hi", id: "h1" },
      {
        role: "assistant",
        content: "Let me look.",
        id: "a1",
        toolCalls: [{ id: "call_0", name: "ls", args: { path: "/" } }],
        usage: { input: 10, output: 3 },
      },
      { role: "tool", content: "a.txt", toolCallId: "call_0", name: "ls", status: "success" },
    ]);
    expect(messagesFromState({ not: "a list" })).toEqual([]);
  });

  it("reads deeptab's stopped mark on an answer (a Stop's text written back into a server thread), and only a true one", () => {
    const stopped = { type: "ai", content: "word1 word2 ", response_metadata: { deeptab_stopped: true } };
    const other = { type: "ai", content: "done", response_metadata: { deeptab_stopped: "yes" } };
    expect(messagesFromState([stopped, other])).toEqual([
      { role: "assistant", content: "word1 word2 ", stopped: true },
      { role: "assistant", content: "done" },
    ]);
  });

  it("keeps only well-formed todos", () => {
    expect(todosFromState([{ content: "a", status: "pending" }, { content: "b", status: "later" }, { status: "completed" }, "c"])).toEqual([
      { content: "a", status: "pending" },
    ]);
  });

  it("lists the files channel with its folders, reading deepagents' string and line-list contents, not binary uploads", () => {
    const files = {
      "/a/b/c.txt": { content: "one\ntwo\n", modified_at: "2026-12-04T00:00:00Z" },
      "/old.txt": { content: ["x", "y"] },
      "/bin.png": { content: "iVBORw0", encoding: "base64" },
      "relative.txt": { content: "no" },
      "/bad.txt": { content: 42 },
    };
    expect(filesFromState(files)).toEqual([
      { path: "/a", isDir: true, size: 0 },
      { path: "/a/b", isDir: true, size: 0 },
      { path: "/a/b/c.txt", isDir: false, size: 8, modifiedAt: "2026-12-04T00:00:00Z" },
      { path: "/old.txt", isDir: false, size: 3 },
    ]);
    expect(filePage(files, "/old.txt", 0, 10)).toMatchObject({ lines: ["x", "y"], totalLines: 2 });
    expect(filePage(files, "/a/b/c.txt", 0, 1)).toMatchObject({ lines: ["one"], totalLines: 2, size: 8 });
    expect(filePage(files, "/bin.png", 0, 10)).toBeUndefined();
  });

  it("reads a deepagents HITL interrupt as the pending approval; other interrupts wait after it or are not approvals", () => {
    const hitl = (name: string) => ({
      actionRequests: [{ name, args: { command: "ls" }, description: `run ${name}` }],
      reviewConfigs: [{ actionName: name, allowedDecisions: ["approve", "reject", "bogus"] }],
    });
    expect(approvalFromInterrupts([{ id: "i1", value: "a question" }])).toBeNull();
    expect(
      approvalFromInterrupts([
        { id: "i1", value: hitl("execute") },
        { id: "i2", value: hitl("write_file") },
      ]),
    ).toEqual({
      id: "i1",
      actions: [{ name: "execute", args: { command: "ls" }, description: "run execute", allowedDecisions: ["approve", "reject"] }],
      waiting: [{ tools: ["write_file"] }],
    });
  });

  it("turns stream parts into the page's events; a subgraph's parts stay under its namespace", () => {
    const token = { event: "messages", data: [{ type: "AIMessageChunk", content: "Hel", id: "m1" }, {}] };
    expect(eventsFromPart(token, "r")).toEqual([{ type: "token", runId: "r", text: "Hel", chunks: 1, messageId: "m1" }]);
    const sub = { event: "messages|tools:abc", data: [{ type: "AIMessageChunk", content: "sub", id: "m2" }, {}] };
    expect(eventsFromPart(sub, "r")).toEqual([{ type: "token", runId: "r", text: "sub", chunks: 1, messageId: "m2", taskId: "tools:abc" }]);
    const update = {
      event: "updates",
      data: { tools: { messages: [{ type: "tool", content: "ok", tool_call_id: "c" }], todos: [{ content: "t", status: "completed" }] } },
    };
    expect(eventsFromPart(update, "r")).toEqual([
      { type: "messages", runId: "r", messages: [{ role: "tool", content: "ok", toolCallId: "c" }] },
      { type: "todos", runId: "r", todos: [{ content: "t", status: "completed" }] },
    ]);
    // Upstream deepagents' tool node: one Command per call, so its update is a list.
    const listed = {
      event: "updates",
      data: {
        tools: [
          { messages: [{ type: "tool", content: "written", tool_call_id: "c1" }] },
          { messages: [{ type: "tool", content: "listed", tool_call_id: "c2" }], todos: [{ content: "u", status: "pending" }] },
        ],
      },
    };
    expect(eventsFromPart(listed, "r")).toEqual([
      { type: "messages", runId: "r", messages: [{ role: "tool", content: "written", toolCallId: "c1" }] },
      { type: "messages", runId: "r", messages: [{ role: "tool", content: "listed", toolCallId: "c2" }] },
      { type: "todos", runId: "r", todos: [{ content: "u", status: "pending" }] },
    ]);
    const pause = { event: "updates", data: { __interrupt__: [{ id: "i", value: { actionRequests: [{ name: "x" }] } }] } };
    expect(eventsFromPart(pause, "r")).toMatchObject([{ type: "interrupt", approval: { id: "i", actions: [{ name: "x" }] } }]);
    expect(eventsFromPart({ event: "updates|tools:abc", data: pause.data }, "r")).toEqual([]);
    expect(eventsFromPart({ event: "metadata", data: { run_id: "r" } }, "r")).toEqual([]);
  });

  it("puts a subagent's namespaced events under its task call's card: each new namespace takes the next task call", () => {
    const nest = subagentNester();
    const call = (id: string, name = "task") => ({ id, name, args: {} });
    const parent = {
      type: "messages" as const,
      runId: "r",
      messages: [{ role: "assistant" as const, content: "", toolCalls: [call("ls1", "ls"), call("t1"), call("t2")] }],
    };
    expect(nest(parent)).toBe(parent);
    const token = (taskId: string) => ({ type: "token" as const, runId: "r", text: "x", chunks: 1, taskId });
    expect(nest(token("tools:aaa"))).toMatchObject({ taskId: "t1" });
    expect(nest(token("tools:bbb|model_request:1"))).toMatchObject({ taskId: "t2" });
    expect(nest(token("tools:aaa"))).toMatchObject({ taskId: "t1" });
    // A deeper subagent's parts go under its top-level card; a namespace with no call left keeps its name.
    expect(nest(token("tools:bbb|tools:ccc"))).toMatchObject({ taskId: "t2" });
    expect(nest(token("tools:ddd"))).toMatchObject({ taskId: "tools:ddd" });
    expect(nest({ type: "todos", runId: "r", todos: [] })).toEqual({ type: "todos", runId: "r", todos: [] });
  });
});
