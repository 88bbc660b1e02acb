/**
 * The built app as a person meets it, in headless Chromium. Each figure is
 * given against its goal (issue 20's startup budget):
 *
 * 1. Bytes: the agent worker's startup JS (its entry chunk and static
 *    imports, gzip and raw) against the 250 KiB goal (the bundle check
 *    enforces a ratchet above it, scripts/bundle-size.mjs says why), and the
 *    page's first-load JS against its 150 KiB target.
 * 2. Navigation → first streamed token on a warm cache (the HTTP cache
 *    filled by an earlier load; no service worker), median of several loads,
 *    with the demo model and with an OpenAI-compatible loopback server
 *    (src/testing/provider-servers.ts), against the 500 ms goal; split into
 *    navigation → sent and sent → first token, with the worker's boot (its
 *    creation → its API ready, the worker's "deeptab:worker-ready" mark) and
 *    how long after navigation the page created it. Also the same with the
 *    loopback server on cold loads (no HTTP cache). Beside them, the floor:
 *    the same figures for a blank page whose worker runs a bare LangGraph
 *    loop playing the demo's first turn (scripts/bench/pages/floor/), so the
 *    goal can be read against what the browser and the libraries alone take
 *    on this machine. And Send → first token for both when the message is
 *    sent a moment after the worker is ready, as a person typing does.
 * 3. A first visit's bytes on the wire with one demo message, on a Pages-like host, against the 1 MB goal
 *    (scripts/bench/first-visit.ts).
 * 4. Opening a 1,000-message thread (imported from an export built in Node):
 *    time from navigation to its newest message rendered, and the JS heap,
 *    each as a ratio against a 10-message thread.
 *
 * Builds what it measures when dist/ is missing or older than its sources
 * (scripts/bench/app-build.ts); skipped, with a line saying why, without Chromium.
 *
 *   node --import tsx scripts/bench/app.ts
 */
import "fake-indexeddb/auto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from "playwright";
import { preview } from "vite";
import { startScriptedServer, type ScriptedServer } from "../../src/testing/provider-servers.ts";
import { IndexedDBSaver } from "../../src/storage/indexeddb-saver.ts";
import { createWorkerApi } from "../../src/worker/app.ts";
import { readerAgent } from "../../src/worker/runs/agents.ts";
import { createLayout } from "../../src/worker/layout.ts";
import { appBuild, floorBuild } from "./app-build.ts";
import { firstVisit } from "./first-visit.ts";
import { FIRST_LOAD_TARGET, WORKER_STARTUP_BUDGET, WORKER_STARTUP_GOAL, firstLoad, workerStartup } from "../bundle-size.mjs";
import { chromiumArgs, chromiumPath } from "../chromium.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const COLD_LOADS = 5;
const WARM_LOADS = 7;
/** How long after the worker is ready a "person who takes a moment" sends. */
const PAUSE_MS = 1_000;
/** Navigation → first streamed token on a warm cache, with the demo and a loopback provider. */
const FIRST_TOKEN_GOAL_MS = 500;
/** Issue 44: navigation → first token, and Send → first token, each at most this many times the floor's. */
const FLOOR_GOAL = 2;
/** Issue 44: opening a 1,000-message thread at most this many times a 10-message one. */
const BIG_THREAD_GOAL = 1.2;

/** "2.41x the floor (goal <= 2.00x, issue 44: over)". */
function againstGoal(ratio: number, goal: number, of = "the floor"): string {
  return `${ratio.toFixed(2)}x ${of} (goal <= ${goal.toFixed(2)}x, issue 44: ${ratio <= goal ? "within" : "over"})`;
}

function sizes(dist: string): string[] {
  const worker = workerStartup(dist);
  const page = firstLoad(dist);
  return [
    "startup bytes (gzip; what loads before anything runs: entry chunks and their static imports)",
    `  agent worker: ${kb(worker.gzip)} (${kb(worker.raw)} raw, ${worker.files.length} file${worker.files.length === 1 ? "" : "s"}) ` +
      `against the ${kb(WORKER_STARTUP_GOAL)} goal: ${(worker.gzip / WORKER_STARTUP_GOAL).toFixed(2)}x ` +
      `(the build fails above ${kb(WORKER_STARTUP_BUDGET)})`,
    `  page first-load JS: ${kb(page.gzip)} (${kb(page.raw)} raw, ${page.files.length} files) ` +
      `against the ${kb(FIRST_LOAD_TARGET)} target: ${(page.gzip / FIRST_LOAD_TARGET).toFixed(2)}x`,
  ];
}

/** Records when the first streamed text (or the answer) appears, in the page's own clock. */
const FIRST_TOKEN_PROBE = `
  addEventListener("DOMContentLoaded", () => {
    const seen = () => document.querySelector('[data-testid="assistant-live"], [data-testid="assistant-message"]');
    new MutationObserver((_, obs) => {
      if (!window.__sentAt) return;
      if (seen() && seen().textContent.trim()) { window.__firstTokenAt = performance.now(); obs.disconnect(); }
    }).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  });
`;

async function coldContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ serviceWorkers: "block" });
}

/**
 * Serves the build in `outDir` with Vite's preview server (`configFile`, or none) on a free loopback port, runs
 * `body` with its URL, and closes the server.
 */
async function served<T>(viteRoot: string, configFile: string | false, outDir: string, body: (url: string) => Promise<T>): Promise<T> {
  const server = await preview({
    root: viteRoot,
    configFile,
    build: { outDir },
    preview: { host: "127.0.0.1", port: 0 },
    logLevel: "warn",
  });
  try {
    const address = server.httpServer.address();
    if (!address || typeof address === "string") throw new Error("vite preview has no port");
    return await body(`http://127.0.0.1:${address.port}/`);
  } finally {
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}

export async function benchApp(): Promise<string[]> {
  const built = await appBuild(root);
  const lines = [`app bench: ${built.note}`, ...sizes(built.dir)];
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  } catch (cause) {
    return [...lines, `app bench in Chromium: skipped (${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)})`];
  }
  try {
    lines.push(...(await firstVisit(browser, built.dir)));
    await served(root, join(root, "vite.config.ts"), built.dir, async (appUrl) => {
      lines.push(...(await firstTokens(browser, appUrl)));
      lines.push(...(await bigThread(browser, appUrl)));
    });
  } finally {
    await browser.close();
  }
  return lines;
}

/** One timed load: when the message was sent and its first token shown (page clock), and the agent worker's boot. */
interface Load {
  sent: number;
  token: number;
  /** The worker's creation → its API ready (the worker's clock). */
  boot: number;
  /** Navigation → the worker's creation. */
  spawned: number;
}

/** Waits for the worker's "deeptab:worker-ready" mark: [its time origin, the mark's time]. A string: tsx would name the function. */
const READY_MARK = `new Promise((resolve) => {
  const look = () => {
    const mark = performance.getEntriesByName("deeptab:worker-ready")[0];
    if (mark) resolve([performance.timeOrigin, mark.startTime]);
    else setTimeout(look, 5);
  };
  look();
})`;

/** The agent worker's boot (its creation → its API ready), and when the page created it (ms after navigation). */
async function workerBoot(page: Page, worker: Promise<Worker>): Promise<{ boot: number; spawned: number }> {
  const [origin, boot] = (await (await worker).evaluate(READY_MARK)) as [number, number];
  return { boot, spawned: origin - (await page.evaluate(() => performance.timeOrigin)) };
}

/**
 * Loads the app (or the floor) in a new page of `context` (a new thread each time), sends a message as soon as the box
 * takes it (or `pause` ms after the worker is ready) and times its first token; `worker` is a part of the timed
 * worker's script URL.
 */
async function timedLoad(context: BrowserContext, url: string, cold: boolean, worker: string, pause: number): Promise<Load> {
  const page = await context.newPage();
  if (cold) await (await context.newCDPSession(page)).send("Network.setCacheDisabled", { cacheDisabled: true });
  // A new thread each time (the tab forgets its thread), so the first answer of the page is the one timed.
  await page.addInitScript(() => localStorage.removeItem("deeptab:thread"));
  await page.addInitScript(FIRST_TOKEN_PROBE);
  const spawned = page.waitForEvent("worker", { predicate: (w) => w.url().includes(worker), timeout: 30_000 });
  await page.goto(url, { waitUntil: "commit" });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  if (pause) {
    // A person who takes a moment to type: the worker is ready and idle before Send.
    await (await spawned).evaluate(READY_MARK);
    await page.waitForTimeout(pause);
  }
  const sent = await page.evaluate(() => ((window as { __sentAt?: number }).__sentAt = performance.now()));
  await box.press("Enter");
  await page.waitForFunction(() => (window as { __firstTokenAt?: number }).__firstTokenAt !== undefined, undefined, { timeout: 30_000 });
  const token = await page.evaluate(() => (window as { __firstTokenAt?: number }).__firstTokenAt!);
  const load = { sent, token, ...(await workerBoot(page, spawned)) };
  await page.close();
  return load;
}

/** Chooses the loopback server as the default model, through Settings (persisted in the context's IndexedDB). */
async function chooseLoopback(context: BrowserContext, url: string, provider: ScriptedServer): Promise<void> {
  const setup = await context.newPage();
  await setup.goto(url);
  await setup.getByRole("button", { name: "Settings" }).click();
  await setup.getByLabel("Provider").selectOption("openai-compatible");
  await setup.getByLabel("Base URL").fill(`${provider.url}/v1`);
  await setup.getByLabel("Model").fill("gpt-4o-mini");
  await setup.getByLabel("Context window").fill("32768");
  await setup.getByRole("button", { name: "Save" }).click();
  await setup.getByText("Saved.").waitFor();
  await setup.close();
}

/**
 * Median figures of `loads` timed loads after one that fills the cache (and, cold, warms the server); `worker` is
 * a part of the timed worker's script URL (the app's agent worker by default); `pause`, when given, is how long
 * after the worker is ready the message is sent (by default as soon as the box takes it).
 */
async function series(
  browser: Browser,
  url: string,
  cold: boolean,
  loads: number,
  { provider, worker = "agent.worker", pause = 0 }: { provider?: ScriptedServer; worker?: string; pause?: number } = {},
): Promise<Load> {
  const context = await coldContext(browser);
  try {
    if (provider) await chooseLoopback(context, url, provider);
    const timed: Load[] = [];
    for (let i = 0; i <= loads; i++) {
      const load = await timedLoad(context, `${url}?load=${i}`, cold, worker, pause);
      if (i > 0) timed.push(load);
    }
    const pick = (f: (l: Load) => number) => median(timed.map(f));
    return { sent: pick((l) => l.sent), token: pick((l) => l.token), boot: pick((l) => l.boot), spawned: pick((l) => l.spawned) };
  } finally {
    await context.close();
  }
}

function loadLines(title: string, l: Load, goal?: number): string[] {
  return [
    title,
    `  ${l.token.toFixed(0)} ms${goal ? ` against the ${goal} ms goal: ${(l.token / goal).toFixed(2)}x` : ""}` +
      ` (navigation → sent ${l.sent.toFixed(0)} ms, sent → first token ${(l.token - l.sent).toFixed(0)} ms); ` +
      `agent worker created ${l.spawned.toFixed(0)} ms after navigation, booted in ${l.boot.toFixed(0)} ms`,
  ];
}

async function firstTokens(browser: Browser, appUrl: string): Promise<string[]> {
  const provider = await startScriptedServer("openai", [], {
    defaultReply: { chunks: ["Hello", " from", " the", " loopback", " server", "."] },
  });
  try {
    const demo = await series(browser, appUrl, false, WARM_LOADS);
    const demoPaused = await series(browser, appUrl, false, WARM_LOADS, { pause: PAUSE_MS });
    const floor = await floorSeries(browser);
    const warm = await series(browser, appUrl, false, WARM_LOADS, { provider });
    const cold = await series(browser, appUrl, true, COLD_LOADS, { provider });
    const warmOf = `median of ${WARM_LOADS} loads, warm HTTP cache, no service worker`;
    return [
      ...loadLines(`navigation → first streamed token, demo model (${warmOf})`, demo, FIRST_TOKEN_GOAL_MS),
      ...loadLines(
        `navigation → first streamed token, the floor: a blank page and a bare LangGraph loop in a worker playing the demo's ` +
          `first turn (scripts/bench/pages/floor/, ${warmOf})`,
        floor.now,
      ),
      `  the demo: ${againstGoal(demo.token / floor.now.token, FLOOR_GOAL)}, +${(demo.token - floor.now.token).toFixed(0)} ms; ` +
        (floor.now.token < FIRST_TOKEN_GOAL_MS
          ? `the ${FIRST_TOKEN_GOAL_MS} ms goal leaves ${(FIRST_TOKEN_GOAL_MS - floor.now.token).toFixed(0)} ms above the floor ` +
            "for everything the app adds"
          : `the floor alone is above the ${FIRST_TOKEN_GOAL_MS} ms goal on this machine`),
      `Send → first streamed token on a page that has been open a moment (Send ${PAUSE_MS} ms after the worker is ready; ${warmOf})`,
      `  demo model ${(demoPaused.token - demoPaused.sent).toFixed(0)} ms; ` +
        `the floor ${(floor.paused.token - floor.paused.sent).toFixed(0)} ms; ` +
        `the demo: ${againstGoal((demoPaused.token - demoPaused.sent) / (floor.paused.token - floor.paused.sent), FLOOR_GOAL)}`,
      ...loadLines(`navigation → first streamed token, loopback OpenAI-compatible server (${warmOf})`, warm, FIRST_TOKEN_GOAL_MS),
      `  the loopback server: ${againstGoal(warm.token / floor.now.token, FLOOR_GOAL)} (the floor plays the demo's first turn)`,
      ...loadLines(`navigation → first streamed token, loopback server, cold (median of ${COLD_LOADS} loads, no HTTP cache)`, cold),
    ];
  } finally {
    await provider.close();
  }
}

/**
 * The floor page (built fresh, served by Vite's preview server): its median load, as the app's are timed, with the
 * message sent at once and `PAUSE_MS` after its worker is ready.
 */
async function floorSeries(browser: Browser): Promise<{ now: Load; paused: Load }> {
  const dir = await floorBuild(root);
  return served(join(root, "scripts/bench/pages/floor"), false, dir, async (url) => {
    const now = await series(browser, url, false, WARM_LOADS, { worker: "floor.worker" });
    return { now, paused: await series(browser, url, false, WARM_LOADS, { worker: "floor.worker", pause: PAUSE_MS }) };
  });
}

/** A thread export with `turns` user/assistant pairs (every fifth answer calls a tool), built in Node over fake-indexeddb. */
async function threadExport(turns: number): Promise<string> {
  const db = `bench-${crypto.randomUUID()}`;
  const saver = new IndexedDBSaver(`${db}-checkpoints`);
  const layout = createLayout(db);
  const api = createWorkerApi({ storage: { saver, layout }, notify: () => undefined });
  const reader = readerAgent({ checkpointer: saver, store: layout.store, backend: () => layout.backend(layout.workspace) });
  const messages: BaseMessage[] = [];
  for (let t = 0; t < turns; t++) {
    messages.push(new HumanMessage(`Question ${t}: what about item ${t}?`));
    if (t % 5 === 0) {
      messages.push(
        new AIMessage({ content: "", tool_calls: [{ id: `call_${t}`, name: "read_file", args: { file_path: `/notes/${t}.md` } }] }),
      );
      messages.push(new ToolMessage({ content: `     1\tnote ${t}`, tool_call_id: `call_${t}`, name: "read_file" }));
    }
    messages.push(
      new AIMessage(
        `Answer **${t}**: a short paragraph with a list.\n\n- first point about ${t}\n- second point\n\n\`\`\`ts\nconst x = ${t};\n\`\`\``,
      ),
    );
  }
  const id = `bench-${turns}`;
  await reader.updateState({ configurable: { thread_id: id } }, { messages }, "after_model");
  const now = new Date().toISOString();
  await layout.store.put(["threads"], id, {
    id,
    title: `${messages.length} messages`,
    createdAt: now,
    updatedAt: now,
    messageCount: turns * 2,
  });
  const exported = await api.exportThread(id);
  if (!exported.ok) throw new Error(exported.error.message);
  const dir = await mkdtemp(join(tmpdir(), "deeptab-bench-"));
  const file = join(dir, `${id}.json`);
  await writeFile(file, JSON.stringify(exported.value));
  return file;
}

async function openThread(browser: Browser, appUrl: string, file: string, lastText: string): Promise<{ ms: number; heap: number }> {
  const context = await coldContext(browser);
  const page = await context.newPage();
  await page.goto(appUrl);
  await page.getByTestId("import-input").setInputFiles(file);
  await page.getByText(lastText, { exact: false }).first().waitFor({ timeout: 60_000 });
  // The imported thread is now the tab's thread: time a fresh navigation that opens it.
  const times: number[] = [];
  let heap = 0;
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await page.getByText(lastText, { exact: false }).first().waitFor({ timeout: 60_000 });
    times.push(await page.evaluate(() => performance.now()));
    const cdp = await context.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    heap = ((await cdp.send("Runtime.getHeapUsage")) as { usedSize: number }).usedSize;
  }
  await context.close();
  return { ms: median(times), heap };
}

async function bigThread(browser: Browser, appUrl: string): Promise<string[]> {
  const small = await threadExport(5);
  const big = await threadExport(500);
  const base = await openThread(browser, appUrl, small, "Answer 4");
  const large = await openThread(browser, appUrl, big, "Answer 499");
  return [
    "opening a thread (navigation → newest message rendered; JS heap of the page after GC; medians of 3 reloads)",
    `  1,000 messages (+100 tool calls): ${large.ms.toFixed(0)} ms, heap ${(large.heap / 1024 / 1024).toFixed(1)} MB   ` +
      `10 messages: ${base.ms.toFixed(0)} ms, heap ${(base.heap / 1024 / 1024).toFixed(1)} MB   ` +
      `ratio ${(large.ms / base.ms).toFixed(2)}x time, ${(large.heap / base.heap).toFixed(2)}x heap`,
    `  time: ${againstGoal(large.ms / base.ms, BIG_THREAD_GOAL, "the 10-message thread")}`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) for (const line of await benchApp()) console.log(line);
