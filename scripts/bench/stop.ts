/**
 * Stop while the slowest tools work (issue 39: goal ≤ 1 s each), in Chromium through the app's real agent worker
 * (scripts/bench/pages/stop.ts): from Stop (`cancel`) to the run's `done` while
 * - `fetch_url` converts a flat 1.95 MB page to Markdown (on the conversion's own worker, which Stop terminates);
 * - `js_eval` runs `while (true) {}` (QuickJS on the agent worker, stopped through the page's shared stop flag);
 * - `python3` runs `while True: pass` (Pyodide on the shell's own worker, which Stop terminates).
 * A scripted OpenAI-compatible server and the web pages host (src/testing/) run on loopback in this process.
 *
 *   node --import tsx scripts/bench/stop.ts
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright";
import { startScriptedServer } from "../../src/testing/provider-servers.ts";
import { startWebPagesServer } from "../../src/testing/web-pages.ts";
import { runPage, startServer } from "./browser.ts";
import type { StopLatencyResult } from "./pages/results.ts";
import { chromiumArgs, chromiumPath } from "../chromium.ts";

const GOAL_MS = 1_000;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function line(label: string, xs: readonly number[]): string {
  const worst = Math.max(...xs);
  const verdict = worst <= GOAL_MS ? "met" : "MISSED";
  const ms = (t: number) => `${t.toFixed(0).padStart(5)} ms`;
  return `  ${label.padEnd(44)} median ${ms(median(xs))}, max ${ms(worst)}  (goal ≤ ${GOAL_MS} ms: ${verdict})`;
}

export async function benchStop(): Promise<string[]> {
  const head = "Stop while the slowest tools work (Chromium, the app's agent worker; Stop -> run done)";
  if (!existsSync(chromiumPath)) return [head, `  skipped, no Chromium at ${chromiumPath}`];
  const provider = await startScriptedServer("openai", []);
  const web = await startWebPagesServer();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const { server, url } = await startServer();
  try {
    const r: StopLatencyResult = await runPage(browser, `${url}/scripts/bench/pages/stop.html`, async (page) => {
      await page.waitForFunction(() => typeof window.benchStop === "function");
      return page.evaluate((servers) => window.benchStop!(servers), { provider: provider.url, web: web.url });
    });
    return [
      `${head}, ${r.fetchUrlMs.length} rounds each:`,
      line("fetch_url, a flat 1.95 MB page (converting)", r.fetchUrlMs),
      line("js_eval, while (true) {}", r.jsEvalMs),
      line("python3, while True: pass", r.python3Ms),
    ];
  } finally {
    await browser.close();
    await server.close();
    await web.close();
    await provider.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const l of await benchStop()) console.log(l);
}
