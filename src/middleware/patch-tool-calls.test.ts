import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { StorageError } from "../storage/errors.ts";
import { CANCELLED_KEY, cancelledToolCallContent, patchDanglingToolCalls } from "./patch-tool-calls.ts";

const ai = (id: string, calls: string[]) =>
  new AIMessage({
    content: "",
    id,
    tool_calls: calls.map((c) => ({ id: c, name: "ls", args: { path: "/" }, type: "tool_call" as const })),
  });
const result = (callId: string) => new ToolMessage({ content: "ok", tool_call_id: callId, name: "ls" });

describe("patching dangling tool calls", () => {
  it("returns undefined when the history is consistent", () => {
    expect(patchDanglingToolCalls([new HumanMessage("x"), ai("a1", ["c1"]), result("c1")])).toBeUndefined();
  });

  it("adds a cancelled error result right after the AI message for each unanswered call", () => {
    const patched = patchDanglingToolCalls([new HumanMessage("x"), ai("a1", ["c1", "c2"]), result("c2"), new HumanMessage("next")])!;
    expect(patched.map((m) => m.getType())).toEqual(["human", "ai", "tool", "tool", "human"]);
    const cancelled = patched[2] as ToolMessage;
    expect(cancelled.tool_call_id).toBe("c1");
    expect(cancelled.status).toBe("error");
    expect(cancelled.content).toBe(cancelledToolCallContent("ls", "c1"));
    // Marked, so a UI can say "cancelled" and leave the model-facing text to the model.
    expect(cancelled.response_metadata).toEqual({ [CANCELLED_KEY]: true });
  });

  it("drops orphan and duplicate tool results", () => {
    const patched = patchDanglingToolCalls([new HumanMessage("x"), result("ghost"), ai("a1", ["c1"]), result("c1"), result("c1")])!;
    expect(patched.map((m) => m.getType())).toEqual(["human", "ai", "tool"]);
  });

  it("repairs a thread whose run crashed mid-tools, so the next request is valid", async () => {
    // Storage that stopped working is one of the few failures that end a run mid-tools.
    const boom = {
      name: "boom",
      description: "crashes",
      schema: { type: "object", properties: {} },
      run: async () => {
        throw new StorageError("transaction_failed", "crash");
      },
    };
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "boom", args: {}, id: "c-crash" }] }, { text: "recovered" }] });
    const agent = createDeepAgent({ model, tools: [boom], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "crash" } };
    await expect(agent.invoke({ messages: [new HumanMessage("go")] }, config)).rejects.toThrow("crash");
    const out = await agent.invoke({ messages: [new HumanMessage("again")] }, config);
    const sent = model.calls[1]!.messages;
    expect(sent.map((m) => m.getType())).toEqual(["human", "ai", "tool", "human"]);
    expect((sent[2] as ToolMessage).tool_call_id).toBe("c-crash");
    expect(out.messages.at(-1)!.content).toBe("recovered");
  });
});
