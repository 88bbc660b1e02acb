/**
 * The LangSmith-off plugin in a real vite build: an entry that imports LangSmith's package root and its RunTree (as
 * @langchain/core does) gets the no-op clients, so the bundle has no ingest endpoint, is far smaller than with the
 * real client, and a RunTree posting and patching its run sends nothing.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, type Plugin } from "vite";
import { langsmithOff } from "./plugin.ts";

const root = join(import.meta.dirname, "..", "..", "..");
const ENTRY = [
  'import { Client, RunTree } from "langsmith";',
  "export async function trace() {",
  '  const tree = new RunTree({ name: "probe", tracingEnabled: true });',
  "  await tree.postRun();",
  "  tree.end({ ok: true });",
  "  await tree.patchRun();",
  "  return { client: new Client(), tree };",
  "}",
].join("\n");

/** Builds ENTRY (resolved from the repository, whose node_modules has langsmith) with `plugins`; the bundle's text. */
async function bundle(dir: string, plugins: Plugin[]): Promise<{ code: string; file: string }> {
  const entry = join(root, `.langsmith-off-entry-${process.pid}-${plugins.length}.mjs`);
  await writeFile(entry, ENTRY);
  try {
    await build({
      root,
      configFile: false,
      logLevel: "silent",
      plugins,
      build: { outDir: dir, emptyOutDir: true, minify: false, lib: { entry, formats: ["es"], fileName: "out" }, target: "es2022" },
    });
  } finally {
    await rm(entry, { force: true });
  }
  const name = (await readdir(dir)).find((f) => f.endsWith(".js"))!;
  return { code: await readFile(join(dir, name), "utf8"), file: join(dir, name) };
}

describe("LangSmith's client off in the app's bundles", () => {
  let tmp: string;
  let off: { code: string; file: string };
  let real: { code: string; file: string };
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "deeptab-langsmith-"));
    off = await bundle(join(tmp, "off"), [langsmithOff()]);
    real = await bundle(join(tmp, "real"), []);
  }, 120_000);
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("leaves the real client's ingest endpoint out, and most of its bytes", () => {
    expect(real.code).toContain("/runs/multipart");
    expect(off.code).not.toContain("/runs/multipart");
    expect(off.code.length).toBeLessThan(real.code.length / 2);
  });

  it("a RunTree that posts and patches its run sends nothing, and the client's methods resolve to nothing", async () => {
    const requests: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input: RequestInfo | URL) => {
      requests.push(String(input));
      return Promise.reject(new Error("no request may leave"));
    };
    try {
      const mod = (await import(pathToFileURL(off.file).href)) as { trace(): Promise<{ client: Record<string, () => unknown> }> };
      const { client } = await mod.trace();
      await expect(client.createRun!()).resolves.toBeUndefined();
      await expect(client.listRuns!()).resolves.toBeUndefined();
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(requests).toEqual([]);
  });
});
