/**
 * Harness overhead: a 300-step scripted session through createDeepAgent next
 * to a bare @langchain/langgraph/web loop making the same model and tool
 * calls, in the same process, in alternating rounds: the median of the
 * per-round ratios, with its interquartile range.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import { ScriptedChatModel, type Script } from "../../src/models/scripted.ts";
import { buildBareLoop } from "./pages/bare-loop.ts";

const STEPS = 300;
/** Issue 44: the harness, with all its middleware, no slower than the bare loop. */
const HARNESS_GOAL = 1.0;

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

function runBare(): Promise<Timing> {
  const graph = buildBareLoop(new ScriptedChatModel({ script: script() }), [lookup]);
  return timed(async () => {
    const out = await graph.invoke({ messages: [new HumanMessage("go")] });
    if ((out.messages as BaseMessage[]).length !== 2 + STEPS * 2) throw new Error("bare loop produced a different history");
  });
}

/** `global.gc`, exposed at run time (a collection before each run keeps one run's garbage out of the next's time). */
function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** The q-quantile (0..1) of xs, linearly interpolated. */
function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Median and interquartile range of per-round ratios, as "1.04x (IQR 0.99-1.08)". */
function ratioText(ratios: readonly number[]): string {
  return `${quantile(ratios, 0.5).toFixed(2)}x (IQR ${quantile(ratios, 0.25).toFixed(2)}-${quantile(ratios, 0.75).toFixed(2)})`;
}

/**
 * Each round runs both loops back to back, in alternating order (bare first on even rounds, the harness first on odd
 * ones), after a garbage collection each; the figure is the median of the per-round ratios, so a stretch where the
 * machine is busy slows both sides of the rounds it falls in instead of one side's median. Wall-clock time is what a
 * user waits; on a shared, loaded machine it also counts the time other processes hold the CPU, so the CPU time this
 * process used is reported beside it. The interquartile range says how far to trust the median. A single round's ratio
 * varies by ±10% on a 2-core virtual machine, so the median takes 40 rounds (≈ 50 s) to settle within about ±2%.
 */
export async function benchLoop(rounds = 40): Promise<string[]> {
  const gc = exposedGc();
  await runBare();
  await runHarness();
  const bare: Timing[] = [];
  const harness: Timing[] = [];
  for (let i = 0; i < rounds; i++) {
    const pair: Array<() => Promise<void>> = [
      async () => {
        gc();
        bare.push(await runBare());
      },
      async () => {
        gc();
        harness.push(await runHarness());
      },
    ];
    if (i % 2 === 1) pair.reverse();
    for (const run of pair) await run();
  }
  const wall = harness.map((h, i) => h.wall / bare[i]!.wall);
  const cpu = harness.map((h, i) => h.cpu / bare[i]!.cpu);
  const b = quantile(
    bare.map((t) => t.wall),
    0.5,
  );
  const h = quantile(
    harness.map((t) => t.wall),
    0.5,
  );
  return [
    `loop: ${STEPS}-step scripted session (${rounds} rounds, alternating order, gc before each run)`,
    `  bare @langchain/langgraph/web loop   ${(STEPS / (b / 1000)).toFixed(0).padStart(6)} steps/s  (median ${b.toFixed(0)} ms)`,
    `  createDeepAgent                      ${(STEPS / (h / 1000)).toFixed(0).padStart(6)} steps/s  (median ${h.toFixed(0)} ms)`,
    `  harness / bare, per-round ratios     ${ratioText(wall)} wall clock, ${ratioText(cpu)} CPU time`,
    `  against the floor (the bare loop = 1.00x): goal <= ${HARNESS_GOAL.toFixed(2)}x with all the middleware on (issue 44): ` +
      `${quantile(wall, 0.5) <= HARNESS_GOAL ? "within" : "over"} it (wall clock), ` +
      `${quantile(cpu, 0.5) <= HARNESS_GOAL ? "within" : "over"} it (CPU time)`,
  ];
}
