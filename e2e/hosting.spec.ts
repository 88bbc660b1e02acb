/**
 * The built app on a plain static host, as on GitHub Pages: dist/ served
 * under /deeptab/ by scripts/static-server.ts with no COOP/COEP headers (and
 * `no-store`, so nothing comes from the HTTP cache). Shows that the service
 * worker isolates an unused page after exactly one reload, that a page in
 * use (a run streaming, a draft typed, a key held in memory) is never
 * reloaded on its own but offered the reload once the run has ended (here
 * by Stop), and keeps its draft through it, that the demo agent runs
 * there, that after the first visit the app loads and answers with the
 * network off (the app shell precached, what the visit used cached on first
 * use), that where the server sends the headers nothing reloads, and
 * that the Content-Security-Policy is enforced without a single violation
 * from the app. Needs a build: `npm run build` (npm test runs it first);
 * DEEPTAB_DIST names another build folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, type Page } from "@playwright/test";
import { cspContent } from "../scripts/vite/shell/csp.ts";
import { ISOLATION_HEADERS } from "../scripts/vite/shell/isolation.ts";
import { manifestOf, type ShellManifest } from "../scripts/vite/shell/precache.ts";
import { startStaticServer, type StaticServer } from "../scripts/static-server.ts";
import { demoAnswer } from "../src/models/demo.ts";
import { AFTER_LOAD, connect, idle, send } from "./app.ts";
import { providerScope } from "./control.ts";
import { settled, test } from "./fixtures.ts";

const dist = resolve(process.env.DEEPTAB_DIST ?? "dist");
const BASE = "/deeptab/";

// These tests watch the isolation reload itself: navigations return at once, and each test settles where it evaluates.
test.use({ settleNavigations: false });

let plain: StaticServer;
let withHeaders: StaticServer;
let manifest: ShellManifest;

test.beforeAll(async () => {
  const sw = join(dist, "sw.js");
  if (!existsSync(join(dist, "index.html")) || !existsSync(sw)) {
    throw new Error(`e2e/hosting.spec.ts needs a production build with its service worker in ${dist}: run \`npm run build\` first.`);
  }
  const found = manifestOf(readFileSync(sw, "utf8"));
  if (!found) throw new Error(`${sw} has no precache manifest on its first line; rebuild with \`npm run build\`.`);
  manifest = found;
  plain = await startStaticServer({ root: dist, base: BASE });
  withHeaders = await startStaticServer({ root: dist, base: BASE, headers: { ...ISOLATION_HEADERS } });
});

test.afterAll(async () => {
  await Promise.all([plain?.close(), withHeaders?.close()]);
});

/** What a page did: each document's state at creation, main-frame navigations, and errors / CSP reports. */
interface Watch {
  loads: { isolated: boolean; controlled: boolean }[];
  navigations: string[];
  problems: string[];
}

const LOAD_MARK = "[hosting-test] load ";

async function watch(page: Page): Promise<Watch> {
  const w: Watch = { loads: [], navigations: [], problems: [] };
  await page.addInitScript((mark) => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
    );
    const state = { isolated: crossOriginIsolated, controlled: Boolean(navigator.serviceWorker?.controller) };
    console.info(mark + JSON.stringify(state));
  }, LOAD_MARK);
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) w.navigations.push(frame.url());
  });
  page.on("console", (msg) => {
    const text = msg.text();
    if (text.startsWith(LOAD_MARK)) w.loads.push(JSON.parse(text.slice(LOAD_MARK.length)) as Watch["loads"][number]);
    else if (msg.type() === "error" || /content security policy/i.test(text)) w.problems.push(`page: ${text}`);
  });
  page.on("pageerror", (err) => w.problems.push(`page error: ${err.message}`));
  page.on("worker", (worker) =>
    worker.on("console", (msg) => {
      if (msg.type() === "error" || /content security policy/i.test(msg.text())) w.problems.push(`worker: ${msg.text()}`);
    }),
  );
  return w;
}

/** The scope of the page's active service worker (call once the page has {@link settled}). */
function workerScope(page: Page): Promise<string> {
  return page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
}

/** Sends "hello" and waits for the demo's answer to the thread's n-th message (default: its first). */
async function runDemoTurn(page: Page, turn = 1): Promise<void> {
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill("hello");
  await composer.press("Enter");
  await expect(page.getByText(demoAnswer(turn)).first()).toBeVisible({ timeout: 20_000 });
}

test("without server headers: one reload isolates the page, and nothing reloads after that", async ({ page }) => {
  const w = await watch(page);
  await page.goto(plain.url);
  // The service worker's registration reloads the page by itself, once.
  await expect.poll(() => w.loads.length, { timeout: 20_000 }).toBe(2);
  expect(w.loads).toEqual([
    { isolated: false, controlled: false },
    { isolated: true, controlled: true },
  ]);
  expect(await settled(page)).toBe("isolated");
  expect(await workerScope(page)).toBe(plain.url);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe("function");
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute("content", cspContent());

  await runDemoTurn(page);
  expect(w.navigations).toHaveLength(2);

  // The user reloads: still isolated, and no second automatic reload.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  expect(await settled(page)).toBe("isolated");
  expect(w.loads).toHaveLength(3);
  expect(w.loads[2]).toEqual({ isolated: true, controlled: true });
  expect(w.navigations).toHaveLength(3);
  expect(w.problems).toEqual([]);
});

test("a page in use is never reloaded on its own: a run, a draft and a session key survive; the reload is offered after the run", async ({
  page,
}) => {
  // The service worker's script is held here (the page itself does not load it), so the page is in use before the
  // worker is active, however fast this machine is.
  const release = plain.hold(`${BASE}sw.js`);
  const w = await watch(page);
  const scope = providerScope("openai");
  // A long answer (60 chunks 500 ms apart), stopped once the worker is active.
  const chunks = ["The first part ", ...Array.from({ length: 58 }, (_, i) => `part ${i + 2}, `), "THE VERY END."];
  await scope.script([{ chunks, delayMs: 500 }]);
  try {
    await page.goto(plain.url);
    // A key for this session only (held in the worker's memory), a run streaming, a draft typed during it.
    await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "e2e-model", key: "sk-session-only" });
    await send(page, "Tell me a long story");
    await expect(page.getByTestId("assistant-live")).toContainText("The first part", { timeout: 15_000 });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("my unsent draft");
  } finally {
    release();
  }
  // The worker becomes active while the run streams: nothing reloads, nothing is offered while it runs.
  expect(await settled(page)).toBe("offered");
  expect(await workerScope(page)).toBe(plain.url);
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "true");
  await expect(page.getByTestId("isolation-offer")).toHaveCount(0);
  await page.getByTestId("cancel").click();
  await idle(page);
  await expect(page.getByTestId("assistant-message")).toContainText("The first part");
  expect(w.loads).toEqual([{ isolated: false, controlled: false }]);
  expect(w.navigations).toHaveLength(1);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);

  // The run has ended: the reload is offered, saying what it drops. Taking it keeps the draft and the thread.
  const offer = page.getByTestId("isolation-offer");
  await expect(offer).toContainText("Reload to enable", { timeout: 15_000 });
  await expect(offer).toContainText("a key you did not ask to remember must be entered again");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("my unsent draft");
  await offer.getByRole("button", { name: "Reload" }).click();
  await expect.poll(() => w.loads.length, { timeout: 20_000 }).toBe(2);
  expect(w.loads[1]).toEqual({ isolated: true, controlled: true });
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("my unsent draft", AFTER_LOAD);
  await expect(page.getByTestId("assistant-message")).toContainText("The first part", AFTER_LOAD);
  expect(await settled(page)).toBe("isolated");
  await expect(page.getByTestId("isolation-offer")).toHaveCount(0);
  expect(w.navigations).toHaveLength(2);
  expect((await scope.chatRequests()).length).toBe(1);
  expect(w.problems).toEqual([]);
});

test("after the first visit the app loads and runs with the network off: the shell precached, what it used cached on first use", async ({
  page,
  context,
}) => {
  const w = await watch(page);
  await page.goto(plain.url);
  await expect.poll(() => w.loads.length, { timeout: 20_000 }).toBe(2);
  expect(await settled(page)).toBe("isolated");

  // The first visit: one demo turn, and llama.cpp's wasm fetched once as the in-tab model's runtime fetches it.
  await runDemoTurn(page);
  const wasm = manifest.onDemand?.find((f) => /(^|\/)wllama-[\w-]+\.wasm$/.test(f));
  expect(wasm).toBeDefined();
  const wasmUrl = new URL(wasm ?? "", plain.url).href;
  expect(await page.evaluate(async (url) => (await fetch(url)).status, wasmUrl)).toBe(200);

  // The app shell is in one cache named by the build hash; what the visit used, in the cache of parts (its copy is
  // written beside the answer: polled).
  const readCaches = () =>
    page.evaluate(async () => {
      const names = (await caches.keys()).sort();
      const urls = async (name: string) => (await (await caches.open(name)).keys()).map((r) => r.url);
      return { names, shell: await urls(names.find((n) => n.startsWith("deeptab-shell-")) ?? ""), parts: await urls("deeptab-parts") };
    });
  await expect.poll(async () => (await readCaches()).parts).toContain(wasmUrl);
  const cached = await readCaches();
  expect(cached.names).toEqual(["deeptab-parts", `deeptab-shell-${manifest.version}`]);
  const precached = manifest.files.map((f) => new URL(f, plain.url).href);
  expect(cached.shell).toEqual(expect.arrayContaining(precached));
  expect(manifest.files).toContain("index.html");
  expect(manifest.files.some((f) => f.endsWith(".js"))).toBe(true);
  expect(manifest.files.some((f) => f.endsWith(".map") || f === "sw.js" || f.endsWith(".wasm"))).toBe(false);
  // Only parts of this build, and none the visit did not use (Python never ran).
  const onDemand = new Set((manifest.onDemand ?? []).map((f) => new URL(f, plain.url).href));
  expect(cached.parts.filter((url) => !onDemand.has(url))).toEqual([]);
  expect(cached.parts.filter((url) => url.includes("/pyodide/"))).toEqual([]);

  // The network goes away: the browser is offline, and the host drops every connection it still gets.
  await context.setOffline(true);
  plain.setDown(true);
  const seen = plain.requests.length;
  try {
    await page.reload();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(await settled(page)).toBe("isolated");
    expect(w.loads.at(-1)).toEqual({ isolated: true, controlled: true });
    // The thread's second turn, offline: the code the first one loaded answers from the cache of parts.
    await runDemoTurn(page, 2);

    // Every cached file answers offline; the wasm compiles from it (content type kept, CSP allows wasm).
    const offline = await page.evaluate(
      async (urls) => {
        const out: { url: string; status: number; bytes: number; compiled?: boolean }[] = [];
        for (const url of urls) {
          const response = await fetch(url);
          const entry = { url, status: response.status, bytes: (await response.clone().arrayBuffer()).byteLength };
          out.push(
            url.endsWith(".wasm")
              ? { ...entry, compiled: (await WebAssembly.compileStreaming(response)) instanceof WebAssembly.Module }
              : entry,
          );
        }
        return out;
      },
      [...precached, ...cached.parts],
    );
    for (const file of offline) {
      expect(file.status, file.url).toBe(200);
      expect(file.bytes, file.url).toBeGreaterThan(0);
      if (file.url.endsWith(".wasm")) expect(file.compiled, file.url).toBe(true);
    }
    expect(offline.filter((f) => f.url.endsWith(".wasm")).map((f) => f.url)).toEqual([wasmUrl]);
    test.info().annotations.push({
      type: "offline",
      description:
        `${precached.length} precached, ${cached.parts.length} cached on first use, ` +
        `${(offline.reduce((s, f) => s + f.bytes, 0) / 1024).toFixed(1)} KiB`,
    });

    // The browser checks sw.js for an update after a navigation (and when asked, as here). Chromium makes that
    // request outside the page's network emulation, so it may reach the host, which drops it: the check fails
    // and the page stays controlled by the worker it has.
    const update = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.update().then(
        () => "updated",
        () => "failed",
      );
    });
    expect(update).toBe("failed");
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    // Nothing else was asked of the host while offline: every file came from the caches.
    expect(plain.requests.slice(seen).filter((request) => request !== `GET ${BASE}sw.js`)).toEqual([]);
  } finally {
    plain.setDown(false);
    await context.setOffline(false);
  }
  expect(w.problems).toEqual([]);
});

test("when the reload does not isolate the page (a worker that adds no headers), it happens once and never loops", async ({ page }) => {
  // A stand-in sw.js that takes control but leaves responses as they are.
  const body = `self.addEventListener("install", () => self.skipWaiting());
    self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
    self.addEventListener("fetch", (e) => e.respondWith(fetch(e.request)));`;
  const server = await startStaticServer({ root: dist, base: BASE, overrides: { [`${BASE}sw.js`]: { type: "text/javascript", body } } });
  try {
    const w = await watch(page);
    const warnings: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "warning") warnings.push(msg.text());
    });
    await page.goto(server.url);
    await expect.poll(() => w.loads.length, { timeout: 20_000 }).toBe(2);
    expect(await settled(page)).toBe("not-isolated");
    expect(w.loads).toEqual([
      { isolated: false, controlled: false },
      { isolated: false, controlled: true },
    ]);
    expect(w.navigations).toHaveLength(2);
    expect(warnings).toEqual([expect.stringContaining("still not cross-origin isolated")]);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  } finally {
    await server.close();
  }
});

test("where the server sends COOP/COEP the page is isolated at once and never reloads", async ({ page }) => {
  const w = await watch(page);
  await page.goto(withHeaders.url);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  // The worker is still registered (for the offline shell), without a reload.
  expect(await settled(page)).toBe("isolated");
  expect(await workerScope(page)).toBe(withHeaders.url);
  expect(w.loads).toEqual([{ isolated: true, controlled: false }]);
  expect(w.navigations).toHaveLength(1);
  await runDemoTurn(page);
  expect(w.navigations).toHaveLength(1);
  expect(w.problems).toEqual([]);
});

test("the Content-Security-Policy is enforced: an injected inline script does not run", async ({ page }) => {
  const w = await watch(page);
  await page.goto(withHeaders.url);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  expect(await settled(page)).toBe("isolated");
  const ran = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "document.documentElement.dataset.inlineRan = 'yes'";
    document.head.append(script);
    await new Promise((ok) => setTimeout(ok, 100));
    return document.documentElement.dataset.inlineRan ?? "no";
  });
  expect(ran).toBe("no");
  // Reported twice: Chromium's own console error and the securitypolicyviolation event; nothing else.
  await expect
    .poll(() => [...w.problems].sort())
    .toEqual([
      expect.stringMatching(/^page: CSP violation: script-src-elem blocked inline/),
      expect.stringMatching(/^page: Executing inline script violates the following Content Security Policy directive 'script-src 'self'/),
    ]);
});
