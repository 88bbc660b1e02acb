/**
 * A runaway shell command stopped by Stop: `while true; do :; done`, and how
 * long from Stop until the caller answers again.
 *
 * 1. Node, ShellBackend directly: on its own thread (worker_threads, the
 *    browser's thread code), Stop (the run's signal) after the loop spun
 *    half a second, timed to `execute` rejecting and to the next command's
 *    answer; against the same on the caller's thread (`threads: "inline"`,
 *    what every command did before), where Stop waits for the interpreter's
 *    deadline (2 s here; the default timeout is 120 s).
 * 2. Chromium, the app's agent worker (scripts/bench/pages/runaway-stop.ts):
 *    "$ while true; do :; done" demo turns stopped with `cancel`, timed to the
 *    worker answering a call and to the run's `done`, against the same call
 *    while idle; and the next command, on a fresh shell worker.
 *
 *   node --import tsx scripts/bench/runaway.ts
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright";
import { ShellBackend } from "../../src/backends/sandbox/shell.ts";
import { nodeShellThreads } from "../../src/testing/node-shell-threads.ts";
import { runPage, startServer } from "./browser.ts";
import type { RunawayStopResult } from "./pages/results.ts";
import { chromiumArgs, chromiumPath } from "../chromium.ts";

const ROUNDS = 5;
const SPIN_MS = 500;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t: number) => `${t.toFixed(0)} ms`;

/**
 * Stop after SPIN_MS of the loop: how late a 50 ms timer of the caller fired while the loop spun, ms until
 * execute rejects, and until the next command answers.
 */
async function stopOnce(threads: Parameters<typeof shellWith>[0]) {
  const stop = new AbortController();
  const shell = shellWith(threads, stop.signal);
  const running = shell.execute("while true; do :; done", 2).then(
    () => "finished",
    () => "stopped",
  );
  let late = 0;
  for (let spun = 0; spun < SPIN_MS; spun += 50) {
    const t = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    late = Math.max(late, performance.now() - t - 50);
  }
  const stopAt = performance.now();
  stop.abort();
  const how = await running;
  const rejectMs = performance.now() - stopAt;
  await shellWith(threads).execute("true");
  return { how, late, rejectMs, answerMs: performance.now() - stopAt };
}

function shellWith(threads: ReturnType<typeof nodeShellThreads> | "inline", signal?: AbortSignal): ShellBackend {
  return new ShellBackend({ threads, ...(signal ? { signal } : {}) });
}

async function nodeLines(): Promise<string[]> {
  const threads = nodeShellThreads();
  try {
    await shellWith(threads).execute("true");
    const own = [];
    for (let i = 0; i < ROUNDS; i++) own.push(await stopOnce(threads));
    const inline = await stopOnce("inline");
    const trueMs = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await shellWith(threads).execute("true");
      trueMs.push(performance.now() - t);
    }
    return [
      `  Node, ShellBackend (medians of ${ROUNDS}; Stop after ${SPIN_MS} ms of the loop, timeout 2 s):`,
      `    own thread: the caller's 50 ms timers ran up to ${ms(median(own.map((r) => r.late)))} late; ` +
        `Stop -> execute rejects ${ms(median(own.map((r) => r.rejectMs)))}, ` +
        `-> next command answered ${ms(median(own.map((r) => r.answerMs)))} (a fresh thread; "true" alone: ${ms(median(trueMs))})`,
      `    caller's thread (before): its 50 ms timers ran up to ${ms(inline.late)} late (blocked until the 2 s deadline), ` +
        `so Stop came when the command had ended (${inline.how}); ` +
        `timer lateness ratio ${(inline.late / Math.max(1, median(own.map((r) => r.late)))).toFixed(0)}x`,
    ];
  } finally {
    threads.close();
  }
}

async function browserLines(): Promise<string[]> {
  if (!existsSync(chromiumPath)) return [`  Chromium: skipped, no Chromium at ${chromiumPath}`];
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const { server, url } = await startServer();
  try {
    const r: RunawayStopResult = await runPage(browser, `${url}/scripts/bench/pages/runaway-stop.html`, async (page) => {
      await page.waitForFunction(() => typeof window.benchRunawayStop === "function");
      return page.evaluate(() => window.benchRunawayStop!());
    });
    const idle = median(r.idleCallMs);
    return [
      `  Chromium, the app's agent worker ("$ while true; do :; done" turns, medians of ${r.stopToAnswerMs.length}):`,
      `    a call while the loop spins ${ms(median(r.spinningCallMs))} (idle ${idle.toFixed(1)} ms); ` +
        `Stop -> worker answers ${ms(median(r.stopToAnswerMs))}, -> run done ${ms(median(r.stopToDoneMs))}; ` +
        `next "$ true" turn ${ms(median(r.nextCommandMs))}`,
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

export async function benchRunaway(): Promise<string[]> {
  return ["a runaway shell command stopped by Stop (while true; do :; done)", ...(await nodeLines()), ...(await browserLines())];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchRunaway()) console.log(line);
}
