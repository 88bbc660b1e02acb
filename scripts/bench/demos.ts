/**
 * Replaying a recorded demo (issue 41): each site agent's demo (agents/<name>/demos/) replayed at full speed
 * (`ReplayChatModel`, `speed: Infinity`) against the same turn run with its scripted provider over loopback (the real
 * `ChatOpenAI` client, scripts/demos/record.ts), in the same process, in alternating rounds, every tool running for
 * real in both: the median of the per-round ratios (goal ≤ 1.1x: a replay costs no more than the model it stands for).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseDemo } from "../../src/models/replay/parse.ts";
import { ReplayChatModel } from "../../src/models/replay/replay-chat-model.ts";
import { demoPath } from "../demos/main.ts";
import { AGENTS_ROOT, runTurn, scriptedProvider, siteAgent } from "../demos/record.ts";
import { DEMO_SCRIPTS } from "../demos/scripts.ts";

const ROUNDS = 7;
const GOAL = 1.1;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export async function benchDemos(): Promise<string[]> {
  const lines = [
    `replaying a site demo at full speed vs the same turn on its scripted provider over loopback (median of ${ROUNDS} rounds):`,
  ];
  const ratios: number[] = [];
  for (const script of DEMO_SCRIPTS) {
    const parsed = parseDemo(await readFile(join(AGENTS_ROOT, demoPath(script)), "utf8"));
    if (!parsed.ok) throw new Error(`${demoPath(script)}: ${parsed.error.join("; ")}`);
    const demo = parsed.value;
    const agent = await siteAgent(script.agent);
    const provider = await scriptedProvider(script);
    try {
      const replayMs: number[] = [];
      const providerMs: number[] = [];
      const roundRatios: number[] = [];
      // Round 0 warms the JIT, the connection and the shell's thread.
      for (let round = 0; round <= ROUNDS; round += 1) {
        const replayFirst = round % 2 === 0;
        const replay = () => runTurn(agent, new ReplayChatModel({ demo, speed: Infinity }), script.prompt);
        const scripted = () => runTurn(agent, provider.model, script.prompt);
        if (process.env.DEEPTAB_BENCH_TRACE) console.error(`${script.agent} round ${round}`);
        const a = await timed(replayFirst ? replay : scripted);
        const b = await timed(replayFirst ? scripted : replay);
        if (round === 0) continue;
        const [r, s] = replayFirst ? [a, b] : [b, a];
        replayMs.push(r);
        providerMs.push(s);
        roundRatios.push(r / s);
      }
      const ratio = median(roundRatios);
      ratios.push(ratio);
      lines.push(
        `  ${script.agent} (${demo.calls.length} replies): replay ${median(replayMs).toFixed(0)} ms, scripted provider ` +
          `${median(providerMs).toFixed(0)} ms = ${ratio.toFixed(2)}x against the ${GOAL}x goal`,
      );
    } finally {
      await provider.close();
    }
  }
  const worst = Math.max(...ratios);
  lines.push(`  worst ${worst.toFixed(2)}x: ${worst <= GOAL ? "within" : "over"} the ${GOAL}x goal`);
  return lines;
}
