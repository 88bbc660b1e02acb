/**
 * Stop during a runaway `js_eval` in the app's real agent worker (Chromium, cross-origin isolated, a scripted
 * OpenAI-compatible server on loopback): `while (true) {}` holds the agent worker's thread inside QuickJS, so the
 * cancel message cannot be read; the page's shared stop flag (client.ts sets it before it sends cancel) is read by
 * the interpreter's interrupt handler, and the run ends within a bound, long before js_eval's 30 s deadline. The
 * thread is free afterwards and the next js_eval runs.
 */
import { describe, expect, inject, it } from "vitest";
import { serverScope } from "../testing/server-scope.ts";
import { messagesOf, workerPool } from "../testing/worker-pool.ts";
import type { AgentEvent } from "../protocol/events.ts";

const { spawn } = workerPool();

describe("Stop during a runaway js_eval", () => {
  it("ends a synchronous loop on the agent worker's thread within a bound, through the page's shared stop flag", async () => {
    expect(globalThis.crossOriginIsolated).toBe(true);
    const server = serverScope(inject("providerServer"));
    await server.script([
      { when: { lastUserIncludes: "LOOP", toolResults: 0 }, toolCalls: [{ name: "js_eval", args: { code: "while (true) {}" } }] },
      // The stopped call's result stays in the thread: the next turn starts with one tool result.
      { when: { lastUserIncludes: "AFTER", toolResults: 1 }, toolCalls: [{ name: "js_eval", args: { code: "6 * 7" } }] },
      { when: { lastUserIncludes: "AFTER", toolResults: 2 }, text: "Forty-two." },
    ]);
    const client = spawn();
    await client.setThreadModel("t-js", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl, contextWindow: 128_000 });

    let evaluating: () => void = () => undefined;
    const called = new Promise<void>((resolve) => (evaluating = resolve));
    const onEvent = (e: AgentEvent) => {
      if (e.type === "messages" && e.messages.some((m) => m.toolCalls?.some((c) => c.name === "js_eval"))) evaluating();
    };
    const run = await client.run("t-js", { text: "LOOP" }, onEvent);
    if (!run.ok) throw new Error(run.error.message);
    await called;
    // Let the loop hold the thread for a moment, so Stop arrives while it does.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stopAt = performance.now();
    expect(await client.cancel(run.value.runId)).toBe(true);
    expect(await run.value.done).toMatchObject({ type: "done", status: "cancelled" });
    expect(performance.now() - stopAt).toBeLessThan(10_000);

    // The thread is free, and the next js_eval runs (the flag was cleared for the new run).
    const next = await client.run("t-js", { text: "AFTER" });
    if (!next.ok) throw new Error(next.error.message);
    expect(await next.value.done).toMatchObject({ status: "complete" });
    const results = (await messagesOf(client, "t-js")).filter((m) => m.role === "tool" && m.name === "js_eval");
    // The stopped call's result: the tool's "stopped" error, or the cancelled-call note when Stop won the race to the
    // checkpoint (both say the call did not complete); then the next run's answer.
    expect(results.map((m) => m.content)).toEqual([expect.stringMatching(/stopped|was cancelled/), expect.stringContaining("42")]);
  }, 120_000);
});
