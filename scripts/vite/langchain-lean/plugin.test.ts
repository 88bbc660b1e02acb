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
import { PromptTemplate } from "@langchain/core/prompts";
import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  FunctionMessage,
  HumanMessage,
  HumanMessageChunk,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
  ToolMessageChunk,
  type BaseMessage,
} from "@langchain/core/messages";
import { load } from "@langchain/core/load";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { RunnableLambda } from "@langchain/core/runnables";
import { lazyImportMap, lazyStreamTracers, lazyTiktoken } from "./plugin.ts";

const require = createRequire(import.meta.url);
const CORE = join(dirname(require.resolve("@langchain/core/package.json")), "dist");
/** The installed module's file (the package's `./load` export, as the bundler resolves it for a browser). */
const LOAD_FILE = join(CORE, "load", "index.js");
const MAP_FILE = join(CORE, "load", "import_map.js");

/** `code`, the rewrite of the installed module `file`, written under `dir` with its relative imports pointed at the package. */
async function relocated(dir: string, file: string, code: string, name: string): Promise<string> {
  const base = pathToFileURL(file);
  const out = join(dir, name);
  // Without its source map comment: the map stays with the installed file.
  await writeFile(
    out,
    code
      .replace(/^\/\/# sourceMappingURL=.*$/m, "")
      .replace(/(["'])(\.\.?\/[^"']+)\1/g, (_m, q: string, p: string) => q + new URL(p, base).href + q),
  );
  return pathToFileURL(out).href;
}

describe("@langchain/core/load with its import map on demand", () => {
  let tmp: string;
  let original: string;
  let importMap: string;
  let lazyLoad: typeof load;
  /** The rewrite with the import map's import failing: what revives without the map. */
  let mapless: typeof load;
  beforeAll(async () => {
    [original, importMap] = await Promise.all([readFile(LOAD_FILE, "utf8"), readFile(MAP_FILE, "utf8")]);
    // The rewritten module in a temporary folder, its relative imports pointed at the installed package's files.
    tmp = await mkdtemp(join(tmpdir(), "deeptab-lean-"));
    const code = lazyImportMap(original, importMap);
    ({ load: lazyLoad } = (await import(await relocated(tmp, LOAD_FILE, code, "load.mjs"))) as { load: typeof load });
    const noMap = code.replace('await import("./import_map.js")', 'await Promise.reject(new Error("the import map was imported"))');
    ({ load: mapless } = (await import(await relocated(tmp, LOAD_FILE, noMap, "mapless.mjs"))) as { load: typeof load });
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("imports the map only where an object is revived", () => {
    const code = lazyImportMap(original, importMap);
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

  it("revives every message class without importing the map, and imports it for any other object", async () => {
    const messages = [
      new HumanMessage({ content: [{ type: "text", text: "look" }], id: "h1", name: "me" }),
      new AIMessage({ content: "", id: "a1", tool_calls: [{ id: "c1", name: "ls", args: {} }], response_metadata: { model: "m" } }),
      new AIMessageChunk({ content: "par", id: "a2", tool_call_chunks: [{ id: "c2", name: "ls", args: "{", index: 0 }] }),
      new ToolMessage({ content: "boom", tool_call_id: "c1", status: "error", artifact: { n: 1 } }),
      new ToolMessageChunk({ content: "x", tool_call_id: "c3" }),
      new SystemMessage({ content: "be brief", additional_kwargs: { cache: true } }),
      new HumanMessageChunk({ content: "h" }),
      new ChatMessage({ content: "c", role: "critic" }),
      new FunctionMessage({ content: "{}", name: "f" }),
      new RemoveMessage({ id: "gone" }),
    ];
    const text = JSON.stringify({ messages });
    const real = await load<{ messages: BaseMessage[] }>(text);
    const revived = await mapless<{ messages: BaseMessage[] }>(text);
    expect(revived).toEqual(real);
    expect(revived.messages.map((m) => m.constructor)).toEqual(real.messages.map((m) => m.constructor));
    expect(revived.messages.map((m) => m.constructor.name)).toEqual(messages.map((m) => m.constructor.name));
    // A message class under another namespace, and anything else of LangChain's core, still go through the map.
    const tool = JSON.stringify({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "tool", "ToolMessage"],
      kwargs: { content: "t", tool_call_id: "c" },
    });
    await expect(mapless(tool)).rejects.toThrow("the import map was imported");
    expect(await lazyLoad(tool)).toEqual(await load(tool));
    const prompt = JSON.stringify(PromptTemplate.fromTemplate("Answer {question}"));
    await expect(mapless(prompt)).rejects.toThrow("the import map was imported");
    expect(await lazyLoad(prompt)).toEqual(await load(prompt));
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
    expect(() => lazyImportMap(original.replace("import_map_exports }", "importMap }"), importMap)).toThrow(/load\/index.js changed/);
    // The map's messages taken from another module: the shortcut would no longer give the map's classes.
    const moved = importMap.replace('from "../messages/index.js"', 'from "../messages/all.js"');
    expect(() => lazyImportMap(original, moved)).toThrow(/import_map.js changed/);
  });
});

/** A stream's events with what differs between two runs (ids, times) left out. */
function comparable(events: unknown[]): unknown[] {
  return JSON.parse(
    JSON.stringify(events, (key, value: unknown) =>
      ["run_id", "parent_ids", "id", "start_time", "end_time", "timestamp"].includes(key)
        ? undefined
        : typeof value === "string" && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(value)
          ? "<time>"
          : value,
    ),
  ) as unknown[];
}

describe("@langchain/core/runnables with its stream tracers on demand", () => {
  const RUNNABLES_FILE = join(CORE, "runnables", "base.js");
  let tmp: string;
  let original: string;
  let tracers: { logStream: string; eventStream: string };
  let Lazy: typeof RunnableLambda;
  beforeAll(async () => {
    original = await readFile(RUNNABLES_FILE, "utf8");
    const [logStream, eventStream] = await Promise.all(
      ["log_stream.js", "event_stream.js"].map((f) => readFile(join(CORE, "tracers", f), "utf8")),
    );
    tracers = { logStream: logStream!, eventStream: eventStream! };
    tmp = await mkdtemp(join(tmpdir(), "deeptab-lean-"));
    const url = await relocated(tmp, RUNNABLES_FILE, lazyStreamTracers(original, tracers), "base.mjs");
    ({ RunnableLambda: Lazy } = (await import(url)) as { RunnableLambda: typeof RunnableLambda });
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  /** The same chain built from either module: a lambda that streams a chat model's answer, then one that counts. */
  const chain = (Lambda: typeof RunnableLambda) =>
    Lambda.from(
      async (topic: string, config) => (await new FakeListChatModel({ responses: [`about ${topic}`] }).invoke(topic, config)).text,
    ).pipe(Lambda.from((text: string) => text.length));

  it("imports the tracers only in the methods that build them", () => {
    const code = lazyStreamTracers(original, tracers);
    expect(code).not.toMatch(/^import .*tracers\/(log_stream|event_stream)/m);
    expect(code.split('await import("../tracers/event_stream.js")').length).toBe(5);
  });

  it("invokes, streams events (v1 and v2) and logs as the real module does", async () => {
    expect(await chain(Lazy).invoke("bees")).toBe(await chain(RunnableLambda).invoke("bees"));
    for (const version of ["v1", "v2"] as const) {
      const events = async (Lambda: typeof RunnableLambda) => {
        const out: unknown[] = [];
        for await (const e of chain(Lambda).streamEvents("bees", { version })) out.push(e);
        return out;
      };
      const lazy = await events(Lazy);
      expect(comparable(lazy)).toEqual(comparable(await events(RunnableLambda)));
      // The chat model's own events reach the stream (v1 names them on_llm_*).
      expect(lazy.map((e) => (e as { event: string }).event)).toContain(version === "v2" ? "on_chat_model_end" : "on_llm_end");
    }
    const log = async (Lambda: typeof RunnableLambda) => {
      const out: unknown[] = [];
      for await (const patch of chain(Lambda).streamLog("bees")) out.push(patch.ops);
      return out;
    };
    const lazyLog = await log(Lazy);
    expect(comparable(lazyLog)).toEqual(comparable(await log(RunnableLambda)));
    expect(JSON.stringify(lazyLog)).toContain('"path":"/final_output","value":{"output":10}');
  });

  it("fails the build when @langchain/core's modules changed shape", () => {
    expect(() => lazyStreamTracers(original.replace("async *_streamEventsV2(", "async *streamEventsV2("), tracers)).toThrow(/changed/);
    expect(() => lazyStreamTracers(original, { ...tracers, logStream: "" })).toThrow(/log_stream/);
    expect(() => lazyStreamTracers(original.replace("isLogStreamHandler } from", "isLog } from"), tracers)).toThrow(/changed/);
  });
});

describe("@langchain/core/language_models with js-tiktoken on demand", () => {
  it("imports the tokenizer where a token count asks for it, and fails the build on a changed module", async () => {
    const original = await readFile(join(CORE, "language_models", "base.js"), "utf8");
    const code = lazyTiktoken(original);
    expect(code).not.toMatch(/^import .*tiktoken/m);
    expect(code).toContain('(await import("../utils/tiktoken.js")).encodingForModel(model)');
    // A use that does not await the (now asynchronous) function.
    expect(() => lazyTiktoken(original.replace("await encodingForModel(", "encodingForModel("))).toThrow(/changed/);
  });
});
