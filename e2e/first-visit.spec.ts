/**
 * A light first visit (issue 44): on a host that serves the built app as GitHub Pages does (no COOP/COEP headers, so
 * the service worker's isolation reload happens; gzip for text; `max-age=600`), a first visit that sends one message
 * with the demo model puts at most FIRST_VISIT_GOAL bytes on the wire (counted by the host: status lines, headers and
 * bodies as sent), llama.cpp and Pyodide not among them; the page then reloads and answers with the network off.
 * Settings › Offline files lists what the browser keeps and clears the parts fetched on first use, which the next use
 * (in a page loaded afresh) fetches and keeps again. Needs a build: `npm run build`; DEEPTAB_DIST names another build folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, type Page } from "@playwright/test";
import { FIRST_VISIT_GOAL } from "../scripts/bundle-size.mjs";
import { ISOLATION_HEADERS } from "../scripts/vite/shell/isolation.ts";
import { manifestOf, type ShellManifest } from "../scripts/vite/shell/precache.ts";
import { startStaticServer, type StaticServer } from "../scripts/static-server.ts";
import { demoAnswer } from "../src/models/demo.ts";
import { PART_LABELS } from "../src/ui/runtime/offline-cache.ts";
import { axeViolations, idle, shot } from "./app.ts";
import { settled, test } from "./fixtures.ts";

const dist = resolve(process.env.DEEPTAB_DIST ?? "dist");
const BASE = "/deeptab/";

let manifest: ShellManifest;

test.beforeAll(() => {
  const sw = join(dist, "sw.js");
  const found = existsSync(sw) ? manifestOf(readFileSync(sw, "utf8")) : undefined;
  if (!found)
    throw new Error(`e2e/first-visit.spec.ts needs a production build with its service worker in ${dist}: run \`npm run build\` first.`);
  manifest = found;
});

/** A host like GitHub Pages, for one test (a fresh HTTP cache and service worker come with each test's browser context). */
async function pagesHost(use: (host: StaticServer) => Promise<void>, headers?: Record<string, string>): Promise<void> {
  const host = await startStaticServer({ root: dist, base: BASE, compress: true, cacheControl: "max-age=600", headers });
  try {
    await use(host);
  } finally {
    await host.close();
  }
}

async function demoTurn(page: Page, turn: number): Promise<void> {
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill("hello");
  await composer.press("Enter");
  await expect(page.getByText(demoAnswer(turn)).first()).toBeVisible({ timeout: 20_000 });
  await idle(page);
}

/** The files of the parts cache (what was cached on first use), relative to the app's folder. */
async function partsCached(page: Page, host: StaticServer): Promise<string[]> {
  const urls = await page.evaluate(async () =>
    (await caches.has("deeptab-parts")) ? (await (await caches.open("deeptab-parts")).keys()).map((r) => r.url) : [],
  );
  return urls.map((url) => url.slice(host.url.length));
}

/** The files of the build's first-use list the host served from request `from` on. */
function servedOnDemand(host: StaticServer, from = 0): string[] {
  const onDemand = new Set(manifest.onDemand ?? []);
  const paths = host.requests.slice(from).map((r) => r.replace(/^GET /, "").slice(BASE.length));
  return [...new Set(paths)].filter((f) => onDemand.has(f));
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

test("a first visit that sends one demo message puts at most 1 MB on the wire, and then the app reloads offline", async ({
  page,
  context,
}) => {
  await pagesHost(async (host) => {
    await page.goto(host.url);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(await settled(page)).toBe("isolated");
    await demoTurn(page, 1);
    // What the visit loaded (the first turn's code among it) is kept as it arrives; once it is, nothing more is on its way.
    expect(servedOnDemand(host).length).toBeGreaterThan(0);
    await expect.poll(() => partsCached(page, host)).toEqual(expect.arrayContaining(servedOnDemand(host)));
    const bytes = host.bytesSent();
    const fetched = host.requests.filter((r) => r.startsWith("GET ")).map((r) => r.slice(4));
    test.info().annotations.push({
      type: "first visit",
      description:
        `${kib(bytes)} on the wire (goal ${(FIRST_VISIT_GOAL / 1e6).toFixed(1)} MB), ${fetched.length} requests, ` +
        `precache ${manifest.files.length} files`,
    });
    expect(bytes).toBeLessThanOrEqual(FIRST_VISIT_GOAL);
    // The big parts were not downloaded: llama.cpp's runtime and Pyodide wait for their first use.
    expect(fetched.filter((path) => /wllama|\/pyodide\/|\.wasm$/.test(path))).toEqual([]);
    // Every file the service worker precaches was asked for (by the page or by the install), none twice from the
    // host: the install takes the hashed files the page has just loaded from the HTTP cache.
    for (const file of manifest.files.filter((f) => f.startsWith("assets/"))) {
      expect(
        fetched.filter((path) => path === `${BASE}${file}`),
        file,
      ).toHaveLength(1);
    }

    await context.setOffline(true);
    host.setDown(true);
    const seen = host.requests.length;
    try {
      await page.reload();
      await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
      expect(await settled(page)).toBe("isolated");
      await expect(page.getByText(demoAnswer(1)).first()).toBeVisible();
      await demoTurn(page, 2);
      // Only the browser's update check of sw.js tried the host.
      expect(host.requests.slice(seen).filter((r) => r !== `GET ${BASE}sw.js`)).toEqual([]);
    } finally {
      host.setDown(false);
      await context.setOffline(false);
    }
  });
});

test("Settings › Offline files lists the app and the parts used, and clears the parts, which the next use keeps again", async ({
  page,
}) => {
  await pagesHost(async (host) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    expect(await settled(page)).toBe("isolated");
    await demoTurn(page, 1);
    await expect.poll(() => partsCached(page, host)).toEqual(expect.arrayContaining(servedOnDemand(host)));

    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    const section = dialog.getByTestId("offline-files");
    const kept = section.getByRole("list", { name: "Kept for offline use" });
    await expect(kept.locator('li[data-part="shell"]')).toContainText(PART_LABELS.shell);
    await expect(kept.locator('li[data-part="shell"]')).toContainText(/\d+(\.\d)? [KM]B · \d+ files/);
    await expect(kept.locator('li[data-part="code"]')).toContainText(PART_LABELS.code);
    // Nothing the visit did not use: no llama.cpp, no Python.
    await expect(kept.locator('li[data-part="llama"], li[data-part="python"]')).toHaveCount(0);
    await expect(section.getByTestId("offline-total")).toContainText(/In all: \d/);
    expect(await axeViolations(page, '[data-testid="offline-files"]')).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot("offline-files-1280") });
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot("offline-files-390") });

    const clear = section.getByRole("button", { name: "Clear downloaded parts" });
    await clear.click();
    await expect(kept.locator("li")).toHaveCount(1);
    await expect(kept.locator('li[data-part="shell"]')).toBeVisible();
    await expect(clear).toBeDisabled();
    expect(await partsCached(page, host)).toEqual([]);
    expect(await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith("deeptab-shell-")).length)).toBe(1);

    // The app still opens (from its shell), and its next use fetches what it needs again (the page loaded afresh:
    // code a page has run stays in its memory) and keeps it.
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.reload();
    expect(await settled(page)).toBe("isolated");
    await demoTurn(page, 2);
    await expect.poll(async () => (await partsCached(page, host)).length).toBeGreaterThan(0);
  });
});

test("where the host sends COOP/COEP (no reload), what the first visit used once the worker took control is kept for offline too", async ({
  page,
  context,
}) => {
  await pagesHost(
    async (host) => {
      await page.goto(host.url);
      await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
      expect(await settled(page)).toBe("isolated");
      // The page loaded without a worker (a first visit), which takes control once active.
      await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
      const controlled = host.requests.length;
      await demoTurn(page, 1);
      expect(servedOnDemand(host, controlled).length).toBeGreaterThan(0);
      await expect.poll(() => partsCached(page, host)).toEqual(expect.arrayContaining(servedOnDemand(host, controlled)));

      await context.setOffline(true);
      host.setDown(true);
      try {
        await page.reload();
        await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
        await expect(page.getByText(demoAnswer(1)).first()).toBeVisible();
        await demoTurn(page, 2);
      } finally {
        host.setDown(false);
        await context.setOffline(false);
      }
    },
    { ...ISOLATION_HEADERS },
  );
});
