/**
 * The built app (dist/) as a person meets it, in headless Chromium:
 *
 * 1. First-load JS: the gzip size of the scripts index.html loads (its entry
 *    and modulepreloads), against the 150 KB target; the agent worker and the
 *    highlighter load later and are listed apart.
 * 2. Navigation → first streamed token, median of cold loads (HTTP cache
 *    disabled, no service worker), with an OpenAI-compatible loopback server
 *    (src/testing/provider-servers.ts) streaming the answer; split into
 *    navigation → composer ready and send → first token.
 * 3. Opening a 1,000-message thread (imported from an export built in Node):
 *    time from navigation to its newest message rendered, and the JS heap,
 *    each as a ratio against a 10-message thread.
 *
 * Needs `npm run build` first; skipped (with a line saying why) without
 * dist/ or Chromium.
 *
 *   node --import tsx scripts/bench-app.ts
 */
import "fake-indexeddb/auto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { chromium, type Browser, type BrowserContext } from "playwright";
import { preview, type PreviewServer } from "vite";
import { startScriptedServer } from "../src/testing/provider-servers.ts";
import { IndexedDBSaver } from "../src/storage/indexeddb-saver.ts";
import { createWorkerApi } from "../src/worker/app.ts";
import { readerAgent } from "../src/worker/agents.ts";
import { createLayout } from "../src/worker/layout.ts";
import { chromiumArgs, chromiumPath } from "./chromium.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const COLD_LOADS = 5;

function firstLoadJs(): string[] {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]!);
  const local = refs.filter((r) => !/^https?:/.test(r)).map((r) => r.replace(/^\.?\//, ""));
  const sizes = local.map((r) => gzipSync(readFileSync(join(dist, r))).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  const assets = readdirSync(join(dist, "assets"));
  const worker = assets.filter((f) => /^agent\.worker-.*\.js$/.test(f)).map((f) => gzipSync(readFileSync(join(dist, "assets", f))).length);
  const core = assets.filter((f) => /^core-.*\.js$/.test(f)).map((f) => gzipSync(readFileSync(join(dist, "assets", f))).length);
  return [
    `first-load JS (gzip, what index.html loads: ${local.length} script${local.length === 1 ? "" : "s"})`,
    `  ${kb(total)} against a 150 KB target (${((total / (150 * 1024)) * 100).toFixed(0)}%); ` +
      `loaded later: agent worker ${kb(worker.reduce((a, b) => a + b, 0))}, ` +
      `highlighter core ${kb(core.reduce((a, b) => a + b, 0))} (+ one chunk per language)`,
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

export async function benchApp(): Promise<string[]> {
  if (!existsSync(join(dist, "index.html"))) return ["app bench: skipped (no dist/: run `npm run build` first)"];
  const lines = firstLoadJs();
  let browser: Browser | undefined;
  let app: PreviewServer | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  } catch (cause) {
    return [...lines, `app bench in Chromium: skipped (${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)})`];
  }
  try {
    app = await preview({ root, configFile: join(root, "vite.config.ts"), preview: { host: "127.0.0.1", port: 0 }, logLevel: "warn" });
    const address = app.httpServer.address();
    if (!address || typeof address === "string") throw new Error("vite preview has no port");
    const appUrl = `http://127.0.0.1:${address.port}/`;
    lines.push(...(await navigationToFirstToken(browser, appUrl)));
    lines.push(...(await bigThread(browser, appUrl)));
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => app?.httpServer.close(() => resolve()) ?? resolve());
  }
  return lines;
}

async function navigationToFirstToken(browser: Browser, appUrl: string): Promise<string[]> {
  const provider = await startScriptedServer("openai", [], {
    defaultReply: { chunks: ["Hello", " from", " the", " loopback", " server", "."] },
  });
  const loads: Array<{ ready: number; token: number }> = [];
  try {
    const context = await coldContext(browser);
    // Settings persist in the context's IndexedDB: choose the provider once, then load cold.
    const setup = await context.newPage();
    await setup.goto(appUrl);
    await setup.getByRole("button", { name: "Settings" }).click();
    await setup.getByLabel("Provider").selectOption("openai-compatible");
    await setup.getByLabel("Base URL").fill(`${provider.url}/v1`);
    await setup.getByLabel("Model").fill("gpt-4o-mini");
    await setup.getByLabel("Context window").fill("32768");
    await setup.getByRole("button", { name: "Save" }).click();
    await setup.getByText("Saved.").waitFor();
    await setup.close();
    for (let i = 0; i <= COLD_LOADS; i++) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await page.addInitScript(FIRST_TOKEN_PROBE);
      await page.goto(`${appUrl}?cold=${i}`);
      // A new thread each time, so the first answer of the page is the one timed.
      await page.getByTestId("new-thread").click();
      const box = page.getByRole("textbox", { name: "Message" });
      await box.waitFor();
      const ready = await page.evaluate(() => performance.now());
      await box.fill(`cold load ${i}`);
      await page.evaluate(() => ((window as { __sentAt?: number }).__sentAt = performance.now()));
      await box.press("Enter");
      await page.waitForFunction(() => (window as { __firstTokenAt?: number }).__firstTokenAt !== undefined, undefined, {
        timeout: 30_000,
      });
      const token = await page.evaluate(() => (window as { __firstTokenAt?: number }).__firstTokenAt!);
      if (i > 0) loads.push({ ready, token }); // the first load warms the preview server
      await page.close();
    }
    await context.close();
  } finally {
    await provider.close();
  }
  const total = median(loads.map((l) => l.token));
  const ready = median(loads.map((l) => l.ready));
  return [
    "navigation → first streamed token, loopback OpenAI-compatible server " +
      `(median of ${COLD_LOADS} cold loads: no HTTP cache, no service worker)`,
    `  ${total.toFixed(0)} ms in all: navigation → composer ready ${ready.toFixed(0)} ms, ` +
      `send → first token ${median(loads.map((l) => l.token - l.ready)).toFixed(0)} ms (including typing)`,
  ];
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
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) for (const line of await benchApp()) console.log(line);
