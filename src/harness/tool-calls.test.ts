import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { INVALID_CALLS_KEY, ORIGINAL_IDS_KEY, invalidCallProblem, normalizeToolCalls } from "./tool-calls.ts";

const call = (id: string | undefined, name = "ls") => ({ id, name, args: { path: "/" }, type: "tool_call" as const });

describe("normalizeToolCalls", () => {
  it("returns the message itself when every id is fresh", () => {
    const ai = new AIMessage({ content: "", tool_calls: [call("a"), call("b")] });
    expect(normalizeToolCalls(ai, [new HumanMessage("x")])).toBe(ai);
  });

  it("renames an id used earlier in the thread, in tool_calls, content blocks and raw kwargs alike", () => {
    const earlier = [
      new AIMessage({ content: "", tool_calls: [call("toolu_1")] }),
      new ToolMessage({ content: "r", tool_call_id: "toolu_1" }),
    ];
    const ai = new AIMessage({
      content: [
        { type: "text", text: "listing" },
        { type: "tool_use", id: "toolu_1", name: "ls", input: { path: "/" } },
      ],
      tool_calls: [call("toolu_1")],
      additional_kwargs: { tool_calls: [{ id: "toolu_1", type: "function", function: { name: "ls", arguments: "{}" } }] },
    });
    const out = normalizeToolCalls(ai, earlier);
    const fresh = out.tool_calls![0]!.id!;
    expect(fresh).toMatch(/^toolu_1_[0-9a-f]{8}$/);
    expect((out.content as Array<{ id?: string }>)[1]!.id).toBe(fresh);
    expect(out.additional_kwargs.tool_calls![0]!.id).toBe(fresh);
    expect(out.response_metadata[ORIGINAL_IDS_KEY]).toEqual({ [fresh]: "toolu_1" });
    expect(out.content[0]).toEqual({ type: "text", text: "listing" });
  });

  it("keeps the first of two equal ids and renames the second, blocks in order", () => {
    const ai = new AIMessage({
      content: [
        { type: "tool_use", id: "x", name: "ls", input: {} },
        { type: "tool_use", id: "x", name: "ls", input: {} },
      ],
      tool_calls: [call("x"), call("x")],
    });
    const out = normalizeToolCalls(ai, []);
    const [first, second] = out.tool_calls!.map((c) => c.id);
    expect(first).toBe("x");
    expect(second).not.toBe("x");
    expect((out.content as Array<{ id: string }>).map((b) => b.id)).toEqual([first, second]);
  });

  it("does not trust LangChain's repair of cut-off streamed arguments", () => {
    const chunk = new AIMessageChunk({
      content: "",
      tool_call_chunks: [
        { id: "w", name: "write_file", args: '{"file_path": "/a.md", "content": "the whole text was n', index: 0, type: "tool_call_chunk" },
      ],
    });
    expect(chunk.tool_calls).toHaveLength(1); // LangChain's partial parse
    const out = normalizeToolCalls(chunk, []);
    expect(out.tool_calls).toEqual([{ id: "w", name: "write_file", args: {}, type: "tool_call" }]);
    expect(out.invalid_tool_calls).toEqual([]);
    expect((out.response_metadata[INVALID_CALLS_KEY] as Record<string, { error: string }>).w!.error).toMatch(/cut off/);
    expect(invalidCallProblem([out], "w")).toMatch(/^Error: the arguments of your call to 'write_file' are not usable: /);
  });

  it("recovers a streamed call LangChain refused only for lacking an id", () => {
    const chunk = new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ name: "ls", args: '{"path": "/d"}', index: 0, type: "tool_call_chunk" }],
    });
    expect(chunk.invalid_tool_calls).toHaveLength(1);
    const out = normalizeToolCalls(chunk, []);
    expect(out.tool_calls).toEqual([{ type: "tool_call", id: expect.stringMatching(/^call_/), name: "ls", args: { path: "/d" } }]);
    expect(out.invalid_tool_calls).toEqual([]);
    expect(invalidCallProblem([out], out.tool_calls![0]!.id!)).toBeUndefined();
  });

  it("joins streamed pieces by their index, so parallel calls sharing one id stay apart", () => {
    const piece = (fields: { id?: string; name?: string; args: string; index?: number }) => ({
      ...fields,
      type: "tool_call_chunk" as const,
    });
    const chunk = new AIMessageChunk({
      content: "",
      tool_call_chunks: [
        piece({ id: "dup", name: "write_file", args: '{"file_path": "/a.md", ', index: 0 }),
        piece({ id: "dup", name: "write_file", args: '{"file_path": "/b.md", "content": "2"}', index: 1 }),
        // A continuation piece carries only its index.
        piece({ args: '"content": "1"}', index: 0 }),
        // Without an index, a piece joins the latest call with its id.
        piece({ id: "solo", name: "ls", args: '{"path": ' }),
        piece({ id: "solo", args: '"/d"}' }),
      ],
    });
    const out = normalizeToolCalls(chunk, []);
    expect(out.tool_calls!.map((c) => [c.name, c.args])).toEqual([
      ["write_file", { file_path: "/a.md", content: "1" }],
      ["write_file", { file_path: "/b.md", content: "2" }],
      ["ls", { path: "/d" }],
    ]);
    const [first, second, third] = out.tool_calls!.map((c) => c.id!);
    expect(first).toBe("dup");
    expect(second).toMatch(/^dup_[0-9a-f]{8}$/);
    expect(third).toBe("solo");
    expect(out.response_metadata[ORIGINAL_IDS_KEY]).toEqual({ [second!]: "dup" });
    expect(out.response_metadata[INVALID_CALLS_KEY]).toBeUndefined();
  });
});
