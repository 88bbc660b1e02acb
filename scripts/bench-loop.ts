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

/** Wall-clock and CPU time (this process, ms) of one run. */
interface Timing {
  wall: number;
  cpu: number;
}

async function timed(run: () => Promise<void>): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function runHarness(): Promise<Timing> {
  const model = new ScriptedChatModel({ script: script() });
  const agent = createDeepAgent({ model, tools: [lookup] });
  return timed(async () => {
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    if (out.messages.length !== 2 + STEPS * 2) throw new Error(`harness produced ${out.messages.length} messages`);
  });
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

function runBare(): Promise<Timing> {
  const graph = buildBareLoop(new ScriptedChatModel({ script: script() }), [lookup]);
  return timed(async () => {
    const out = await graph.invoke({ messages: [new HumanMessage("go")] });
    if ((out.messages as BaseMessage[]).length !== 2 + STEPS * 2) throw new Error("bare loop produced a different history");
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Wall-clock time is what a user waits; on a shared, loaded machine it also
 * counts the time other processes hold the CPU, so the CPU time this process
 * used is reported beside it (both medians of interleaved runs).
 */
export async function benchLoop(rounds = 9): Promise<string[]> {
  await runBare();
  await runHarness();
  const bare: Timing[] = [];
  const harness: Timing[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(await runBare());
    harness.push(await runHarness());
  }
  const b = median(bare.map((t) => t.wall));
  const h = median(harness.map((t) => t.wall));
  const cpuRatio = median(harness.map((t) => t.cpu)) / median(bare.map((t) => t.cpu));
  return [
    `loop: ${STEPS}-step scripted session (median of ${rounds})`,
    `  bare @langchain/langgraph/web loop   ${(STEPS / (b / 1000)).toFixed(0).padStart(6)} steps/s  (${b.toFixed(0)} ms)`,
    `  createDeepAgent                      ${(STEPS / (h / 1000)).toFixed(0).padStart(6)} steps/s  (${h.toFixed(0)} ms)`,
    `  harness / bare time ratio            ${(h / b).toFixed(2)}x wall clock, ${cpuRatio.toFixed(2)}x CPU time  (target <= 1.10x)`,
  ];
}
