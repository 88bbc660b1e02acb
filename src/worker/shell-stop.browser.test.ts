/**
 * A runaway command in the app's real agent worker (agent.worker.ts, demo
 * model, offline shell): `while true; do :; done` runs on the shell's own
 * Web Worker, so the agent worker keeps answering calls while it runs, and
 * Stop (cancel) ends the command and the run within a bound; the next command
 * runs on a fresh shell worker.
 */
import { describe, expect, it } from "vitest";
import { messagesOf, workerPool } from "../testing/worker-pool.ts";
import type { AgentEvent } from "../protocol/events.ts";

const { spawn } = workerPool();

/** Resolves with how long `call` took. */
async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

describe("a runaway shell command in the agent worker", () => {
  it("leaves the agent worker answering calls, and Stop ends it within a bound", async () => {
    const client = spawn();
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    // Warm the shell's worker (the dev server transforms the interpreter on first use).
    const warm = await client.run("t-warm", { text: "$ true" });
    if (!warm.ok) throw new Error(warm.error.message);
    expect(await warm.value.done).toMatchObject({ status: "complete" });

    let executing: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (executing = resolve));
    const onEvent = (e: AgentEvent) => {
      if (e.type === "messages" && e.messages.some((m) => m.toolCalls?.some((c) => c.name === "execute"))) executing();
    };
    const run = await client.run("t-loop", { text: "$ while true; do :; done" }, onEvent);
    if (!run.ok) throw new Error(run.error.message);
    await started;
    // For about a second of the loop, the agent worker answers other calls promptly.
    const until = performance.now() + 1_000;
    while (performance.now() < until) {
      expect(await timed(() => client.sandboxStatus())).toBeLessThan(2_000);
      expect(await timed(() => client.listThreads())).toBeLessThan(2_000);
    }
    const stopAt = performance.now();
    expect(await client.cancel(run.value.runId)).toBe(true);
    expect(await run.value.done).toMatchObject({ type: "done", status: "cancelled" });
    const stopMs = performance.now() - stopAt;
    expect(stopMs).toBeLessThan(3_000);

    // The thread is free, and the next command runs on a fresh shell worker.
    const next = await client.run("t-loop", { text: "$ echo after-stop > /after.txt" });
    if (!next.ok) throw new Error(next.error.message);
    expect(await next.value.done).toMatchObject({ status: "complete" });
    const results = (await messagesOf(client, "t-loop")).filter((m) => m.role === "tool" && m.name === "execute");
    expect(results.at(-1)?.content).toMatch(/\[Command succeeded with exit code 0\]/);
  }, 120_000);
});
