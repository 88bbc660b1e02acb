/**
 * The pure parts of moving a thread (thread-copy.ts): messages to LangGraph's dicts and back unchanged, and a
 * server's `files` channel in deeptab's and in deepagents' shapes as the tab keeps files.
 */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { checkCopy, copyFiles, messageToDict, messagesFromDicts } from "./thread-copy.ts";

describe("thread copies", () => {
  it("messages go to dicts and come back as the same messages", () => {
    const messages = [
      new HumanMessage({ content: "list it", id: "h1" }),
      new AIMessage({ content: "", id: "a1", tool_calls: [{ id: "call_0", name: "ls", args: { path: "/" } }] }),
      new ToolMessage({ content: "/a.md", tool_call_id: "call_0", name: "ls", status: "success" }),
      new AIMessage({ content: [{ type: "text", text: "One file." }], id: "a2" }),
    ];
    const dicts = messages.map(messageToDict);
    expect(dicts[1]).toEqual({
      type: "ai",
      content: "",
      id: "a1",
      tool_calls: [{ id: "call_0", name: "ls", args: { path: "/" }, type: "tool_call" }],
    });
    expect(dicts[2]).toEqual({ type: "tool", content: "/a.md", name: "ls", tool_call_id: "call_0", status: "success" });
    const back = messagesFromDicts(JSON.parse(JSON.stringify(dicts)));
    if (!back.ok) throw new Error(back.error);
    expect(back.value.map((m) => [m.getType(), m.content, m.id])).toEqual(messages.map((m) => [m.getType(), m.content, m.id]));
    expect((back.value[1] as AIMessage).tool_calls?.[0]).toMatchObject({ id: "call_0", name: "ls", args: { path: "/" } });
    expect((back.value[2] as ToolMessage).tool_call_id).toBe("call_0");
  });

  it("reads deeptab's and deepagents' file shapes, and leaves out shared routes and deleted files", () => {
    const files = copyFiles(
      {
        "/a.md": { content: "tab\n", encoding: "utf-8", createdAt: "2026-01-01T00:00:00.000Z", modifiedAt: "2026-01-02T00:00:00.000Z" },
        "/b.md": { content: ["line 1", "line 2"], created_at: "2026-02-01T00:00:00.000Z", modified_at: "2026-02-03T00:00:00.000Z" },
        "/gone.md": null,
        "/memories/AGENTS.md": { content: "shared", encoding: "utf-8", createdAt: "x", modifiedAt: "x" },
      },
      "2026-12-05T00:00:00.000Z",
    );
    expect(files).toEqual({
      ok: true,
      value: {
        "/a.md": { content: "tab\n", encoding: "utf-8", createdAt: "2026-01-01T00:00:00.000Z", modifiedAt: "2026-01-02T00:00:00.000Z" },
        "/b.md": {
          content: "line 1\nline 2",
          encoding: "utf-8",
          createdAt: "2026-02-01T00:00:00.000Z",
          modifiedAt: "2026-02-03T00:00:00.000Z",
        },
      },
    });
  });

  it.each([
    [{ messages: [], files: { "relative.md": { content: "x" } } }, "has no absolute, normalized path"],
    [{ messages: [], files: { "/a": { content: 3 } } }, "file /a has no text content"],
    [{ messages: [], files: { "/a": { content: "x", encoding: "utf-16" } } }, "file /a has an unknown encoding"],
    [{ messages: [{ type: "remove", id: "x" }], files: {} }, "message 1"],
    [{ messages: [{ content: "no type" }], files: {} }, "message 1: it is not a message"],
    [{ messages: [], files: [] }, "the files are not a record"],
    ["a string", "it is not a thread"],
  ])("refuses %j with its problem", (copy, problem) => {
    const checked = checkCopy(copy);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain(problem);
  });
});
