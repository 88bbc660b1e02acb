/**
 * Many file writes in one AI message: the model sends 2,000 `write_file`
 * calls at once (StateBackend, the library's default). Reports the time of
 * the whole turn and the longest stretch the event loop was blocked (the
 * largest gap between ticks of a 5 ms interval), against one call writing one file, and the same
 * turn at half the size (work that grows with the square of the calls would
 * take four times as long, not twice).
 *
 *   node --import tsx scripts/bench/writes.ts
 */
import { HumanMessage } from "@langchain/core/messages";
import { pathToFileURL } from "node:url";
import { createDeepAgent } from "../../src/agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../../src/models/scripted.ts";

const CALLS = 2_000;
const TICK_MS = 5;

/** Watches the event loop until stopped: the longest time a tick came late by, in ms. */
function blockProbe(): () => number {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  return () => {
    clearInterval(timer);
    return Math.max(longest, performance.now() - last - TICK_MS, 0);
  };
}

/** One turn whose AI message writes `n` files (a few share directories), then answers. */
async function turn(n: number): Promise<{ ms: number; blockedMs: number; files: number }> {
  const calls = Array.from({ length: n }, (_, i) => ({
    name: "write_file",
    args: { file_path: `/src/m${i % 50}/f${i}.ts`, content: `export const v${i} = ${i};\n` },
  }));
  const model = new ScriptedChatModel({ script: [{ toolCalls: calls }, { text: "done" }] });
  const agent = createDeepAgent({ model });
  const stop = blockProbe();
  const start = performance.now();
  const out = await agent.invoke({ messages: [new HumanMessage("write them")] });
  const ms = performance.now() - start;
  const blockedMs = stop();
  const files = Object.keys(out.files).length;
  if (files !== n) throw new Error(`expected ${n} files, got ${files}`);
  return { ms, blockedMs, files };
}

export async function benchWrites(): Promise<string[]> {
  await turn(50); // warm-up (JIT)
  const one = await turn(1);
  const half = await turn(CALLS / 2);
  const full = await turn(CALLS);
  const f = (t: number) => `${t.toFixed(0)} ms`.padStart(9);
  return [
    `writes: ${CALLS.toLocaleString("en-US")} write_file calls in one AI message (StateBackend)`,
    `  1 call                     ${f(one.ms)}  longest event-loop block ${f(one.blockedMs)}`,
    `  ${(CALLS / 2).toLocaleString("en-US")} calls               ${f(half.ms)}  longest event-loop block ${f(half.blockedMs)}`,
    `  ${CALLS.toLocaleString("en-US")} calls               ${f(full.ms)}  longest event-loop block ${f(full.blockedMs)}`,
    `  ${CALLS.toLocaleString("en-US")} / ${(CALLS / 2).toLocaleString("en-US")} calls time ratio  ${(full.ms / half.ms).toFixed(2)}x` +
      "  (linear work: ~2x; quadratic: ~4x)",
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchWrites()) console.log(line);
}
