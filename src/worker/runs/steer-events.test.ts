import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { INBOX_NODE } from "../../harness/loop.ts";
import type { AgentTool } from "../../harness/types.ts";
import { ScriptedChatModel } from "../../models/scripted.ts";
import { applyEvent, beginTurn, emptyLive } from "../../ui/chat/live.ts";
import { createTranslator } from "./events.ts";
import { SteerQueues } from "./steering.ts";

describe("steering events", () => {
  it("turns the inbox step's update into one `steered` event naming the queued ids", () => {
    const t = createTranslator("r1", "t1");
    const update = { [INBOX_NODE]: { messages: [new HumanMessage({ id: "q1", content: "use tabs" }), new AIMessage("not mine")] } };
    expect(t.translate(["updates", update])).toEqual([
      { type: "steered", runId: "r1", ids: ["q1"], messages: [expect.objectContaining({ role: "user", content: "use tabs", id: "q1" })] },
    ]);
    // An empty inbox step says nothing.
    expect(t.translate(["updates", { [INBOX_NODE]: {} }])).toEqual([]);
  });

  it("shows a message sent during a tool call after that call's result and before the next answer", async () => {
    const queues = new SteerQueues();
    const work: AgentTool = {
      name: "work",
      description: "works",
      schema: { type: "object", properties: {} },
      async run() {
        queues.add("t2", "also add tests");
        return "worked";
      },
    };
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "work", args: {} }] }, { text: "done, with tests" }] });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), tools: [work], inbox: queues.inbox() });
    const t = createTranslator("r2", "t2");
    let live = beginTurn(emptyLive(), "build it");
    const stream = await agent.stream(
      { messages: [new HumanMessage("build it")] },
      { configurable: { thread_id: "t2" }, streamMode: ["messages", "updates", "custom"] },
    );
    const steered: string[] = [];
    for await (const chunk of stream) {
      for (const event of t.translate(chunk)) {
        if (event.type === "steered") steered.push(...event.messages.map((m) => m.content));
        live = applyEvent(live, event);
      }
    }
    expect(steered).toEqual(["also add tests"]);
    expect(live.messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      "user:build it",
      "assistant:",
      "tool:worked",
      "user:also add tests",
      "assistant:done, with tests",
    ]);
  });
});
