/**
 * Bench page (scripts/bench/runaway.ts): the app's real agent worker on the
 * demo model with the offline shell, approvals off. Each round starts
 * "$ while true; do :; done", lets the loop spin, times a call to the worker
 * while it spins, then presses Stop (`cancel`) and times how long until the
 * worker answers a call, until the run's `done` arrives, and the next command
 * ("$ true", on a fresh shell worker). The baseline: the same call while the
 * worker is idle.
 *
 * Open /scripts/bench/pages/runaway-stop.html on the Vite dev server and call
 * `window.benchRunawayStop()`; `npm run bench` does that in headless Chromium.
 */
import { connectAgent, type AgentClient } from "../../../src/page/client.ts";
import { spawnAgentWorker } from "../../../src/page/spawn.ts";
import type { AgentEvent } from "../../../src/protocol/events.ts";
import type { RunawayStopResult } from "./results.ts";

const ROUNDS = 5;
const SPIN_MS = 500;

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

async function turn(client: AgentClient, threadId: string, text: string, onEvent?: (e: AgentEvent) => void) {
  const run = await client.run(threadId, { text }, onEvent);
  if (!run.ok) throw new Error(run.error.message);
  return run.value;
}

async function bench(): Promise<RunawayStopResult> {
  const client = connectAgent(spawnAgentWorker());
  const out: RunawayStopResult = { idleCallMs: [], spinningCallMs: [], stopToAnswerMs: [], stopToDoneMs: [], nextCommandMs: [] };
  try {
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    await (
      await turn(client, "bench-runaway-warm", "$ true")
    ).done;
    for (let i = 0; i < 20; i++) out.idleCallMs.push(await timed(() => client.sandboxStatus()));
    for (let round = 0; round < ROUNDS; round++) {
      let executing: () => void = () => undefined;
      const started = new Promise<void>((resolve) => (executing = resolve));
      const run = await turn(client, `bench-runaway-${round}`, "$ while true; do :; done", (e) => {
        if (e.type === "messages" && e.messages.some((m) => m.toolCalls?.some((c) => c.name === "execute"))) executing();
      });
      await started;
      await new Promise((resolve) => setTimeout(resolve, SPIN_MS));
      out.spinningCallMs.push(await timed(() => client.sandboxStatus()));
      const stopAt = performance.now();
      const done = run.done.then(() => performance.now() - stopAt);
      if (!(await client.cancel(run.runId))) throw new Error("Stop found no run");
      await client.sandboxStatus();
      out.stopToAnswerMs.push(performance.now() - stopAt);
      out.stopToDoneMs.push(await done);
      out.nextCommandMs.push(await timed(async () => (await turn(client, `bench-runaway-${round}`, "$ true")).done));
    }
    return out;
  } finally {
    client.close();
  }
}

window.benchRunawayStop = bench;
