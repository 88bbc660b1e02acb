import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { DECISION_KEY, type HITLRequest } from "./hitl.ts";

const results = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

function parallelWrites(): ScriptedTurn[] {
  return [
    {
      toolCalls: [
        { name: "write_file", args: { file_path: "/a.md", content: "A" }, id: "wa" },
        { name: "write_file", args: { file_path: "/b.md", content: "B" }, id: "wb" },
        { name: "ls", args: { path: "/" }, id: "ls1" },
        { name: "write_file", args: { file_path: "/c.md", content: "C" }, id: "wc" },
        { name: "edit_file", args: { file_path: "/a.md", old_string: "x", new_string: "y" }, id: "ed" },
      ],
    },
    { text: "done" },
  ];
}

describe("human in the loop", () => {
  it("pauses only matching calls, then applies approve / reject / edit / respond per call", async () => {
    const model = new ScriptedChatModel({ script: parallelWrites() });
    const checkpointer = new MemorySaver();
    const agent = createDeepAgent({
      model,
      checkpointer,
      interruptOn: { write_file: true, edit_file: { allowedDecisions: ["approve", "reject", "respond"] } },
    });
    const config = { configurable: { thread_id: "hitl" } };
    const paused = await agent.invoke({ messages: [new HumanMessage("write")] }, config);
    const interrupts = (paused as { __interrupt__?: Array<{ value: HITLRequest }> }).__interrupt__!;
    expect(interrupts).toHaveLength(1);
    const value = interrupts[0]!.value;
    expect(value.actionRequests.map((a) => [a.name, a.args.file_path])).toEqual([
      ["write_file", "/a.md"],
      ["write_file", "/b.md"],
      ["write_file", "/c.md"],
      ["edit_file", "/a.md"],
    ]);
    expect(value.actionRequests[0]!.description).toContain("Tool: write_file");
    expect(value.reviewConfigs.map((r) => r.allowedDecisions)).toEqual([
      ["approve", "edit", "reject", "respond"],
      ["approve", "edit", "reject", "respond"],
      ["approve", "edit", "reject", "respond"],
      ["approve", "reject", "respond"],
    ]);
    // Nothing ran yet.
    expect(paused.files).toEqual({});
    expect(results(paused.messages)).toEqual([]);

    const out = await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "approve" },
            { type: "reject", message: "Not /b.md, please." },
            { type: "edit", editedAction: { args: { file_path: "/c2.md", content: "C edited" } } },
            { type: "respond", message: "Skip the edit; the file is fine." },
          ],
        },
      }),
      config,
    );
    expect(Object.keys(out.files).sort()).toEqual(["/a.md", "/c2.md"]);
    expect(out.files["/c2.md"].content).toBe("C edited");
    const byId = Object.fromEntries(results(out.messages).map((m) => [m.tool_call_id, m]));
    expect(byId.wb!.status).toBe("error");
    expect(byId.wb!.content).toBe("Not /b.md, please.");
    expect(byId.ed!.content).toBe("Skip the edit; the file is fine.");
    // The person's answers are marked as theirs (the content is what the model reads); tool results are not.
    expect(byId.wb!.response_metadata[DECISION_KEY]).toBe("reject");
    expect(byId.ed!.response_metadata[DECISION_KEY]).toBe("respond");
    expect(byId.wa!.response_metadata[DECISION_KEY]).toBeUndefined();
    expect(byId.ls1!.status).toBe("success");
    expect(Object.keys(byId).sort()).toEqual(["ed", "ls1", "wa", "wb", "wc"]);
    // The model saw one result for every call, and the edited arguments.
    const seen = model.calls[1]!.messages;
    const ai = seen.find((m) => m.getType() === "ai") as { tool_calls?: Array<{ id?: string; args: Record<string, unknown> }> };
    expect(ai.tool_calls!.find((c) => c.id === "wc")!.args.file_path).toBe("/c2.md");
    expect(results(seen)).toHaveLength(5);
    expect(out.messages.at(-1)!.content).toBe("done");
  });

  it("survives a reload: a new agent over the same checkpointer sees the pending approval and resumes it", async () => {
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "reload" } };
    const first = createDeepAgent({
      model: new ScriptedChatModel({ script: parallelWrites() }),
      checkpointer,
      interruptOn: { write_file: true },
    });
    await first.invoke({ messages: [new HumanMessage("write")] }, config);

    const model = new ScriptedChatModel({ script: [{ text: "resumed and done" }] });
    const second = createDeepAgent({ model, checkpointer, interruptOn: { write_file: true } });
    const state = await second.getState(config);
    expect(state.next).toEqual(["after_model"]);
    const pending = state.tasks.flatMap((t) => t.interrupts).map((i) => i.value as HITLRequest);
    expect(pending[0]!.actionRequests).toHaveLength(3);
    const out = await second.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }, { type: "approve" }, { type: "reject" }] } }),
      config,
    );
    expect(Object.keys(out.files).sort()).toEqual(["/a.md", "/b.md"]);
    expect(results(out.messages).find((m) => m.tool_call_id === "wc")!.content).toBe(
      "User rejected the tool call for `write_file` with id wc",
    );
    expect(out.messages.at(-1)!.content).toBe("resumed and done");
  });

  it("goes back to the model when every call was rejected", async () => {
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "write_file", args: { file_path: "/x", content: "x" }, id: "w" }] }, { text: "ok, not writing" }],
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), interruptOn: { write_file: true } });
    const config = { configurable: { thread_id: "rej" } };
    await agent.invoke({ messages: [new HumanMessage("w")] }, config);
    const out = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject" }] } }), config);
    expect(out.messages.map((m: BaseMessage) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(out.files).toEqual({});
  });

  it("rejects a disallowed decision or a wrong count with a clear error, and needs a checkpointer", async () => {
    const model = new ScriptedChatModel({ script: parallelWrites() });
    const agent = createDeepAgent({
      model,
      checkpointer: new MemorySaver(),
      interruptOn: { write_file: { allowedDecisions: ["approve"] } },
    });
    const config = { configurable: { thread_id: "bad" } };
    await agent.invoke({ messages: [new HumanMessage("w")] }, config);
    await expect(agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config)).rejects.toThrow(/exactly 3 decision/);
    expect(() => createDeepAgent({ model, interruptOn: { write_file: true } })).toThrow(/checkpointer/);
  });
});
