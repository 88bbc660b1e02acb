import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { SteerQueues } from "../worker/runs/steering.ts";
import { INBOX_NODE } from "./loop.ts";
import type { AgentTool } from "./types.ts";

const kinds = (messages: readonly BaseMessage[]) => messages.map((m) => `${m.getType()}:${m.text}`);

/** A tool that, while it runs, lets the person send a message (as steering does mid-call). */
function steeringTool(queues: SteerQueues, threadId: string, text: string): AgentTool {
  return {
    name: "work",
    description: "works a while",
    schema: { type: "object", properties: {} },
    async run() {
      queues.add(threadId, text);
      return "worked";
    },
  };
}

describe("the loop's inbox (steering)", () => {
  it("has no inbox step unless given one: the library's graph is unchanged", () => {
    const model = new ScriptedChatModel({ script: [{ text: "hi" }] });
    expect(Object.keys(createDeepAgent({ model }).getGraph().nodes)).not.toContain(INBOX_NODE);
    const steered = createDeepAgent({ model, inbox: new SteerQueues().inbox() });
    expect(Object.keys(steered.getGraph().nodes)).toContain(INBOX_NODE);
  });

  it("commits a message sent while a tool runs after that tool's result, before the next model call, in a step of its own", async () => {
    const queues = new SteerQueues();
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "work", args: {} }] }, { text: "done" }] });
    const checkpointer = new MemorySaver();
    const agent = createDeepAgent({ model, checkpointer, tools: [steeringTool(queues, "t1", "use tabs")], inbox: queues.inbox() });
    const config = { configurable: { thread_id: "t1" } };
    const out = await agent.invoke({ messages: [new HumanMessage("go")] }, config);

    expect(kinds(out.messages)).toEqual(["human:go", "ai:", "tool:worked", "human:use tabs", "ai:done"]);
    // The first call never saw it; the second read it last, after the tool's result.
    expect(model.calls[0]!.messages.map((m) => m.text)).not.toContain("use tabs");
    expect(kinds(model.calls[1]!.messages).slice(-2)).toEqual(["tool:worked", "human:use tabs"]);
    expect(queues.list("t1")).toEqual([]);
    // Its own checkpoint, stored before the model was called again: the tool's result, then the message, next the model.
    const saved: string[][] = [];
    for await (const snapshot of agent.getStateHistory(config)) {
      saved.push([...snapshot.next, ...kinds((snapshot.values as { messages: BaseMessage[] }).messages).slice(-2)]);
    }
    expect(saved).toContainEqual([INBOX_NODE, "ai:", "tool:worked"]);
    expect(saved).toContainEqual(["model", "tool:worked", "human:use tabs"]);
  });

  it("keeps a taken message when the model call after it fails: it is in the stored thread", async () => {
    const queues = new SteerQueues();
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "work", args: {} }] }, { error: { message: "provider down", status: 503 } }],
    });
    const checkpointer = new MemorySaver();
    const agent = createDeepAgent({ model, checkpointer, tools: [steeringTool(queues, "t2", "and then stop")], inbox: queues.inbox() });
    const config = { configurable: { thread_id: "t2" } };
    await expect(agent.invoke({ messages: [new HumanMessage("go")] }, config)).rejects.toThrow(/provider down/);
    const state = await agent.getState(config);
    expect(kinds((state.values as { messages: BaseMessage[] }).messages).at(-1)).toBe("human:and then stop");
    expect(state.next).toEqual(["model"]);
    expect(queues.list("t2")).toEqual([]);
  });

  it("reads only its own thread's queue, and keeps the queued id on the message", async () => {
    const queues = new SteerQueues();
    queues.add("other", "not for you");
    const mine = queues.add("t3", "for you");
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    const out = await createDeepAgent({ model, checkpointer: new MemorySaver(), inbox: queues.inbox() }).invoke(
      { messages: [new HumanMessage("hi")] },
      { configurable: { thread_id: "t3" } },
    );
    expect(kinds(out.messages)).toEqual(["human:hi", "human:for you", "ai:ok"]);
    expect(out.messages[1]!.id).toBe(mine.ok ? mine.value.id : "");
    expect(queues.list("other").map((m) => m.text)).toEqual(["not for you"]);
  });

  it("does not steer subagents: a message queued while a task runs reaches the parent's next call", async () => {
    const queues = new SteerQueues();
    // The subagent's (general-purpose) call sends the message; the parent's second call is the first to read it.
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "task", args: { description: "dig", subagent_type: "general-purpose" } }] },
        { toolCalls: [{ name: "work", args: {} }] },
        { text: "sub done" },
        { text: "parent done" },
      ],
    });
    const agent = createDeepAgent({
      model,
      checkpointer: new MemorySaver(),
      tools: [steeringTool(queues, "t4", "hurry")],
      inbox: queues.inbox(),
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "t4" } });
    // The subagent's second call (index 2) did not get it; the parent's next call (index 3) did.
    expect(model.calls[2]!.messages.map((m) => m.text)).not.toContain("hurry");
    expect(model.calls[3]!.messages.at(-1)!.text).toBe("hurry");
    expect(kinds(out.messages).slice(-2)).toEqual(["human:hurry", "ai:parent done"]);
  });
});
