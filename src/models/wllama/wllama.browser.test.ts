/**
 * A real llama.cpp (wllama 3.13, WebAssembly) in real Chromium, on a tiny
 * model the test writes itself (src/testing/gguf/tiny-model.ts): loading from Blobs with
 * the self-hosted wasm, generation, streaming, abort, the GGUF's own Jinja
 * chat template, grammar-constrained decoding, tool calls, a whole agent turn
 * (tool call, then a text answer to the tool result), split files, a module
 * Web Worker and the OPFS model cache. The weights are random, so the
 * assertions are about behaviour (shapes, grammars, protocol), not content.
 */
import {
  type ChatCompletionChunk,
  type ChatCompletionParams,
  type ChatCompletionTool,
  type RawCompletionChunk,
  type RawCompletionParams,
  type Wllama,
  type WllamaLogger,
  WllamaAbortError,
  WllamaError,
} from "@wllama/wllama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HumanMessage } from "@langchain/core/messages";
import {
  HERMES2PRO_CHAT_TEMPLATE,
  LLAMA3_SPECIAL_TOKENS,
  LLAMA32_CHAT_TEMPLATE,
  QWEN25_CHAT_TEMPLATE,
  QWEN25_TOOL_RESULT_CHAT_TEMPLATE,
} from "../../testing/gguf/templates.ts";
import { makeTinyGguf, makeTinyGgufSplits, type TinyGgufOptions } from "../../testing/gguf/tiny-model.ts";
import { tinyVocab } from "../../testing/gguf/vocab.ts";
import { createWllama, loadModelChecked, WLLAMA_ASSETS, wllamaSupported } from "./assets.ts";
import { ChatWllama } from "./chat-wllama.ts";
import { wllamaEngine } from "./engine.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import type { ProbeRequest, ProbeResponse } from "./wllama-probe.worker.ts";

/** llama-server request fields wllama passes through but does not type. */
interface ServerExtras {
  cache_prompt?: boolean;
  verbose?: boolean;
  stream_options?: { include_usage: boolean };
  stop?: string[];
}
type Chat = ChatCompletionParams & ServerExtras & { stream?: false };
type ChatStream = ChatCompletionParams & ServerExtras & { stream: true };
type Raw = RawCompletionParams & ServerExtras & { stream?: false };

const vocab = tinyVocab();
/** llama.cpp logs a lot (and warns about routine prompt-cache reuse); the assertions say what matters. */
const silent: WllamaLogger = { debug: () => {}, log: () => {}, warn: () => {}, error: () => {} };
const newWllama = () => createWllama({ logger: silent });
const blobOf = (bytes: Uint8Array) => new Blob([bytes as BlobPart]);
/** What the tiny model can print: printable ASCII and newlines (see `printableOnly`). */
const PRINTABLE = /^[\x20-\x7e\n]*$/;

/** The rendered prompt llama-server reports with `verbose: true` (in `__verbose`, untyped). */
function verbosePrompt(response: object): string {
  const verbose: unknown = Reflect.get(response, "__verbose");
  const prompt: unknown = typeof verbose === "object" && verbose !== null ? Reflect.get(verbose, "prompt") : undefined;
  if (typeof prompt !== "string") throw new Error("no __verbose.prompt in the response");
  return prompt;
}

async function load(gguf: Uint8Array | Uint8Array[], nCtx = 4096): Promise<{ wllama: Wllama; ms: number }> {
  const wllama = newWllama();
  const start = performance.now();
  await loadModelChecked(wllama, (Array.isArray(gguf) ? gguf : [gguf]).map(blobOf), { n_ctx: nCtx });
  return { wllama, ms: performance.now() - start };
}

const weatherTool: ChatCompletionTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the weather of a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", enum: ["Paris", "Tokyo"] } },
      required: ["city"],
    },
  },
};
const addTool: ChatCompletionTool = {
  type: "function",
  function: {
    name: "add",
    description: "Add two integers.",
    parameters: {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      required: ["a", "b"],
    },
  },
};

/** Checks a tool call against the two tools above. */
function expectValidCall(name: string, args: string) {
  const parsed: unknown = JSON.parse(args);
  expect(typeof parsed).toBe("object");
  if (name === "get_weather") {
    expect(parsed).toEqual({ city: expect.stringMatching(/^(Paris|Tokyo)$/) });
  } else {
    expect(name).toBe("add");
    expect(parsed).toEqual({ a: expect.any(Number), b: expect.any(Number) });
  }
}

describe("wllama on a generated tiny GGUF", () => {
  const bytes = makeTinyGguf();
  let wllama: Wllama;
  let loadMs = 0;

  beforeAll(async () => {
    ({ wllama, ms: loadMs } = await load(bytes));
  }, 60_000);
  afterAll(async () => {
    await wllama?.exit();
  });

  it("runs on this browser without the CDN: self-hosted wasm, cross-origin isolated", () => {
    expect(wllamaSupported()).toBe(true);
    expect(crossOriginIsolated).toBe(true);
    expect(new URL(WLLAMA_ASSETS.default, location.href).origin).toBe(location.origin);
    expect(wllama.getWorkerResources()).toMatchObject({ compat: false });
    expect(new URL(wllama.getWorkerResources().wasmPath).origin).toBe(location.origin);
  });

  it("loads the in-memory GGUF from a Blob and reports its metadata", () => {
    console.info(`tiny GGUF: ${bytes.byteLength} bytes, loaded in ${loadMs.toFixed(0)} ms`);
    expect(wllama.isModelLoaded()).toBe(true);
    expect(wllama.getModelMetadata().hparams).toEqual({ nVocab: vocab.tokens.length, nCtxTrain: 4096, nEmbd: 64, nLayer: 2 });
    expect(wllama.getModelMetadata().meta["general.architecture"]).toBe("llama");
    expect(wllama.getChatTemplate()).toBe(QWEN25_CHAT_TEMPLATE);
    const info = wllama.getLoadedContextInfo();
    expect(info).toMatchObject({ n_ctx: 4096, n_ctx_train: 4096, has_chat: true, add_bos_token: false });
    expect(info.token_eos).toBe(vocab.special("<|im_end|>"));
    expect([...info.list_tokens_eog].sort()).toEqual([vocab.special("<|endoftext|>"), vocab.special("<|im_end|>")].sort());
    expect(wllama.isTokenEOG(vocab.special("<|im_end|>"))).toBe(true);
    // hardwareConcurrency / 2 threads by default: 1 on a 2-core machine, so single-threaded here
    expect(wllama.getNumThreads()).toBe(Math.max(1, Math.floor(navigator.hardwareConcurrency / 2)));
  });

  it("generates tokens and reports usage and timings", async () => {
    const start = performance.now();
    const res = await wllama.createCompletion({ prompt: "Hello world", max_tokens: 64, ignore_eos: true, seed: 1 });
    const ms = performance.now() - start;
    const choice = res.choices[0]!;
    expect(choice.finish_reason).toBe("length");
    expect(choice.text.length).toBeGreaterThan(0);
    expect(choice.text).toMatch(PRINTABLE);
    expect(res.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 64, total_tokens: 75 });
    expect(res.timings?.predicted_n).toBe(64);
    console.info(
      `64 tokens in ${ms.toFixed(0)} ms wall, ${res.timings?.predicted_per_second.toFixed(0)} tok/s decode, ` +
        `${res.timings?.prompt_per_second.toFixed(0)} tok/s prompt`,
    );
  });

  it("is deterministic at temperature 0 and stops on a stop string", async () => {
    const req: Raw = { prompt: "The tool", max_tokens: 12, temperature: 0, ignore_eos: true, cache_prompt: false };
    const a = await wllama.createCompletion(req);
    const b = await wllama.createCompletion(req);
    expect(a.choices[0]!.text).toBe(b.choices[0]!.text);
    const text = a.choices[0]!.text;
    const cut = text.slice(3, 4);
    const stopped = await wllama.createCompletion({ ...req, stop: [cut] });
    expect(stopped.choices[0]!.finish_reason).toBe("stop");
    expect(stopped.choices[0]!.text).toBe(text.slice(0, text.indexOf(cut)));
  });

  it("streams tokens through onData and through an async iterator", async () => {
    const req: Raw = { prompt: "Hello", max_tokens: 10, temperature: 0, ignore_eos: true, cache_prompt: false };
    const whole = (await wllama.createCompletion(req)).choices[0]!.text;

    const viaCallback: RawCompletionChunk[] = [];
    await wllama.createCompletion({ ...req, stream: true, onData: (chunk) => viaCallback.push(chunk) });
    const texts = viaCallback.map((c) => c.choices[0]?.text ?? "");
    expect(texts.filter((t) => t.length > 0).length).toBeGreaterThanOrEqual(5);
    expect(texts.join("")).toBe(whole);
    expect(viaCallback.at(-1)!.choices[0]!.finish_reason).toBe("length");

    const viaIterator: RawCompletionChunk[] = [];
    for await (const chunk of await wllama.createCompletion({ ...req, stream: true })) viaIterator.push(chunk);
    expect(viaIterator.map((c) => c.choices[0]?.text ?? "").join("")).toBe(whole);
  });

  it("reports usage at the end of a chat stream only when asked (stream_options.include_usage)", async () => {
    const base: ChatStream = { messages: [{ role: "user", content: "hi" }], max_tokens: 4, ignore_eos: true, stream: true };
    const chunks = async (req: ChatStream) => {
      const out: ChatCompletionChunk[] = [];
      for await (const chunk of await wllama.createChatCompletion(req)) out.push(chunk);
      return out;
    };
    const plain = await chunks(base);
    expect(plain[0]!.choices[0]!.delta).toEqual({ role: "assistant", content: null });
    expect(plain.some((c) => c.usage)).toBe(false);
    const withUsage = await chunks({ ...base, stream_options: { include_usage: true } });
    const last = withUsage.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ completion_tokens: 4 });
  });

  it("aborts a streaming generation through an AbortSignal and stays usable", async () => {
    const controller = new AbortController();
    const seen: RawCompletionChunk[] = [];
    const start = performance.now();
    const run = wllama.createCompletion({
      prompt: "abc",
      max_tokens: 3000,
      ignore_eos: true,
      stream: true,
      abortSignal: controller.signal,
      onData: (chunk) => {
        seen.push(chunk);
        if (seen.length === 3) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(WllamaAbortError);
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(seen.length).toBeLessThan(10);
    expect(performance.now() - start).toBeLessThan(5_000);

    // ignore_eos: the tiny model samples, and may end its answer after 2 tokens (seen once in CI); usable is 3 tokens.
    const after = await wllama.createCompletion({ prompt: "abc", max_tokens: 3, ignore_eos: true });
    expect(after.usage.completion_tokens).toBe(3);
  });

  it("aborts a non-streaming generation, and rejects an already aborted signal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const start = performance.now();
    await expect(
      wllama.createCompletion({ prompt: "abc", max_tokens: 3000, ignore_eos: true, abortSignal: controller.signal }),
    ).rejects.toBeInstanceOf(WllamaAbortError);
    expect(performance.now() - start).toBeLessThan(5_000);
    await expect(wllama.createCompletion({ prompt: "abc", max_tokens: 3, abortSignal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      WllamaAbortError,
    );
  });

  it("renders chats with the GGUF's own Jinja template (Qwen2.5 ChatML, default system prompt)", async () => {
    const expected =
      "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n" +
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n";
    const chatReq: Chat = {
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 8,
      temperature: 0,
      verbose: true,
      cache_prompt: false,
    };
    const chat = await wllama.createChatCompletion(chatReq);
    expect(verbosePrompt(chat)).toBe(expected);
    // the same prompt as raw text (special tokens are parsed) gives the same tokens and the same greedy output
    const rawReq: Raw = { prompt: expected, max_tokens: 8, temperature: 0, cache_prompt: false };
    const raw = await wllama.createCompletion(rawReq);
    expect(raw.usage.prompt_tokens).toBe(chat.usage.prompt_tokens);
    expect(raw.choices[0]!.text).toBe(chat.choices[0]!.message.content);
  });

  it("renders tools, tool calls and tool results through the template", async () => {
    const req: Chat = {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny" },
      ],
      tools: [weatherTool],
      tool_choice: "none",
      max_tokens: 1,
      verbose: true,
    };
    const prompt = verbosePrompt(await wllama.createChatCompletion(req));
    expect(prompt.startsWith("<|im_start|>system\nBe brief.\n\n# Tools\n")).toBe(true);
    expect(prompt).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
    expect(prompt).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n',
    );
    expect(prompt).toContain("<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>\n");
    expect(prompt.endsWith("<|im_start|>assistant\n")).toBe(true);
  });

  it("constrains output to a GBNF grammar, even with random weights", async () => {
    const grammar = 'root ::= "{\\"a\\":" [0-9] [0-9]? [0-9]? "}"';
    for (const seed of [1, 2, 3, 4, 5]) {
      const res = await wllama.createCompletion({ prompt: "Answer:", max_tokens: 32, temperature: 1.5, seed, grammar });
      const text = res.choices[0]!.text;
      expect(text).toMatch(/^\{"a":[0-9]{1,3}\}$/);
      expect(JSON.parse(text)).toEqual({ a: expect.any(Number) });
      // a finished grammar only admits end-of-generation tokens
      expect(res.choices[0]!.finish_reason).toBe("stop");
    }
  });

  it("constrains chat output to a JSON schema (response_format)", async () => {
    const schema = {
      type: "object",
      properties: { n: { type: "integer", minimum: 0, maximum: 99 }, unit: { enum: ["m", "s"] } },
      required: ["n", "unit"],
      additionalProperties: false,
    };
    for (const seed of [1, 2, 3]) {
      const res = await wllama.createChatCompletion({
        messages: [{ role: "user", content: "Give me a measure." }],
        max_tokens: 64,
        seed,
        response_format: { type: "json_schema", json_schema: { name: "measure", schema, strict: true } },
      });
      const parsed: unknown = JSON.parse(res.choices[0]!.message.content ?? "");
      expect(parsed).toEqual({ n: expect.any(Number), unit: expect.stringMatching(/^(m|s)$/) });
    }
  });

  it("reports errors as WllamaError and keeps working: bad grammar, prompt over n_ctx", async () => {
    await expect(wllama.createCompletion({ prompt: "x", max_tokens: 4, grammar: "root ::= (" })).rejects.toThrow(/failed to parse grammar/);
    const long = "a b ".repeat(2500);
    const err: unknown = await wllama.createCompletion({ prompt: long, max_tokens: 4 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WllamaError);
    expect(err).toMatchObject({ type: "inference_error", message: expect.stringMatching(/exceeds the available context size/) });
    const ok = await wllama.createCompletion({ prompt: "x", max_tokens: 2, ignore_eos: true });
    expect(ok.usage.completion_tokens).toBe(2);
  });

  it("serves concurrent requests (4 slots by default)", async () => {
    const [a, b] = await Promise.all([
      wllama.createCompletion({ prompt: "one", max_tokens: 12, ignore_eos: true }),
      wllama.createCompletion({ prompt: "two", max_tokens: 12, ignore_eos: true }),
    ]);
    expect(a.usage.completion_tokens).toBe(12);
    expect(b.usage.completion_tokens).toBe(12);
  });
});

describe("tool calls (eagerToolCalls model)", () => {
  let wllama: Wllama;
  beforeAll(async () => {
    ({ wllama } = await load(makeTinyGguf({ eagerToolCalls: true })));
  }, 60_000);
  afterAll(async () => {
    await wllama?.exit();
  });

  const ask: Chat = {
    messages: [{ role: "user", content: "What is the weather in Paris?" }],
    tools: [weatherTool, addTool],
    max_tokens: 300,
  };

  it.each(["required", "auto"] as const)("returns a parsed, schema-valid tool call (tool_choice %s)", async (toolChoice) => {
    for (const seed of [1, 2, 3]) {
      const res = await wllama.createChatCompletion({ ...ask, tool_choice: toolChoice, seed });
      const choice = res.choices[0]!;
      expect(choice.finish_reason).toBe("tool_calls");
      expect(choice.message.content ?? "").toBe("");
      expect(choice.message.tool_calls).toHaveLength(1);
      const call = choice.message.tool_calls![0]!;
      expect(call.type).toBe("function");
      expect(call.id).toMatch(/^\w{8,}$/);
      expectValidCall(call.function.name, call.function.arguments);
    }
  });

  it("streams a tool call as OpenAI-style deltas that add up to the same call", async () => {
    const whole = (await wllama.createChatCompletion({ ...ask, seed: 2 })).choices[0]!.message.tool_calls![0]!;
    let name = "";
    let args = "";
    let finish: string | null = null;
    for await (const chunk of await wllama.createChatCompletion({ ...ask, seed: 2, stream: true })) {
      const choice = chunk.choices[0];
      for (const delta of choice?.delta.tool_calls ?? []) {
        expect(delta.index).toBe(0);
        name += delta.function?.name ?? "";
        args += delta.function?.arguments ?? "";
      }
      finish = choice?.finish_reason ?? finish;
    }
    expect(finish).toBe("tool_calls");
    expect(name).toBe(whole.function.name);
    expect(args).toBe(whole.function.arguments);
  });

  it("answers in text when tool_choice is none", async () => {
    const res = await wllama.createChatCompletion({ ...ask, tool_choice: "none", max_tokens: 6 });
    expect(res.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(res.choices[0]!.message.content).toContain("<tool_call>");
  });
});

describe("a whole agent turn (eagerToolCalls + answerAfterToolResult model)", () => {
  const answer = "Done.";
  let wllama: Wllama;
  beforeAll(async () => {
    ({ wllama } = await load(makeTinyGguf({ eagerToolCalls: true, answerAfterToolResult: answer })));
  }, 60_000);
  afterAll(async () => {
    await wllama?.exit();
  });

  type Message = ChatCompletionParams["messages"][number];
  const user: Message = { role: "user", content: "What is the weather in Paris?" };
  /** The history after the tool call `call` ran and returned `result`. */
  const afterTool = (call: { id: string; name: string; arguments: string }, result = "sunny, 21 C"): Message[] => [
    user,
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }],
    },
    { role: "tool", tool_call_id: call.id, content: result },
  ];
  const someCall = { id: "call_1", name: "add", arguments: '{"a":1,"b":2}' };

  /** Streams one chat completion with both tools (tool_choice "auto") and adds the deltas up, as an agent harness does. */
  async function streamTurn(messages: Message[], temperature: number, seed: number) {
    const req: ChatStream = {
      messages,
      tools: [weatherTool, addTool],
      tool_choice: "auto",
      temperature,
      seed,
      max_tokens: 300,
      stream: true,
    };
    let content = "";
    let finish: string | null = null;
    const calls: { id: string; name: string; arguments: string }[] = [];
    for await (const chunk of await wllama.createChatCompletion(req)) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? "";
      for (const delta of choice?.delta.tool_calls ?? []) {
        const call = (calls[delta.index] ??= { id: "", name: "", arguments: "" });
        call.id += delta.id ?? "";
        call.name += delta.function?.name ?? "";
        call.arguments += delta.function?.arguments ?? "";
      }
      finish = choice?.finish_reason ?? finish;
    }
    return { content, finish, calls };
  }

  it("ends the generation prompt with </tool_response> only when the last message is a tool result", async () => {
    const prompt = async (messages: Message[], tools?: ChatCompletionTool[]) =>
      verbosePrompt(await wllama.createChatCompletion({ messages, tools, max_tokens: 1, verbose: true } as Chat));
    // exactly the plain Qwen2.5 rendering while the last message is not a tool result
    expect(await prompt([user])).toBe(
      "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n" +
        "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n",
    );
    const first = await prompt([user], [weatherTool]);
    expect(first.endsWith("<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
    expect(await prompt(afterTool(someCall), [weatherTool])).toBe(
      first +
        '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call><|im_end|>\n' +
        "<|im_start|>user\n<tool_response>\nsunny, 21 C\n</tool_response><|im_end|>\n<|im_start|>assistant\n</tool_response>",
    );
    expect(wllama.getChatTemplate()).toBe(QWEN25_TOOL_RESULT_CHAT_TEMPLATE);
  });

  it.each([0.7, 0])(
    "user message → one tool call, tool result → the fixed answer (streamed, tool_choice auto, temperature %s)",
    async (temperature) => {
      for (const seed of [1, 2, 3, 4]) {
        const first = await streamTurn([user], temperature, seed);
        expect(first.finish).toBe("tool_calls");
        expect(first.content).toBe("");
        expect(first.calls).toHaveLength(1);
        const call = first.calls[0]!;
        expect(call.id).toMatch(/^\w{8,}$/);
        expectValidCall(call.name, call.arguments);

        const second = await streamTurn(afterTool(call), temperature, seed);
        expect(second).toEqual({ content: answer, finish: "stop", calls: [] });
      }
    },
  );

  it("answers a tool result the same way without tools, with tool_choice none, non-streamed and at high temperature", async () => {
    const history = afterTool(someCall, "3");
    const variants: Chat[] = [
      { messages: history, max_tokens: 20 },
      { messages: history, tools: [weatherTool], tool_choice: "none", max_tokens: 20 },
      { messages: history, tools: [weatherTool, addTool], tool_choice: "auto", max_tokens: 20, temperature: 2, seed: 7 },
    ];
    for (const req of variants) {
      const choice = (await wllama.createChatCompletion(req)).choices[0]!;
      expect(choice.finish_reason).toBe("stop");
      expect(choice.message.content).toBe(answer);
      expect(choice.message.tool_calls ?? []).toEqual([]);
    }
  });

  it("calls a tool again when the user follows up after the answer", async () => {
    const messages: Message[] = [
      ...afterTool(someCall, "3"),
      { role: "assistant", content: answer },
      { role: "user", content: "And Tokyo?" },
    ];
    const next = await streamTurn(messages, 0.7, 5);
    expect(next.finish).toBe("tool_calls");
    expect(next.calls).toHaveLength(1);
    expectValidCall(next.calls[0]!.name, next.calls[0]!.arguments);
  });
});

/**
 * The same tool calling in the Llama 3.x and Hermes 2 Pro formats (templates
 * in those formats, src/testing/gguf/tiny-model.ts): llama.cpp derives the format from
 * the GGUF's template (its differential "autoparser"; neither has a
 * specialized handler in this build), renders tools, calls and results, and
 * parses the call out of the output, with the grammar keeping it to the
 * schema. The models are wired to start a call at once (`eagerToolCalls`).
 *
 * Llama 3.x with tool_choice "auto" is the exception: its call has no marker
 * token, so the lazy grammar waits for the call's opening text, which a
 * random-weight model starting with "{" never writes; llama.cpp's final
 * parse of that output fails ("does not match the expected peg-native
 * format"), and wllama 3.13 cannot decode that error (a RuntimeError,
 * "Invalid typed array length": it reads the "GLUE" magic as a length). With
 * "required" the grammar holds from the first token.
 */
describe.each([
  {
    format: "Llama 3.x",
    options: { chatTemplate: LLAMA32_CHAT_TEMPLATE, extraSpecialTokens: LLAMA3_SPECIAL_TOKENS, eagerToolCalls: "json" },
    system: "Environment: ipython\n",
    call: '<|start_header_id|>assistant<|end_header_id|>\n\n{"name": "get_weather", "parameters": {"city": "Paris"}}<|eot_id|>',
    result: "<|start_header_id|>ipython<|end_header_id|>\n\nsunny<|eot_id|>",
    prompt: "<|start_header_id|>assistant<|end_header_id|>\n\n",
    choices: ["required"],
  },
  {
    format: "Hermes 2 Pro",
    options: { chatTemplate: HERMES2PRO_CHAT_TEMPLATE, eagerToolCalls: true },
    system: "<|im_start|>system\nYou are a function calling AI model.",
    call: '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n',
    result: "<|im_start|>tool\n<tool_response>\nsunny\n</tool_response><|im_end|>\n",
    prompt: "<|im_start|>assistant\n",
    choices: ["required", "auto"],
  },
] satisfies Array<{
  format: string;
  options: TinyGgufOptions;
  system: string;
  call: string;
  result: string;
  prompt: string;
  /** The tool_choice values under which the model's call parses. */
  choices: Array<"required" | "auto">;
}>)("tool calls in the $format format", ({ format, options, system, call, result, prompt, choices }) => {
  let wllama: Wllama;
  beforeAll(async () => {
    ({ wllama } = await load(makeTinyGguf(options)));
  }, 60_000);
  afterAll(async () => {
    await wllama?.exit();
  });

  it("renders tools, a call and its result through the format's template", async () => {
    const req: Chat = {
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny" },
      ],
      tools: [weatherTool],
      tool_choice: "none",
      max_tokens: 1,
      verbose: true,
    };
    const rendered = verbosePrompt(await wllama.createChatCompletion(req));
    expect(rendered).toContain(system);
    expect(rendered).toContain('{"type": "function", "function": {"name": "get_weather"');
    expect(rendered).toContain(call);
    expect(rendered).toContain(result);
    expect(rendered.endsWith(prompt)).toBe(true);
  });

  it("returns parsed, schema-valid tool calls (grammar-constrained)", async () => {
    for (const [toolChoice, seed] of choices.flatMap((c) => [1, 2, 3].map((n) => [c, n] as const))) {
      const res = await wllama.createChatCompletion({
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        tools: [weatherTool, addTool],
        tool_choice: toolChoice,
        max_tokens: 300,
        seed,
      });
      const choice = res.choices[0]!;
      expect(choice.finish_reason).toBe("tool_calls");
      expect((choice.message.content ?? "").trim()).toBe("");
      expect(choice.message.tool_calls?.length).toBeGreaterThanOrEqual(1);
      for (const c of choice.message.tool_calls!) expectValidCall(c.function.name, c.function.arguments);
    }
  });

  // Seeded samples at temperature 0.7: reproducible (an unseeded sample failed CI about 1 run in 100), and the
  // same seed gives the same call.
  it("gives ChatWllama (LangChain) a tool call that fits its schema", async () => {
    for (const seed of [1, 2, 3]) {
      const model = new ChatWllama({ engine: wllamaEngine(wllama, "tiny.gguf"), maxTokens: 300, seed });
      const bound = model.bindTools([weatherTool, addTool], { tool_choice: choices.at(-1)! });
      const out = await bound.invoke([new HumanMessage("What is the weather in Paris?")]);
      expect(out.response_metadata.finish_reason).toBe("tool_calls");
      expect(out.invalid_tool_calls ?? []).toEqual([]);
      expect(out.tool_calls?.length).toBeGreaterThanOrEqual(1);
      for (const c of out.tool_calls!) expectValidCall(c.name, JSON.stringify(c.args));
      const again = await bound.invoke([new HumanMessage("What is the weather in Paris?")]);
      expect(again.tool_calls!.map(({ name, args }) => ({ name, args }))).toEqual(
        out.tool_calls!.map(({ name, args }) => ({ name, args })),
      );
    }
  });

  // Registered for the formats whose auto calls do not parse (Llama 3.x).
  if (!(choices as string[]).includes("auto"))
    it(`${format}, tool_choice auto: the output fails llama.cpp's parse, and ChatWllama reports a failed answer, never text`, async () => {
      const ask = {
        messages: [{ role: "user" as const, content: "What is the weather in Paris?" }],
        tools: [weatherTool, addTool],
        max_tokens: 300,
        seed: 1,
      };
      await expect(wllama.createChatCompletion({ ...ask, tool_choice: "auto" })).rejects.toThrow(/Invalid typed array length/);
      // Greedy, so the outcome does not depend on sampling (at 0.7 an unseeded sample may end at once, with no call).
      const model = new ChatWllama({ engine: wllamaEngine(wllama, "tiny.gguf"), maxTokens: 300, temperature: 0 });
      const bound = model.bindTools([weatherTool, addTool]);
      await expect(bound.invoke([new HumanMessage("What is the weather in Paris?")])).rejects.toMatchObject({
        name: "WllamaGenerationError",
        message: expect.stringMatching(/^The in-tab model failed to answer/),
      });
      // The engine stays usable.
      expect((await wllama.createChatCompletion({ ...ask, tool_choice: "required" })).choices[0]!.finish_reason).toBe("tool_calls");
    });
});

describe("split GGUF, F16 weights, grouped-query attention", () => {
  it("loads three shards passed as Blobs in order", async () => {
    const shards = makeTinyGgufSplits(3, { weightType: "f16", headCountKv: 2 });
    const { wllama } = await load(shards, 512);
    try {
      expect(wllama.getModelMetadata().meta["split.count"]).toBe("3");
      const res = await wllama.createCompletion({ prompt: "x", max_tokens: 16, grammar: 'root ::= "ok" [a-z]{1,5}' });
      expect(res.choices[0]!.text).toMatch(/^ok[a-z]{1,5}$/);
    } finally {
      await wllama.exit();
    }
  }, 60_000);
});

describe("load failures", () => {
  it("wllama resolves loadModel on a file llama.cpp rejects; loadModelChecked throws a load_error", async () => {
    const raw = newWllama();
    await raw.loadModel([blobOf(new Uint8Array(64))], { n_ctx: 256 }); // no throw: a wllama 3.13 quirk
    expect(raw.isModelLoaded()).toBe(true);
    expect(raw.getLoadedContextInfo()).toMatchObject({ success: false, n_vocab: 0 });
    await raw.exit();

    const checked = newWllama();
    await expect(loadModelChecked(checked, [blobOf(new Uint8Array(64))], { n_ctx: 256 })).rejects.toMatchObject({ type: "load_error" });
    expect(checked.isModelLoaded()).toBe(false);
    // unnamed Blobs are not sorted: shards must come in order (File objects are sorted by their -0000N-of- name)
    const [first, second] = makeTinyGgufSplits(2);
    await expect(loadModelChecked(checked, [blobOf(second!), blobOf(first!)], { n_ctx: 256 })).rejects.toBeInstanceOf(WllamaError);
    const named = [new File([second! as BlobPart], "m-00002-of-00002.gguf"), new File([first! as BlobPart], "m-00001-of-00002.gguf")];
    await loadModelChecked(checked, named, { n_ctx: 256 });
    expect((await checked.createCompletion({ prompt: "x", max_tokens: 2, ignore_eos: true })).usage.completion_tokens).toBe(2);
    await checked.exit();
  }, 60_000);
});

describe("inside a module Web Worker", () => {
  const { track } = workerPool();

  it("loads and generates from a WorkerGlobalScope (wllama spawns its own nested worker)", async () => {
    const worker = track(new Worker(new URL("./wllama-probe.worker.ts", import.meta.url), { type: "module" }));
    const gguf = makeTinyGguf().buffer as ArrayBuffer;
    const reply = new Promise<ProbeResponse>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<ProbeResponse>) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
    });
    const request: ProbeRequest = { gguf, grammar: 'root ::= "[" [0-9] ("," [0-9]){2} "]"' };
    worker.postMessage(request, [gguf]);
    const res = await reply;
    if (!res.ok) throw new Error(res.error);
    expect(res).toMatchObject({ inWorker: true, crossOriginIsolated: true, multithread: false });
    expect(JSON.parse(res.text)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
  }, 60_000);
});

describe("model cache (OPFS) through loadModelFromUrl", () => {
  // fetch is stubbed for this one origin; nothing goes to the network
  const url = "https://models.deeptab.invalid/tiny-00001-of-00002.gguf";
  const shards = makeTinyGgufSplits(2);
  const bodies = new Map(shards.map((b, i) => [url.replace("00001-of", `0000${i + 1}-of`), b]));
  const realFetch = globalThis.fetch;
  const calls: string[] = [];

  beforeAll(() => {
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const href = input instanceof Request ? input.url : String(input);
      if (!href.startsWith("https://models.deeptab.invalid/")) return realFetch(input, init);
      const body = bodies.get(href);
      calls.push(`${init?.method ?? "GET"} ${href.slice(href.lastIndexOf("/") + 1)}`);
      if (!body) return new Response("not found", { status: 404 });
      const headers = { "content-length": String(body.byteLength), etag: '"v1"' };
      return new Response(init?.method === "HEAD" ? null : body.slice(), { headers });
    };
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });

  it("downloads every shard once with progress, lists it, loads from cache, deletes it", async () => {
    const first = newWllama();
    const progress: { loaded: number; total: number }[] = [];
    await first.loadModelFromUrl(url, { n_ctx: 512, progressCallback: (p) => progress.push(p) });
    const total = shards.reduce((n, b) => n + b.byteLength, 0);
    expect(progress.at(-1)).toEqual({ loaded: total, total });
    expect(calls.filter((c) => c.startsWith("GET")).sort()).toEqual(["GET tiny-00001-of-00002.gguf", "GET tiny-00002-of-00002.gguf"]);
    expect((await first.createCompletion({ prompt: "x", max_tokens: 2, ignore_eos: true })).usage.completion_tokens).toBe(2);
    await first.exit();

    const models = await first.modelManager.getModels();
    const model = models.find((m) => m.url === url);
    expect(model).toBeDefined();
    expect(model!.size).toBe(total);
    expect(model!.files.map((f) => f.metadata.originalURL)).toEqual([...bodies.keys()]);

    calls.length = 0;
    const second = newWllama();
    await second.loadModelFromUrl(url, { n_ctx: 512 });
    expect(calls).toEqual([]); // served from OPFS, no request at all (not even a revalidation)
    await second.exit();

    await model!.remove();
    expect((await second.modelManager.getModels()).some((m) => m.url === url)).toBe(false);
  }, 60_000);
});
