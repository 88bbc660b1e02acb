/**
 * The LangChain-lean plugin's rewrite of `@langchain/core/load`: the installed module, rewritten, imports its import
 * map only on demand and revives what a checkpoint holds (messages with tool calls, chunks, nested objects, escaped
 * user data) exactly as the real `load()` does; a changed module fails the build instead of loading everything again.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { load } from "@langchain/core/load";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lazyImportMap } from "./plugin.ts";

const require = createRequire(import.meta.url);
/** The installed module's file (the package's `./load` export, as the bundler resolves it for a browser). */
const LOAD_FILE = join(dirname(require.resolve("@langchain/core/package.json")), "dist", "load", "index.js");

describe("@langchain/core/load with its import map on demand", () => {
  let tmp: string;
  let original: string;
  let lazyLoad: typeof load;
  beforeAll(async () => {
    original = await readFile(LOAD_FILE, "utf8");
    // The rewritten module in a temporary folder, its relative imports pointed at the installed package's files.
    const base = pathToFileURL(LOAD_FILE);
    const code = lazyImportMap(original).replace(/(["'])(\.\.?\/[^"']+)\1/g, (_m, q: string, p: string) => q + new URL(p, base).href + q);
    tmp = await mkdtemp(join(tmpdir(), "deeptab-lean-"));
    await writeFile(join(tmp, "load.mjs"), code);
    ({ load: lazyLoad } = (await import(pathToFileURL(join(tmp, "load.mjs")).href)) as { load: typeof load });
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("imports the map only where an object is revived", () => {
    const code = lazyImportMap(original);
    expect(code).not.toMatch(/^import .*import_map/m);
    expect(code).toContain('await import("./import_map.js")');
  });

  it("revives a checkpoint's values as the real load() does", async () => {
    const values = {
      messages: [
        new HumanMessage({ content: "fix the tests", id: "h1" }),
        new AIMessage({ content: "", id: "a1", tool_calls: [{ id: "c1", name: "run_tests", args: { run: 1 } }] }),
        new ToolMessage({ content: "ok", tool_call_id: "c1", name: "run_tests", id: "t1" }),
        new AIMessageChunk({ content: "done", id: "a2", usage_metadata: { input_tokens: 3, output_tokens: 1, total_tokens: 4 } }),
      ],
      plain: [1, "two", null, { three: 3 }],
    };
    // User data that looks like a LangChain object, escaped as serialization escapes it, stays plain data.
    const file = { lc: 1, type: "constructor", id: ["langchain_core", "messages", "AIMessage"], kwargs: {} };
    const text = JSON.stringify({ ...values, files: { "/a.json": { __lc_escaped__: file } } });
    const real = await load<typeof values>(text);
    const lazy = await lazyLoad<typeof values>(text);
    expect(lazy).toEqual(real);
    expect(lazy.messages.map((m) => m.constructor.name)).toEqual(["HumanMessage", "AIMessage", "ToolMessage", "AIMessageChunk"]);
    expect(AIMessage.isInstance(lazy.messages[1])).toBe(true);
    expect(lazy.messages[1]).toBeInstanceOf(AIMessage);
    expect((lazy.messages[1] as AIMessage).tool_calls).toMatchObject([{ id: "c1", name: "run_tests", args: { run: 1 } }]);
    expect((lazy as unknown as { files: Record<string, unknown> }).files["/a.json"]).toEqual(file);
  });

  it("rejects what the real load() rejects", async () => {
    const bad = JSON.stringify({ lc: 1, type: "constructor", id: ["not_langchain", "X"], kwargs: {} });
    await expect(load(bad)).rejects.toThrow(/Invalid namespace/);
    await expect(lazyLoad(bad)).rejects.toThrow(/Invalid namespace/);
    const unknown = JSON.stringify({ lc: 1, type: "constructor", id: ["langchain_core", "nowhere", "X"], kwargs: {} });
    await expect(load(unknown)).rejects.toThrow(/Invalid namespace/);
    await expect(lazyLoad(unknown)).rejects.toThrow(/Invalid namespace/);
  });

  it("fails the build when @langchain/core's module changed shape", () => {
    expect(() => lazyImportMap(original.replace("import_map_exports }", "importMap }"))).toThrow(/changed/);
  });
});
