/**
 * Two browser sections, in headless Chromium (scripts/chromium.ts) on pages
 * served by Vite's dev server started here with the repo's vite.config.ts
 * (COOP/COEP come from its `server.headers`). The pages are
 * scripts/bench/pages/*.html, under the Vite root, so no `server.fs` change
 * is needed; `vite build` never sees them (its only input is index.html).
 *
 * 1. ChatWllama overhead: tokens/s of a greedy chat completion through
 *    ChatWllama (`invoke`) against wllama's createChatCompletion streamed
 *    directly, same loaded tiny GGUF, same prompt and max tokens, alternating
 *    runs after a warm-up (scripts/bench/pages/chat-wllama.ts).
 * 2. execute through the agent worker: "$ true" demo turns in the app's
 *    worker (offline shell over the thread's IndexedDB workspace, approvals
 *    off). The execute call's own time as the harness records it (the tool
 *    result's `durationMs`) against `ShellBackend.execute("true")` timed on
 *    the page, and the whole turn against a plain demo turn (write_file),
 *    both also without the demo model's 25 ms pauses between streamed chunks
 *    (scripts/bench/pages/execute-worker.ts).
 *
 * Skipped, with a line saying why, when Chromium is missing or does not start.
 *
 *   node --import tsx scripts/bench/browser.ts      (BENCH_LOG=1: Vite's log and the raw numbers)
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright";
import { createServer, type ViteDevServer } from "vite";
import type { ExecuteBenchResult, GenerationRun, TurnRun, WllamaBenchResult } from "./pages/results.ts";
import { chromiumArgs, chromiumPath } from "../chromium.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const verbose = process.env.BENCH_LOG === "1";
const TITLES = ["ChatWllama vs wllama createChatCompletion", "execute through the agent worker"];

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const ms = (t: number, digits = 0) => `${t.toFixed(digits)} ms`;

export async function startServer(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    root,
    configFile: `${root}vite.config.ts`,
    // Its own dependency cache, so the bench never re-optimizes under someone's running dev server.
    cacheDir: "node_modules/.vite/bench",
    // Crawl only the bench pages for dependencies, plus what the worker imports that they do not
    // (on top of vite.config.ts's list), so nothing is discovered, and the page reloaded, mid-run.
    optimizeDeps: { entries: ["scripts/bench/pages/*.html"], include: ["@langchain/langgraph-checkpoint"] },
    logLevel: verbose ? "info" : "warn",
    clearScreen: false,
    server: { host: "127.0.0.1", port: 0, hmr: false, watch: null },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("the Vite dev server has no port");
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/** Opens a bench page, waits for its `window` function and runs it; page errors are added to a failure's message. */
export async function runPage<T>(browser: Browser, url: string, run: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  try {
    await page.goto(url);
    return await run(page);
  } catch (err) {
    const detail = errors.length ? ` (page: ${errors.slice(0, 3).join("; ")})` : "";
    throw new Error(`${url}: ${err instanceof Error ? err.message : String(err)}${detail}`, { cause: err });
  } finally {
    await page.close();
  }
}

function wllamaLines(r: WllamaBenchResult): string[] {
  const tokS = (g: GenerationRun) => (g.completionTokens / g.ms) * 1000;
  const counts = (runs: readonly GenerationRun[]) =>
    `${[...new Set(runs.map((g) => g.completionTokens))].join("/")} tokens (${[...new Set(runs.map((g) => g.finishReason))].join("/")})`;
  const direct = median(r.direct.map(tokS));
  const chat = median(r.chatWllama.map(tokS));
  const pairs = r.direct.map((d, i) => tokS(r.chatWllama[i]!) / tokS(d)).sort((a, b) => a - b);
  return [
    `${TITLES[0]} (tiny GGUF ${(r.modelBytes / 1024).toFixed(0)} KB, ${r.threads} thread${r.threads === 1 ? "" : "s"}, ` +
      `temperature 0, max_tokens ${r.maxTokens}; ` +
      `${r.direct.length} alternating runs each after a warm-up, medians)`,
    `  per run: direct ${counts(r.direct)}, ChatWllama ${counts(r.chatWllama)}; prompt ${r.promptTokens} tokens; ` +
      `same text both ways: ${r.sameText ? "yes" : "NO"}; model load ${ms(r.loadMs)}`,
    `  direct ${direct.toFixed(0)} tok/s (${ms(median(r.direct.map((g) => g.ms)))})   ChatWllama ${chat.toFixed(0)} tok/s ` +
      `(${ms(median(r.chatWllama.map((g) => g.ms)))})   ratio ChatWllama/direct ${(chat / direct).toFixed(2)}x ` +
      `(run pairs ${pairs[0]!.toFixed(2)}-${pairs.at(-1)!.toFixed(2)}x)`,
  ];
}

function executeLines(r: ExecuteBenchResult): string[] {
  const toolMs = r.execute.map((t) => t.toolMs);
  const worker = mean(toolMs);
  const memory = median(r.memoryMs);
  const indexedDB = median(r.indexedDBMs);
  const pause = median(r.timerMs);
  const wall = (runs: readonly TurnRun[]) => median(runs.map((t) => t.wallMs));
  /** A turn without the demo model's scripted pauses between streamed chunks (each as long as the page's timer took). */
  const work = (runs: readonly TurnRun[]) => median(runs.map((t) => t.wallMs - t.pauses * pause));
  const turnText = (runs: readonly TurnRun[]) =>
    `${ms(wall(runs))} wall, ${ms(work(runs))} without its ${median(runs.map((t) => t.pauses))} chunk pauses`;
  return [
    `${TITLES[1]}: "$ ${r.command}" (offline shell over the thread's IndexedDB workspace, approvals off; ` +
      `${r.execute.length} such turns and ${r.plain.length} plain ones, interleaved, after a warm-up)`,
    `  execute in the worker (tool result durationMs, whole ms) mean ${ms(worker, 1)}, median ${ms(median(toolMs))}   ` +
      `ShellBackend.execute on the page (medians of ${r.memoryMs.length}): MemoryFileStore ${ms(memory, 2)}, ` +
      `IndexedDB workspace ${ms(indexedDB, 2)}   ratio worker/page ${(worker / memory).toFixed(0)}x ` +
      `(over IndexedDB ${(worker / indexedDB).toFixed(0)}x)`,
    `  "$ ${r.command}" turn ${turnText(r.execute)}; plain write_file turn ${turnText(r.plain)}; ` +
      `ratio without pauses ${(work(r.execute) / work(r.plain)).toFixed(2)}x`,
    `  (a pause is setTimeout(${r.chunkDelayMs} ms), measured on the page at ${ms(pause, 1)}; the execute figures exclude pauses: ` +
      `durationMs covers only the tool call)`,
  ];
}

export async function benchBrowser(): Promise<string[]> {
  const skipped = (why: string) => [`${TITLES[0]}: skipped, ${why}`, "", `${TITLES[1]}: skipped, ${why}`];
  if (!existsSync(chromiumPath)) return skipped(`no Chromium at ${chromiumPath} (set DEEPTAB_CHROMIUM)`);
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  } catch (err) {
    return skipped(`Chromium at ${chromiumPath} did not start (${(err instanceof Error ? err.message : String(err)).split("\n")[0]})`);
  }
  let server: ViteDevServer | undefined;
  try {
    const started = await startServer();
    server = started.server;
    const wllama = await runPage(browser, `${started.url}/scripts/bench/pages/chat-wllama.html`, async (page) => {
      await page.waitForFunction(() => typeof window.benchChatWllama === "function");
      return page.evaluate(() => window.benchChatWllama!());
    });
    const execute = await runPage(browser, `${started.url}/scripts/bench/pages/execute-worker.html`, async (page) => {
      await page.waitForFunction(() => typeof window.benchExecuteWorker === "function");
      return page.evaluate(() => window.benchExecuteWorker!());
    });
    if (verbose) console.log(JSON.stringify({ wllama, execute }));
    return [...wllamaLines(wllama), "", ...executeLines(execute)];
  } finally {
    await browser.close();
    await server?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchBrowser()) console.log(line);
}
