import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createTranslator, mergeTokens, textOf, toMessageInfo } from "./events.ts";

describe("textOf", () => {
  it("reads strings and the text blocks of block lists", () => {
    expect(textOf("hi")).toBe("hi");
    expect(textOf([{ type: "text", text: "a" }, { type: "image_url", image_url: "x" }, "b"])).toBe("ab");
    expect(textOf(undefined)).toBe("");
  });
});

describe("toMessageInfo", () => {
  it("flattens messages to plain, cloneable data", () => {
    const ai = new AIMessage({ content: "ok", id: "m1", tool_calls: [{ id: "c1", name: "ls", args: { path: "/" } }] });
    const tool = new ToolMessage({ content: "x", tool_call_id: "c1", name: "ls", status: "error" });
    const infos = [toMessageInfo(new HumanMessage("q")), toMessageInfo(ai), toMessageInfo(tool)];
    expect(infos).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: "ok", id: "m1", toolCalls: [{ id: "c1", name: "ls", args: { path: "/" } }] },
      { role: "tool", content: "x", toolCallId: "c1", name: "ls", status: "error" },
    ]);
    expect(structuredClone(infos)).toEqual(infos);
  });
});

describe("createTranslator", () => {
  it("turns message chunks into tokens and updates into messages and tool events", () => {
    const t = createTranslator("r");
    const call = { id: "c1", name: "write_file", args: { file_path: "/a" } };
    const ai = new AIMessage({ content: "", id: "m0", tool_calls: [call] });
    expect(t.translate(["updates", { model: { messages: [ai] } }])).toEqual([
      { type: "message", runId: "r", message: { role: "assistant", content: "", id: "m0", toolCalls: [call] } },
      { type: "tool_start", runId: "r", toolCall: call },
    ]);
    const result = new ToolMessage({ content: "done", tool_call_id: "c1", name: "write_file" });
    expect(t.translate(["updates", { tools: { messages: [result], files: {} } }])).toEqual([
      { type: "tool_end", runId: "r", toolCallId: "c1", name: "write_file", content: "done", status: "success" },
    ]);
    expect(t.translate(["messages", [new AIMessageChunk({ content: "He", id: "m1" }), { langgraph_node: "model" }]])).toEqual([
      { type: "token", runId: "r", messageId: "m1", text: "He", chunks: 1 },
    ]);
    expect(t.translate(["messages", [new AIMessageChunk({ content: "x" }), { deeptab_subagent: "helper" }]])).toEqual([
      { type: "token", runId: "r", text: "x", chunks: 1, subagent: "helper" },
    ]);
    expect(t.translate(["messages", [result, {}]])).toEqual([]);
    expect(t.translate(["updates", { before_agent: {} }])).toEqual([]);
    expect(t.interrupted).toBe(false);
  });

  it("does not start a tool call twice when its AI message is re-emitted", () => {
    const t = createTranslator("r");
    const ai = new AIMessage({ content: "", id: "m0", tool_calls: [{ id: "c1", name: "ls", args: {} }] });
    t.translate(["updates", { model: { messages: [ai] } }]);
    const again = t.translate(["updates", { after_model: { messages: [ai] } }]);
    expect(again.map((e) => e.type)).toEqual(["message"]);
  });

  it("reports interrupts as JSON and remembers them", () => {
    const t = createTranslator("r");
    const events = t.translate(["updates", { __interrupt__: [{ id: "i1", value: { actionRequests: [{ name: "write_file" }] } }] }]);
    expect(events).toEqual([
      { type: "interrupt", runId: "r", interrupts: [{ id: "i1", value: { actionRequests: [{ name: "write_file" }] } }] },
    ]);
    expect(t.interrupted).toBe(true);
  });
});

describe("mergeTokens", () => {
  it("merges tokens of one message only", () => {
    const a = { type: "token" as const, runId: "r", messageId: "m", text: "a", chunks: 1 };
    expect(mergeTokens(a, { ...a, text: "b" })).toEqual({ ...a, text: "ab", chunks: 2 });
    expect(mergeTokens(a, { ...a, messageId: "n" })).toBeUndefined();
    expect(mergeTokens(a, { ...a, subagent: "s" })).toBeUndefined();
  });
});
