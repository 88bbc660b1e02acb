/**
 * Harness overhead: a 300-step scripted session through createDeepAgent next
 * to a bare @langchain/langgraph/web loop making the same model and tool
 * calls, in the same process, interleaved, median of several rounds.
 */
import { HumanMessage, type AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph/web";
import { z } from "zod";
import { createDeepAgent } from "../src/agent/create-deep-agent.ts";
import { ScriptedChatModel, type Script } from "../src/models/scripted.ts";

const STEPS = 300;

function script(): Script {
  return ({ call }) => (call < STEPS ? { toolCalls: [{ name: "lookup", args: { n: call } }] } : { text: "finished" });
}

const lookup = tool(async ({ n }: { n: number }) => `record ${n}: ${"x".repeat(200)}`, {
  name: "lookup",
  description: "Looks up a record.",
  schema: z.object({ n: z.number() }),
});

async function runHarness(): Promise<number> {
  const model = new ScriptedChatModel({ script: script() });
  const agent = createDeepAgent({ model, tools: [lookup] });
  const t0 = performance.now();
  const out = await agent.invoke({ messages: [new HumanMessage("go")] });
  const ms = performance.now() - t0;
  if (out.messages.length !== 2 + STEPS * 2) throw new Error(`harness produced ${out.messages.length} messages`);
  return ms;
}

/** A bare LangGraph web agent loop: model node, tools node, nothing else. */
export function buildBareLoop(model: ScriptedChatModel, tools: StructuredToolInterface[]) {
  const bound = model.bindTools(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  return new StateGraph(MessagesAnnotation)
    .addNode("model", async (state, config) => ({ messages: [await bound.invoke(state.messages, config)] }))
    .addNode("tools", async (state, config) => {
      const last = state.messages.at(-1) as AIMessage;
      const results = await Promise.all(
        (last.tool_calls ?? []).map(
          (call) => byName.get(call.name)!.invoke({ ...call, type: "tool_call" }, config) as Promise<ToolMessage>,
        ),
      );
      return { messages: results };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
    .addEdge("tools", "model")
    .compile()
    .withConfig({ recursionLimit: 10_000 });
}

async function runBare(): Promise<number> {
  const graph = buildBareLoop(new ScriptedChatModel({ script: script() }), [lookup]);
  const t0 = performance.now();
  const out = await graph.invoke({ messages: [new HumanMessage("go")] });
  const ms = performance.now() - t0;
  if ((out.messages as BaseMessage[]).length !== 2 + STEPS * 2) throw new Error("bare loop produced a different history");
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchLoop(rounds = 5): Promise<string[]> {
  await runBare();
  await runHarness();
  const bare: number[] = [];
  const harness: number[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(await runBare());
    harness.push(await runHarness());
  }
  const b = median(bare);
  const h = median(harness);
  return [
    `loop: ${STEPS}-step scripted session (median of ${rounds})`,
    `  bare @langchain/langgraph/web loop   ${(STEPS / (b / 1000)).toFixed(0).padStart(6)} steps/s  (${b.toFixed(0)} ms)`,
    `  createDeepAgent                      ${(STEPS / (h / 1000)).toFixed(0).padStart(6)} steps/s  (${h.toFixed(0)} ms)`,
    `  harness / bare time ratio            ${(h / b).toFixed(2)}x  (target <= 1.50x)`,
  ];
}
