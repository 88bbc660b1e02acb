/**
 * The harness's nodes and edge conditions skip LangChain's AsyncLocalStorage wrapper (and the LangSmith RunTree it
 * builds) where there is no AsyncLocalStorage, as in a worker; the callbacks that carry streamed tokens and token usage
 * still see every model call. (With an AsyncLocalStorage: direct-node.als.test.ts.)
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { AsyncLocalStorageProviderSingleton, MockAsyncLocalStorage } from "@langchain/core/singletons";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel, type Script } from "../models/scripted.ts";

const STEPS = 5;
const script: Script = ({ call }) =>
  call < STEPS
    ? { toolCalls: [{ name: "lookup", args: { n: call } }] }
    : { text: "all done", usage: { input_tokens: 7, output_tokens: 2 } };
const lookup = tool(async ({ n }: { n: number }) => `record ${n}`, {
  name: "lookup",
  description: "Looks up a record.",
  schema: z.object({ n: z.number() }),
});

/** A bare LangGraph loop (model node, tools node, a condition) making the same model and tool calls. */
function bareLoop(model: ScriptedChatModel) {
  const bound = model.bindTools([lookup]);
  return new StateGraph(MessagesAnnotation)
    .addNode("model", async (state, config) => ({ messages: [await bound.invoke(state.messages, config)] }))
    .addNode("tools", async (state, config) => {
      const last = state.messages.at(-1) as AIMessage;
      return { messages: await Promise.all((last.tool_calls ?? []).map((call) => lookup.invoke({ ...call, type: "tool_call" }, config))) };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
    .addEdge("tools", "model")
    .compile();
}

/** Token usage and model calls as a callback handler sees them. */
class Usage extends BaseCallbackHandler {
  name = "usage";
  ends = 0;
  outputTokens = 0;
  override handleLLMEnd(output: LLMResult): void {
    this.ends += 1;
    for (const gen of output.generations.flat()) {
      const message = (gen as { message?: BaseMessage }).message;
      if (message && AIMessage.isInstance(message)) this.outputTokens += message.usage_metadata?.output_tokens ?? 0;
    }
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("harness nodes without an AsyncLocalStorage", () => {
  it("runs where LangChain has only its mock storage", () => {
    expect(AsyncLocalStorageProviderSingleton.getInstance()).toBeInstanceOf(MockAsyncLocalStorage);
  });

  it("wraps fewer calls in runWithConfig (each builds a LangSmith RunTree) than a bare LangGraph loop making the same calls", async () => {
    const spy = vi.spyOn(AsyncLocalStorageProviderSingleton, "runWithConfig");
    const bare = await bareLoop(new ScriptedChatModel({ script })).invoke({ messages: [new HumanMessage("go")] });
    const bareCalls = spy.mock.calls.length;
    spy.mockClear();
    const harness = await createDeepAgent({ model: new ScriptedChatModel({ script }), tools: [lookup] }).invoke({
      messages: [new HumanMessage("go")],
    });
    const harnessCalls = spy.mock.calls.length;
    expect(harness.messages.length).toBe(bare.messages.length);
    expect(harness.messages.at(-1)!.content).toBe("all done");
    // The harness's nodes and its condition make none of their own: at least two fewer a round (a model step and a
    // tools step), though its graph has a step more (before_agent) whose channel writes still go through it.
    expect(harnessCalls).toBeLessThan(bareCalls - 2 * STEPS);
  });

  it("still streams each model call's tokens, tagged with its node, and hands token usage to callbacks", async () => {
    const usage = new Usage();
    const agent = createDeepAgent({ model: new ScriptedChatModel({ script }), tools: [lookup] });
    const texts: string[] = [];
    const nodes = new Set<unknown>();
    const stream = await agent.stream(
      { messages: [new HumanMessage("go")] },
      { streamMode: "messages", callbacks: [usage], configurable: { thread_id: "t" } },
    );
    for await (const [chunk, metadata] of stream) {
      if (chunk.getType() !== "ai") continue;
      nodes.add((metadata as Record<string, unknown>).langgraph_node);
      if (typeof chunk.content === "string" && chunk.content) texts.push(chunk.content);
    }
    expect(texts.join("")).toBe("all done");
    expect([...nodes]).toEqual(["model"]);
    expect(usage.ends).toBe(STEPS + 1);
    expect(usage.outputTokens).toBe(2);
  });
});
