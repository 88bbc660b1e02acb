/**
 * Bench page (scripts/bench/stop.ts): the app's real agent worker on a scripted OpenAI-compatible server (loopback),
 * the offline shell, approvals of commands off (fetch_url's question is answered here). Each round starts one of the
 * slowest tools, lets it work, presses Stop (`cancel`) and times until the run's `done`:
 * - `fetch_url` on a flat 1.95 MB page (the web pages host's /flat.html), stopped 300 ms after the page was sent,
 *   mid-conversion (the conversion takes seconds);
 * - `js_eval` running `while (true) {}`, stopped after 500 ms of the loop;
 * - `python3 -c "while True: pass"` in the offline shell, stopped after 500 ms of the loop (Python is loaded on the
 *   shell's thread by a `python3 -c pass` turn first: Stop replaces that thread, and the next round loads it again).
 *
 * Open /scripts/bench/pages/stop.html on the Vite dev server and call `window.benchStop({ provider, web })`;
 * `npm run bench` does that in headless Chromium.
 */
import { serverScope } from "../../../src/testing/server-scope.ts";
import { connectAgent, type AgentClient, type RunHandle } from "../../../src/page/client.ts";
import { spawnAgentWorker } from "../../../src/page/spawn.ts";
import type { AgentEvent } from "../../../src/protocol/events.ts";
import type { StopLatencyResult } from "./results.ts";

const ROUNDS = 3;
const SPIN_MS = 500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a turn, answering fetch_url's question (the app always asks) with approve; resolves with the run. */
async function start(client: AgentClient, threadId: string, text: string, onEvent?: (e: AgentEvent) => void) {
  const run = await client.run(threadId, { text }, onEvent);
  if (!run.ok) throw new Error(run.error.message);
  return run.value;
}

async function approve(client: AgentClient, threadId: string, onEvent?: (e: AgentEvent) => void) {
  const pending = (await client.getThread(threadId)).approval;
  if (!pending) throw new Error(`${threadId}: no question to answer`);
  const run = await client.resume(threadId, [{ type: "approve" }], onEvent, pending.id);
  if (!run.ok) throw new Error(run.error.message);
  return run.value;
}

/** Resolves when the run calls `tool`. */
function calling(tool: string): { onEvent: (e: AgentEvent) => void; called: Promise<void> } {
  let resolve: () => void = () => undefined;
  const called = new Promise<void>((r) => (resolve = r));
  const onEvent = (e: AgentEvent) => {
    if (e.type === "messages" && e.messages.some((m) => m.toolCalls?.some((c) => c.name === tool))) resolve();
  };
  return { onEvent, called };
}

/** Stop now: ms until the run's `done` (which must say cancelled). */
async function stop(client: AgentClient, run: RunHandle): Promise<number> {
  const stopAt = performance.now();
  if (!(await client.cancel(run.runId))) throw new Error("Stop found no run");
  const done = await run.done;
  const took = performance.now() - stopAt;
  if (done.type !== "done" || done.status !== "cancelled") throw new Error(`the stopped run ended: ${JSON.stringify(done)}`);
  return took;
}

async function bench(servers: { provider: string; web: string }): Promise<StopLatencyResult> {
  const server = serverScope(servers.provider);
  const flat = `${servers.web}/flat.html`;
  const flatSent = async () => ((await (await fetch(`${servers.web}/sent/flat.html`)).json()) as { count: number }).count;
  await server.script(
    Array.from({ length: ROUNDS + 1 }, () => [
      {
        when: { lastUserIncludes: "WARM", toolResults: 0 },
        toolCalls: [{ name: "fetch_url", args: { url: `${servers.web}/article.html` } }],
      },
      { when: { lastUserIncludes: "WARM", toolResults: 1 }, toolCalls: [{ name: "js_eval", args: { code: "6 * 7" } }] },
      { when: { lastUserIncludes: "WARM", toolResults: 2 }, text: "Warm." },
      { when: { lastUserIncludes: "FETCH", toolResults: 0 }, toolCalls: [{ name: "fetch_url", args: { url: flat } }] },
      { when: { lastUserIncludes: "LOOP", toolResults: 0 }, toolCalls: [{ name: "js_eval", args: { code: "while (true) {}" } }] },
    ]).flat(),
  );
  const client = connectAgent(spawnAgentWorker());
  const out: StopLatencyResult = { fetchUrlMs: [], jsEvalMs: [], python3Ms: [] };
  try {
    await client.updateSettings({ sandbox: "shell", approveExecute: false });
    // The conversion's and QuickJS's code loaded (the dev server transforms them on first use).
    const model = { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl, contextWindow: 128_000 } as const;
    await client.setThreadModel("bench-stop-warm", model);
    await (
      await start(client, "bench-stop-warm", "WARM")
    ).done;
    await (
      await approve(client, "bench-stop-warm")
    ).done;
    for (let round = 0; round < ROUNDS; round++) {
      const fetchThread = `bench-stop-fetch-${round}`;
      await client.setThreadModel(fetchThread, model);
      await (
        await start(client, fetchThread, "FETCH")
      ).done;
      const before = await flatSent();
      const fetching = await approve(client, fetchThread);
      while ((await flatSent()) === before) await pause(20);
      await pause(300);
      out.fetchUrlMs.push(await stop(client, fetching));

      const jsThread = `bench-stop-js-${round}`;
      await client.setThreadModel(jsThread, model);
      const js = calling("js_eval");
      const looping = await start(client, jsThread, "LOOP", js.onEvent);
      await js.called;
      await pause(SPIN_MS);
      out.jsEvalMs.push(await stop(client, looping));

      // The demo model runs "$ <command>" turns; Python loaded on the shell's (fresh) thread first.
      const loaded = await (await start(client, `bench-stop-py-warm-${round}`, "$ python3 -c pass")).done;
      if (loaded.type !== "done" || loaded.status !== "complete") throw new Error(`python3 -c pass: ${JSON.stringify(loaded)}`);
      const py = calling("execute");
      const spinning = await start(client, `bench-stop-py-${round}`, `$ python3 -c "while True: pass"`, py.onEvent);
      await py.called;
      await pause(SPIN_MS);
      out.python3Ms.push(await stop(client, spinning));
    }
    return out;
  } finally {
    client.close();
  }
}

window.benchStop = bench;
