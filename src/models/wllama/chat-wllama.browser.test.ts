/**
 * The in-tab model for real, in Chromium: a tiny GGUF the tests make,
 * downloaded from a loopback server into OPFS (progress, cache, cancel and
 * resume, quota), loaded into wllama (llama.cpp in WebAssembly) and driven
 * through ChatWllama, the LangChain chat model.
 */
import type { AIMessage, ToolMessage } from "@langchain/core/messages";
import { HumanMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { ChatWllama, type WllamaEngine } from "./chat-wllama.ts";
import { makeTinyGgufSplits } from "../../testing/gguf/tiny-model.ts";
import { loadWllamaModel, type LoadedModel } from "./engine.ts";
import { MAX_FILE_BYTES, ModelStore, shardUrls, type DownloadProgress } from "./model-store.ts";

const server = inject("modelServer");

async function stats(): Promise<Record<string, number>> {
  return (await fetch(`${server}/stats`)).json() as Promise<Record<string, number>>;
}

/** A store in its own OPFS folder. */
function store(options: ConstructorParameters<typeof ModelStore>[0] = {}) {
  const name = `test-${crypto.randomUUID()}`;
  return new ModelStore({
    root: async () => (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true }),
    ...options,
  });
}

describe("model downloads (OPFS)", () => {
  it("downloads with progress, keeps the file, and a second download makes no request", async () => {
    const s = store();
    const progress: DownloadProgress[] = [];
    const source = { id: "tiny", name: "Tiny", urls: [`${server}/files/tiny.gguf`] };
    const first = await s.download(source, { onProgress: (p) => progress.push(p) });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value.complete).toBe(true);
    expect(first.value.bytes).toBe(first.value.totalBytes);
    expect(progress.at(-1)!.loaded).toBe(first.value.bytes);
    expect(progress.every((p) => p.total === first.value.bytes)).toBe(true);
    expect((await s.list()).map((m) => [m.id, m.bytes])).toEqual([["tiny", first.value.bytes]]);
    const before = await stats();
    expect((await s.download(source)).ok).toBe(true);
    expect(await stats()).toEqual(before);
    const files = await s.files("tiny");
    expect(files?.map((f) => f.size)).toEqual([first.value.bytes]);
    await s.delete("tiny");
    expect(await s.list()).toEqual([]);
  });

  it("is cancelled mid-way and resumes from where it stopped with a Range request", async () => {
    const s = store();
    const source = { id: "slow", name: "Slow", urls: [`${server}/slow/files/plain.gguf`] };
    const controller = new AbortController();
    const cancelled = await s.download(source, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.loaded > 100_000) controller.abort();
      },
    });
    expect(cancelled).toMatchObject({ ok: false, error: { code: "cancelled" } });
    const [partial] = await s.list();
    expect(partial!.complete).toBe(false);
    expect(partial!.bytes).toBeGreaterThan(100_000);
    expect(partial!.bytes).toBeLessThan(partial!.totalBytes!);
    const resumed = await s.download(source);
    if (!resumed.ok) throw new Error(resumed.error.message);
    expect(resumed.value.bytes).toBe(partial!.totalBytes);
    const counts = await stats();
    expect(Object.keys(counts).some((k) => k.startsWith("GET /slow/files/plain.gguf bytes="))).toBe(true);
  }, 30_000);

  it("refuses a file over 2 GB before downloading a byte, says why, and keeps nothing of it", async () => {
    const s = store();
    const HUGE = 2_500_000_000;
    expect(HUGE).toBeGreaterThan(MAX_FILE_BYTES);
    const message =
      "One file of this model is 2.33 GB; the in-tab engine reads files of at most 2 GB. " +
      "Use a split GGUF (llama-gguf-split, shards of at most 2 GB) or a smaller quantization.";
    const progress: DownloadProgress[] = [];
    const refused = await s.download(
      { id: "huge", name: "Huge", urls: [`${server}/files/huge.gguf`] },
      { onProgress: (p) => progress.push(p) },
    );
    expect(refused).toEqual({ ok: false, error: { name: "DownloadError", code: "too_large", message } });
    expect(progress).toEqual([]);
    const counts = await stats();
    expect(counts["HEAD /files/huge.gguf"]).toBeGreaterThanOrEqual(1);
    expect(Object.keys(counts).filter((k) => k.startsWith("GET /files/huge.gguf"))).toEqual([]);
    expect(await s.list()).toEqual([]);

    // A host that tells the size only in the GET's headers: refused on those headers, nothing written.
    const late = await s.download({ id: "huge-late", name: "Huge", urls: [`${server}/nohead/files/huge.gguf`] });
    expect(late).toEqual({ ok: false, error: { name: "DownloadError", code: "too_large", message } });
    expect(await s.list()).toEqual([]);
  });

  it("downloads a split model shard by shard with progress, caches it, and wllama loads the shards", async () => {
    const s = store();
    const shards = makeTinyGgufSplits(3);
    const sizes = shards.map((b) => b.byteLength);
    const total = sizes.reduce((a, b) => a + b, 0);
    const urls = shardUrls(`${server}/files/split-00001-of-00003.gguf`);
    expect(urls.map((u) => u.slice(u.lastIndexOf("/") + 1))).toEqual([
      "split-00001-of-00003.gguf",
      "split-00002-of-00003.gguf",
      "split-00003-of-00003.gguf",
    ]);
    const progress: DownloadProgress[] = [];
    const got = await s.download({ id: "split", name: "Split", urls }, { onProgress: (p) => progress.push(p) });
    if (!got.ok) throw new Error(got.error.message);
    expect(got.value).toMatchObject({ id: "split", complete: true, bytes: total, totalBytes: total, urls });
    // The total is known from the start (HEAD of every shard); the bytes only grow, through each shard's end.
    expect(progress.every((p) => p.total === total)).toBe(true);
    const loaded = progress.map((p) => p.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect(loaded).toContain(sizes[0]);
    expect(loaded).toContain(sizes[0]! + sizes[1]!);
    expect(loaded.at(-1)).toBe(total);
    const counts = await stats();
    for (const n of [1, 2, 3]) expect(counts[`GET /files/split-0000${n}-of-00003.gguf`]).toBe(1);

    // Cached: a second download makes no request; the files come back in shard order, byte for byte.
    expect((await s.download({ id: "split", name: "Split", urls })).ok).toBe(true);
    expect(await stats()).toEqual(counts);
    const files = (await s.files("split"))!;
    expect(files.map((f) => f.size)).toEqual(sizes);
    for (const [i, f] of files.entries()) expect(new Uint8Array(await f.arrayBuffer())).toEqual(shards[i]);

    const model = await loadWllamaModel(files, "split", { contextTokens: 512 });
    try {
      const out = await new ChatWllama({ engine: model.engine, maxTokens: 4 }).invoke([new HumanMessage("hi")]);
      expect(out.usage_metadata?.output_tokens).toBeGreaterThan(0);
    } finally {
      await model.unload();
    }
  }, 60_000);

  it("checks the quota first and says plainly when a model will not fit", async () => {
    const s = store({ estimate: async () => ({ quota: 100_000, usage: 0 }) });
    const result = await s.download({ id: "big", name: "Big", urls: [`${server}/files/tiny.gguf`] });
    expect(result).toMatchObject({ ok: false, error: { code: "quota" } });
    if (!result.ok) expect(result.error.message).toMatch(/^Not enough storage for this model: it needs .* GB more/);
  });
});

describe("ChatWllama on real llama.cpp", () => {
  let loaded: LoadedModel;

  beforeAll(async () => {
    const s = store();
    const got = await s.download({ id: "tiny", name: "Tiny", urls: [`${server}/files/tiny.gguf`] });
    if (!got.ok) throw new Error(got.error.message);
    loaded = await loadWllamaModel((await s.files("tiny"))!, "tiny.gguf", { contextTokens: 4_096 });
  }, 60_000);
  afterAll(async () => {
    await loaded?.unload();
  });

  it("streams tokens through the LangChain interface, with usage, and reports its window", async () => {
    const model = new ChatWllama({ engine: loaded.engine, maxTokens: 12, seed: 1 });
    expect(model.profile.maxInputTokens).toBe(4_096);
    let whole: AIMessageChunk | undefined;
    let pieces = 0;
    for await (const chunk of await model.stream([new HumanMessage("say something")])) {
      if (chunk.text) pieces++;
      whole = whole ? whole.concat(chunk) : chunk;
    }
    expect(pieces).toBeGreaterThan(1);
    expect(whole!.usage_metadata?.input_tokens).toBeGreaterThan(0);
    expect(whole!.usage_metadata?.output_tokens).toBeGreaterThan(0);
  });

  it("makes a tool call that parses and fits its schema, with random weights (llama.cpp's grammar)", async () => {
    const weather = tool(async () => "sunny", {
      name: "get_weather",
      description: "Weather of a city.",
      schema: z.object({ city: z.enum(["Paris", "Tokyo"]), days: z.number().int() }),
    });
    // Three seeded samples at temperature 0.7: each call parses and fits, whatever the random weights pick.
    for (const seed of [1, 2, 3]) {
      const bound = new ChatWllama({ engine: loaded.engine, maxTokens: 512, seed }).bindTools([weather]);
      const out = await bound.invoke([new HumanMessage("weather?")]);
      expect(out.response_metadata.finish_reason).toBe("tool_calls");
      expect(out.tool_calls).toHaveLength(1);
      const call = out.tool_calls![0]!;
      expect(call.name).toBe("get_weather");
      expect(["Paris", "Tokyo"]).toContain(call.args.city);
      expect(Number.isInteger(call.args.days)).toBe(true);
      expect(out.invalid_tool_calls ?? []).toEqual([]);
    }
  });

  // At temperature 0 the random weights always pick read_file (measured: the name is complete from about 50 tokens,
  // the arguments still open at 120). 12 tokens: cut inside the call's name, and llama.cpp passes on nothing at all
  // (an empty message); 80 tokens: cut inside its arguments, and llama.cpp passes on the name and `{`.
  it.each([12, 80])(
    "in an agent turn, a call cut off at %i tokens is an error result the model then sees, never an answer",
    async (maxTokens) => {
      const weather = tool(async () => "sunny", {
        name: "get_weather",
        description: "Weather of a city.",
        schema: z.object({ city: z.enum(["Paris", "Tokyo"]) }),
      });
      const requests: Parameters<WllamaEngine["streamChat"]>[0][] = [];
      // Every answer is cut the same way: the run is stopped as the model is asked again (the tiny model's byte
      // tokens fill most of its 4,096-token window, so that second request is not run: what it carries is the point).
      const stop = new AbortController();
      const engine: WllamaEngine = {
        ...loaded.engine,
        streamChat: (p) => {
          requests.push(p);
          if (requests.length >= 2) stop.abort();
          return loaded.engine.streamChat(p);
        },
      };
      // Temperature 0: the call is cut at the same place every run (at 0.7 a 30-token cut fell inside the name in
      // about 1 run in 6, and CI failed on it).
      const model = new ChatWllama({ engine, maxTokens, temperature: 0 });
      const agent = createDeepAgent({ model, tools: [weather], checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: `cut-${maxTokens}` } };
      const run = async () => {
        const input = { messages: [new HumanMessage("weather in Paris?")] };
        for await (const step of await agent.stream(input, { ...config, streamMode: "updates", signal: stop.signal })) {
          expect(step).toBeDefined();
        }
      };
      await expect(run()).rejects.toThrow(/abort/i);
      expect(requests).toHaveLength(2);
      const messages = (await agent.getState(config)).values.messages as BaseMessage[];
      expect(messages.map((m) => m.getType()).slice(0, 3)).toEqual(["human", "ai", "tool"]);
      const cut = messages[1] as AIMessage;
      expect(cut.response_metadata.finish_reason).toBe("length");
      expect(cut.tool_calls).toHaveLength(1);
      const result = messages[2] as ToolMessage;
      expect(result.status).toBe("error");
      expect(result.text).toMatch(
        maxTokens === 12
          ? new RegExp(
              /^Error: the arguments of your call to '\(no name\)' are not usable: .*/.source +
                /Arguments received: \(nothing: the answer reached the limit of 12 tokens before the tool call was complete/.source,
            )
          : new RegExp(
              /^Error: the arguments of your call to '\w+' are not usable: /.source +
                /the argument text is not one complete JSON object \(was it cut off\?\)\. Arguments received: \{/.source,
            ),
      );
      expect(result.text).toMatch(/Call the tool again with its arguments as one JSON object\.$/);
      // The next request carries the error result: the model can redo the call.
      expect(requests.length).toBeGreaterThanOrEqual(2);
      expect(requests[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: result.text });
    },
    60_000,
  );

  it("stops when the call's signal aborts, and answers again afterwards", async () => {
    const model = new ChatWllama({ engine: loaded.engine, maxTokens: 2_000 });
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    await expect(model.invoke([new HumanMessage("go on forever")], { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    const again = await new ChatWllama({ engine: loaded.engine, maxTokens: 4 }).invoke([new HumanMessage("hi")]);
    expect(again.usage_metadata?.output_tokens).toBeGreaterThan(0);
  });
});
