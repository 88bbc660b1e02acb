/**
 * The site's agents in the built app on a plain static host under /deeptab/ (a build for any folder, base "./"): the
 * build wrote agents/index.json and a bundle per folder, the service worker precaches them, and the app's real agent
 * worker (its built chunk, talked to over Comlink's wire format) finds them relative to the site, lists them after
 * the general agent and loads one. Needs a build: `npm run build`; DEEPTAB_DIST names another build folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "@playwright/test";
import { manifestOf } from "../scripts/vite/shell/precache.ts";
import { startStaticServer, type StaticServer } from "../scripts/static-server.ts";
import { test } from "./fixtures.ts";

const dist = resolve(process.env.DEEPTAB_DIST ?? "dist");
const BASE = "/deeptab/";
let server: StaticServer;

test.beforeAll(async () => {
  if (!existsSync(join(dist, "agents", "index.json"))) {
    throw new Error(`e2e/site-agents.spec.ts needs a production build with the site's agents in ${dist}: run \`npm run build\` first.`);
  }
  server = await startStaticServer({ root: dist, base: BASE });
});

test.afterAll(async () => {
  await server?.close();
});

test("the built worker lists and loads the site's agents from under the site's base", async ({ page }) => {
  const index = JSON.parse(readFileSync(join(dist, "agents", "index.json"), "utf8")) as { agents: Array<{ folder: string }> };
  const folders = index.agents.map((a) => a.folder);
  expect(folders.length).toBeGreaterThan(0);
  const precached = manifestOf(readFileSync(join(dist, "sw.js"), "utf8"))!.files;
  for (const f of ["agents/index.json", ...folders.map((f) => `agents/${f}.json`)]) expect(precached).toContain(f);

  const worker = readdirSync(join(dist, "assets")).find((f) => /^agent\.worker-.*\.js$/.test(f))!;
  await page.goto(server.url);
  // Comlink's wire format (an APPLY message, answered by a RAW value with the same id), as a string: no test helpers
  // reach the page's own bundle.
  const script = `(async () => {
    const w = new Worker(${JSON.stringify(`${server.url}assets/${worker}`)}, { type: "module", name: "db:site-agents-e2e" });
    const call = (name, args) => new Promise((resolve) => {
      const id = crypto.randomUUID();
      w.addEventListener("message", (e) => e.data && e.data.id === id && resolve(e.data.value));
      w.postMessage({ id, type: "APPLY", path: [name], argumentList: args.map((value) => ({ type: "RAW", value })) });
    });
    const list = await call("listAgents", []);
    const review = await call("reviewAgent", [${JSON.stringify(`site:${folders[0]}`)}]);
    return { ids: list.map((a) => a.id), reviewed: review.ok ? review.value.summary.id : review.error.message };
  })()`;
  const result = (await page.evaluate(script)) as { ids: string[]; reviewed: string };
  expect(result.ids).toEqual(["general", ...folders.map((f) => `site:${f}`)]);
  expect(result.reviewed).toBe(`site:${folders[0]}`);
  expect(server.requests).toContain(`GET ${BASE}agents/index.json`);
});
