import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../worker/protocol.ts";
import { applyEvent, beginTurn, emptyView, failTurn, STARTING, viewFromHistory, type ChatView } from "./chat-view.ts";

const apply = (view: ChatView, events: AgentEvent[]) => events.reduce(applyEvent, view);

describe("chat view", () => {
  it("adopts the first run id, streams live text, then replaces it with the final message", () => {
    let v = beginTurn(emptyView(), "hi");
    expect(v.runId).toBe(STARTING);
    v = apply(v, [
      { type: "tool_start", runId: "r", toolCall: { id: "c", name: "write_file", args: { file_path: "/a" } } },
      { type: "tool_end", runId: "r", toolCallId: "c", name: "write_file", content: "ok", status: "success" },
      { type: "token", runId: "r", messageId: "m", text: "Hel", chunks: 2 },
      { type: "token", runId: "r", messageId: "m", text: "lo", chunks: 1 },
    ]);
    expect(v.runId).toBe("r");
    expect(v.live).toEqual({ messageId: "m", text: "Hello" });
    expect([v.tokenEvents, v.tokenChunks]).toEqual([2, 3]);
    v = apply(v, [
      { type: "message", runId: "r", message: { id: "m", role: "assistant", content: "Hello" } },
      { type: "done", runId: "r", status: "complete" },
    ]);
    expect(v.live).toBeNull();
    expect(v.runId).toBeNull();
    expect(v.items.map((i) => [i.kind, i.kind === "tool" ? i.status : i.text])).toEqual([
      ["user", "hi"],
      ["tool", "success"],
      ["assistant", "Hello"],
    ]);
  });

  it("ignores events of other runs and keeps partial text of a cancelled run", () => {
    let v = apply(beginTurn(emptyView(), "hi"), [{ type: "token", runId: "r", text: "par", chunks: 1 }]);
    v = applyEvent(v, { type: "token", runId: "other", text: "x", chunks: 1 });
    expect(v.live?.text).toBe("par");
    v = applyEvent(v, { type: "done", runId: "r", status: "cancelled" });
    expect(v.items.at(-1)).toMatchObject({ kind: "assistant", text: "par" });
  });

  it("shows errors, from the run or from a refused start", () => {
    const err = { name: "Error", message: "boom", code: "x" };
    expect(applyEvent(beginTurn(emptyView(), "a"), { type: "error", runId: "r", error: err })).toMatchObject({ runId: null, error: err });
    expect(failTurn(beginTurn(emptyView(), "a"), err)).toMatchObject({ runId: null, error: err });
  });
});

describe("viewFromHistory", () => {
  it("rebuilds user, assistant and tool items from a thread's history", () => {
    const view = viewFromHistory([
      { id: "u1", role: "user", content: "hi" },
      { id: "a1", role: "assistant", content: "", toolCalls: [{ id: "c1", name: "write_file", args: { file_path: "/x" } }] },
      { id: "t1", role: "tool", content: "Updated file /x", toolCallId: "c1", name: "write_file", status: "success" },
      { id: "a2", role: "assistant", content: "done" },
    ]);
    expect(view.items.map((i) => [i.kind, i.kind === "tool" ? `${i.name}:${i.status}:${i.result}` : i.text])).toEqual([
      ["user", "hi"],
      ["tool", "write_file:success:Updated file /x"],
      ["assistant", "done"],
    ]);
    expect(view.runId).toBeNull();
  });
});
