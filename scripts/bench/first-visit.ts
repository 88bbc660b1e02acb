/**
 * The app bench's first-visit figure (issue 44): the bytes a first visit puts on the wire when it sends one message
 * with the demo model, on a host that serves the build as GitHub Pages does (no COOP/COEP headers, so the service
 * worker's isolation reload happens; gzip for text; `max-age=600`), counted by that host, in a fresh browser context
 * each time; against the 1 MB goal, beside what the service worker precaches (gzip) and its budget.
 * e2e/first-visit.spec.ts holds the same visit to the goal.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright";
import { demoAnswer } from "../../src/models/demo.ts";
import { PARTS_CACHE } from "../../src/ui/runtime/offline-cache.ts";
import { FIRST_VISIT_GOAL, PRECACHE_BUDGET } from "../bundle-size.mjs";
import { startStaticServer } from "../static-server.ts";
import { manifestOf } from "../vite/shell/precache.ts";
import { gzipSync } from "node:zlib";

const VISITS = 3;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** One first visit in a fresh context: the bytes the host sent and its request count. */
async function visit(browser: Browser, dist: string): Promise<{ bytes: number; requests: number }> {
  const host = await startStaticServer({ root: dist, base: "/deeptab/", compress: true, cacheControl: "max-age=600" });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(host.url);
    // The service worker's isolation reload: the page settles isolated, on its second load.
    await page.waitForFunction(() => document.documentElement.getAttribute("data-isolation") === "isolated", null, { timeout: 60_000 });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.waitFor({ timeout: 60_000 });
    await box.fill("hello");
    await box.press("Enter");
    await page.getByText(demoAnswer(1)).first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="messages"]')?.getAttribute("data-running") === "false");
    // What the turn loaded is kept in the parts cache as it arrives: once it is there, the visit's downloads are done.
    await page.waitForFunction(
      async (name) => (await caches.has(name)) && (await (await caches.open(name)).keys()).length > 0,
      PARTS_CACHE,
      {
        timeout: 60_000,
      },
    );
    return { bytes: host.bytesSent(), requests: host.requests.length };
  } finally {
    await context.close();
    await host.close();
  }
}

export async function firstVisit(browser: Browser, dist: string): Promise<string[]> {
  const manifest = manifestOf(readFileSync(join(dist, "sw.js"), "utf8"));
  if (!manifest) return ["first visit: skipped (the build's sw.js has no manifest)"];
  const precache = manifest.files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f))).length, 0);
  const visits: { bytes: number; requests: number }[] = [];
  for (let i = 0; i < VISITS; i++) visits.push(await visit(browser, dist));
  const bytes = visits.map((v) => v.bytes).sort((a, b) => a - b);
  const low = bytes[0] ?? 0;
  const high = bytes.at(-1) ?? 0;
  return [
    `first visit (Pages-like host: gzip, max-age=600, the isolation reload; one demo message; ${VISITS} visits in fresh contexts)`,
    `  on the wire: ${kb(low)}–${kb(high)} (${visits[0]?.requests ?? 0} requests) ` +
      `against the ${(FIRST_VISIT_GOAL / 1e6).toFixed(1)} MB goal: ` +
      `${(high / FIRST_VISIT_GOAL).toFixed(2)}x`,
    `  precached on install: ${kb(precache)} gzip, ${manifest.files.length} files (the build fails above ${kb(PRECACHE_BUDGET)}); ` +
      `${manifest.onDemand?.length ?? 0} more files cached on first use`,
  ];
}
