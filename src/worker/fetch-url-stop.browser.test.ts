/**
 * Stop while `fetch_url` converts a flat 1.95 MB page, in the app's real agent worker (Chromium, a scripted
 * OpenAI-compatible server and the web pages host on loopback): the conversion runs on a worker of its own, so the
 * agent worker reads the Stop message at once and the run ends within 1 s (in the agent worker's thread the
 * conversion held it for seconds, and Stop waited for it).
 */
import { describe, expect, inject, it, vi } from "vitest";
import { serverScope } from "../testing/server-scope.ts";
import { WAIT } from "../testing/wait.ts";
import { messagesOf, pendingOf, workerPool } from "../testing/worker-pool.ts";

const { spawn } = workerPool();
const web = inject("webPages");

async function flatSent(): Promise<number> {
  return ((await (await fetch(`${web}/sent/flat.html`)).json()) as { count: number }).count;
}

describe("Stop during fetch_url's HTML → Markdown", () => {
  it("ends the run within 1 s while a flat 1.95 MB page is being converted", async () => {
    const url = `${web}/flat.html`;
    const server = serverScope(inject("providerServer"));
    await server.script([
      { when: { lastUserIncludes: "WARM", toolResults: 0 }, toolCalls: [{ name: "fetch_url", args: { url: `${web}/article.html` } }] },
      { when: { lastUserIncludes: "WARM", toolResults: 1 }, text: "Read." },
      { when: { lastUserIncludes: "FLAT", toolResults: 0 }, toolCalls: [{ name: "fetch_url", args: { url } }] },
    ]);
    const client = spawn();
    // A first page loads the conversion's code (the dev server transforms it on first use), so that Stop below lands
    // in the conversion itself, not in the loading of its code.
    await client.setThreadModel("t-warm", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl, contextWindow: 128_000 });
    const warm = await client.run("t-warm", { text: "WARM" });
    if (!warm.ok) throw new Error(warm.error.message);
    expect(await warm.value.done).toMatchObject({ status: "interrupted" });
    const warmPending = await pendingOf(client, "t-warm");
    const warmed = await client.resume("t-warm", [{ type: "approve" }], undefined, warmPending!.id);
    if (!warmed.ok) throw new Error(warmed.error.message);
    expect(await warmed.value.done).toMatchObject({ status: "complete" });

    await client.setThreadModel("t-flat", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl, contextWindow: 128_000 });
    const asked = await client.run("t-flat", { text: "FLAT" });
    if (!asked.ok) throw new Error(asked.error.message);
    expect(await asked.value.done).toMatchObject({ status: "interrupted" });
    const pending = await pendingOf(client, "t-flat");
    expect(pending?.actions[0]).toMatchObject({ name: "fetch_url", args: { url } });

    const before = await flatSent();
    const run = await client.resume("t-flat", [{ type: "approve" }], undefined, pending!.id);
    if (!run.ok) throw new Error(run.error.message);
    // The page has been sent whole: the worker reads it (2 MB over loopback), then converts it for seconds.
    await vi.waitFor(async () => expect(await flatSent()).toBeGreaterThan(before), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopAt = performance.now();
    expect(await client.cancel(run.value.runId)).toBe(true);
    expect(await run.value.done).toMatchObject({ type: "done", status: "cancelled" });
    const tookMs = performance.now() - stopAt;
    console.info(`Stop during fetch_url's conversion: the run ended ${Math.round(tookMs)} ms later`);
    expect(tookMs).toBeLessThan(1_000);
    const results = (await messagesOf(client, "t-flat")).filter((m) => m.role === "tool" && m.name === "fetch_url");
    expect(results.map((m) => m.content)).toEqual([expect.stringMatching(/stopped|was cancelled/)]);
  }, 120_000);
});
