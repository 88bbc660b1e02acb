/**
 * ChatWllama's mapping, over an engine that plays back the chunks llama.cpp
 * (wllama) streams. The real engine is exercised in chat-wllama.browser.test.ts.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import type { ChatCompletionChunk } from "@wllama/wllama";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { maxInputTokens } from "../../context/model-windows.ts";
import { ChatWllama, malformedToolCall, toWllamaMessages, type ServerExtras, type WllamaEngine } from "./chat-wllama.ts";
import type { ChatCompletionParams } from "@wllama/wllama";

type Params = ChatCompletionParams & ServerExtras;

function chunk(
  delta: ChatCompletionChunk["choices"][number]["delta"],
  finish: ChatCompletionChunk["choices"][number]["finish_reason"] = null,
): ChatCompletionChunk {
  return {
    id: "",
    object: "chat.completion.chunk",
    created: 0,
    model: "",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  };
}

const usage = (p: number, c: number): ChatCompletionChunk => ({
  id: "",
  object: "chat.completion.chunk",
  created: 0,
  model: "",
  choices: [],
  usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
});

/** Plays one scripted stream per request and records the requests. */
function fakeEngine(streams: Array<ChatCompletionChunk[] | Error>, contextSize = 4_096): WllamaEngine & { requests: Params[] } {
  const requests: Params[] = [];
  return {
    requests,
    modelName: "tiny.gguf",
    contextSize: () => contextSize,
    async streamChat(params) {
      requests.push(params);
      const next = streams.shift();
      if (!next) throw new Error("no more scripted streams");
      if (next instanceof Error) throw next;
      return (async function* () {
        for (const c of next) {
          if (params.abortSignal?.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
          yield c;
          await new Promise((r) => setTimeout(r, 1));
        }
      })();
    },
  };
}

const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "Weather of a city.",
  schema: z.object({ city: z.enum(["Paris", "Tokyo"]) }),
});

describe("ChatWllama", () => {
  it("maps messages to llama-server's chat format (system messages merged first, tool calls as JSON text)", () => {
    const messages = toWllamaMessages([
      new SystemMessage("be brief"),
      new HumanMessage("weather?"),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "get_weather", args: { city: "Paris" }, type: "tool_call" }] }),
      new ToolMessage({ content: "sunny", tool_call_id: "c1" }),
      new SystemMessage("and polite"),
    ]);
    expect(messages).toEqual([
      { role: "system", content: "be brief\n\nand polite" },
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", content: "sunny", tool_call_id: "c1" },
    ]);
  });

  it("streams text token by token, with usage at the end, and reports its loaded context as the window", async () => {
    const engine = fakeEngine([
      [chunk({ role: "assistant", content: null }), chunk({ content: "Hel" }), chunk({ content: "lo" }), chunk({}, "stop"), usage(12, 2)],
    ]);
    const model = new ChatWllama({ engine });
    const pieces: string[] = [];
    let whole: AIMessageChunk | undefined;
    for await (const c of await model.stream([new HumanMessage("hi")])) {
      if (c.text) pieces.push(c.text);
      whole = whole ? whole.concat(c) : c;
    }
    expect(pieces).toEqual(["Hel", "lo"]);
    expect(whole!.text).toBe("Hello");
    expect(whole!.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 2, total_tokens: 14 });
    expect(engine.requests[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.7,
      max_tokens: 1_024,
    });
    expect(engine.requests[0]).not.toHaveProperty("seed");
    expect(new ChatWllama({ engine, seed: 7 }).invocationParams()).toMatchObject({ seed: 7 });
    expect(maxInputTokens(model)).toBe(4_096);
  });

  it("binds tools (auto by default) and turns tool-call deltas into a tool call", async () => {
    const engine = fakeEngine([
      [
        chunk({ tool_calls: [{ index: 0, id: "abc", type: "function", function: { name: "get_weather", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Tokyo"}' } }] }),
        chunk({}, "tool_calls"),
      ],
    ]);
    const bound = new ChatWllama({ engine }).bindTools([weather]);
    const out = await bound.invoke([new HumanMessage("weather in Tokyo?")]);
    expect(out.tool_calls).toEqual([{ id: "abc", name: "get_weather", args: { city: "Tokyo" }, type: "tool_call" }]);
    const sent = engine.requests[0]!;
    expect(sent.tool_choice).toBe("auto");
    expect(sent.tools![0]!.function.name).toBe("get_weather");
    expect(sent.tools![0]!.function.parameters).toMatchObject({ properties: { city: { enum: ["Paris", "Tokyo"] } } });
  });

  it("aborts with the call's signal, and maps a prompt over the context to ContextOverflowError", async () => {
    const engine = fakeEngine([
      Array.from({ length: 50 }, () => chunk({ content: "x" })),
      new Error("request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it"),
      new Error("RuntimeError: Invalid typed array length: 1163217991"),
    ]);
    const model = new ChatWllama({ engine });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await expect(model.invoke([new HumanMessage("long")], { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    await expect(model.invoke([new HumanMessage("too long")])).rejects.toMatchObject({ name: "ContextOverflowError" });
    await expect(model.invoke([new HumanMessage("crash")])).rejects.toMatchObject({ name: "WllamaGenerationError", code: "model_failed" });
  });

  it("runs an agent turn: a tool call, its result, an answer; the small window picks the compact profile", async () => {
    const engine = fakeEngine([
      [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "call_0",
              type: "function",
              function: { name: "write_file", arguments: '{"file_path":"/a.md","content":"hi"}' },
            },
          ],
        }),
        chunk({}, "tool_calls"),
      ],
      [chunk({ content: "Saved." }), chunk({}, "stop")],
    ]);
    const out = await createDeepAgent({ model: new ChatWllama({ engine }) }).invoke({ messages: [new HumanMessage("save hi")] });
    expect(out.messages.map((m: { getType(): string }) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(out.messages.at(-1)!.text).toBe("Saved.");
    expect(engine.requests[1]!.messages.at(-1)).toEqual({ role: "tool", content: "Updated file /a.md", tool_call_id: "call_0" });
    // A 4,096-token model gets the one-line tool texts and no compact_conversation.
    const tools = engine.requests[0]!.tools!.map((t) => t.function);
    expect(tools.find((t) => t.name === "ls")!.description).toBe("List a directory.");
    expect(tools.map((t) => t.name)).not.toContain("compact_conversation");
  });
});

describe("ChatWllama: a malformed tool call is never a final answer", () => {
  /** A fake engine stream that fails after `chunks`, as wllama 3.13 does when llama.cpp cannot parse the output. */
  function failing(chunks: ChatCompletionChunk[]): WllamaEngine {
    return {
      modelName: "tiny.gguf",
      contextSize: () => 4_096,
      async streamChat() {
        return (async function* () {
          yield* chunks;
          throw new Error("RuntimeError: Invalid typed array length: 1163217991");
        })();
      },
    };
  }
  const errorResults = (messages: BaseMessage[]) =>
    messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m) && m.status === "error").map((m) => m.text);

  it("finds where a call starts in text llama.cpp did not parse, in each format, and nothing in plain text", () => {
    for (const text of [
      'Sure. <tool_call>\n{"name": "get_weather", "arguments": {"city": "Par',
      '<|python_tag|>{"name": "get_weather", "parameters": {"city": ',
      '{"name": "get_weather", "parameters": {"city": "Paris"',
      "<function=get_weather>\n<parameter=city>\nParis",
      '[TOOL_CALLS][{"name": "get_weather", "arguments": {',
    ]) {
      const call = malformedToolCall(text, 2)!;
      expect(call, text).toMatchObject({ type: "tool_call_chunk", index: 2, id: expect.stringMatching(/^call_\w{12}$/) });
      expect(text.endsWith(call.args!)).toBe(true);
      expect(() => JSON.parse(call.args!)).toThrow();
    }
    expect(malformedToolCall('<tool_call>\n{"name": "get_weather", "arguments": {', 0)!.name).toBe("get_weather");
    expect(malformedToolCall("<function=get_weather>", 0)!.name).toBeUndefined();
    for (const text of ["It is sunny in Paris.", "Use {braces} and a name: x", 'JSON like {"city": "Paris"} is fine']) {
      expect(malformedToolCall(text, 0), text).toBeUndefined();
    }
  });

  it("a call left as text becomes an error result; the model calls again and answers", async () => {
    const engine = fakeEngine([
      [chunk({ content: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par' }), chunk({}, "length")],
      [
        chunk({ tool_calls: [{ index: 0, id: "c2", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] }),
        chunk({}, "tool_calls"),
      ],
      [chunk({ content: "Sunny." }), chunk({}, "stop")],
    ]);
    const out = await createDeepAgent({ model: new ChatWllama({ engine }), tools: [weather] }).invoke({
      messages: [new HumanMessage("weather in Paris?")],
    });
    const messages = out.messages as BaseMessage[];
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai", "tool", "ai"]);
    const [problem] = errorResults(messages);
    expect(problem).toMatch(
      new RegExp(
        /^Error: the arguments of your call to 'get_weather' are not usable: /.source +
          /the argument text is not one complete JSON object \(was it cut off\?\)\. Arguments received: <tool_call>/.source,
      ),
    );
    expect(problem).toMatch(/Call the tool again with its arguments as one JSON object\.$/);
    // The model saw the error result, and its next call ran.
    expect(engine.requests[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: problem });
    expect(messages[4]!.text).toBe("sunny in Paris");
    expect(messages.at(-1)!.text).toBe("Sunny.");
  });

  it("a call cut off by the token limit (its arguments not JSON) becomes an error result", async () => {
    const engine = fakeEngine([
      [
        chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":' } }] }),
        chunk({}, "length"),
      ],
      [chunk({ content: "Let me stop." }), chunk({}, "stop")],
    ]);
    const out = await createDeepAgent({ model: new ChatWllama({ engine }), tools: [weather] }).invoke({
      messages: [new HumanMessage("weather?")],
    });
    const messages = out.messages as BaseMessage[];
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(errorResults(messages)[0]).toMatch(
      /^Error: the arguments of your call to 'get_weather' are not usable: .*Arguments received: \{"city":/,
    );
  });

  it("an empty answer cut at the token limit (llama.cpp drops a call cut inside its name) becomes an error result", async () => {
    const engine = fakeEngine([
      [chunk({ role: "assistant", content: null }), chunk({}, "length")],
      [chunk({ content: "Done." }), chunk({}, "stop")],
    ]);
    const out = await createDeepAgent({ model: new ChatWllama({ engine, maxTokens: 12 }), tools: [weather] }).invoke({
      messages: [new HumanMessage("weather?")],
    });
    const messages = out.messages as BaseMessage[];
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(errorResults(messages)[0]).toMatch(
      new RegExp(
        /^Error: the arguments of your call to '\(no name\)' are not usable: .*Arguments received: /.source +
          /\(nothing: the answer reached the limit of 12 tokens before the tool call was complete; make the call shorter\)/.source,
      ),
    );
    // Without tools bound, an empty answer at the limit is just that.
    const plain = await new ChatWllama({ engine: fakeEngine([[chunk({}, "length")]]) }).invoke([new HumanMessage("hi")]);
    expect(plain.tool_call_chunks ?? []).toEqual([]);
  });

  it("a generation that fails inside a call ends as that call, with an error result; failing elsewhere still throws", async () => {
    const insideCall = new ChatWllama({
      engine: failing([chunk({ content: 'Checking. <tool_call>\n{"name": "get_weather", "argu' })]),
    }).bindTools([weather]);
    const out = await insideCall.invoke([new HumanMessage("weather?")]);
    expect(out.text).toBe('Checking. <tool_call>\n{"name": "get_weather", "argu');
    expect(out.tool_calls ?? []).toEqual([]);
    expect(out.invalid_tool_calls).toEqual([
      expect.objectContaining({ name: "get_weather", args: '<tool_call>\n{"name": "get_weather", "argu' }),
    ]);

    const midDelta = new ChatWllama({
      engine: failing([
        chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "get_weather", arguments: '{"ci' } }] }),
      ]),
    }).bindTools([weather]);
    // The cut call is kept as it came (the harness checks its raw arguments strictly: an error result).
    const cut = await midDelta.invoke([new HumanMessage("weather?")]);
    expect(cut.tool_call_chunks).toEqual([expect.objectContaining({ id: "c1", name: "get_weather", args: '{"ci' })]);

    const plain = new ChatWllama({ engine: failing([chunk({ content: "It is" })]) }).bindTools([weather]);
    await expect(plain.invoke([new HumanMessage("weather?")])).rejects.toMatchObject({ name: "WllamaGenerationError" });
    const noTools = new ChatWllama({ engine: failing([chunk({ content: "<tool_call>" })]) });
    await expect(noTools.invoke([new HumanMessage("hi")])).rejects.toMatchObject({ name: "WllamaGenerationError" });
  });

  it("text with no call in it stays the answer, with or without tools", async () => {
    const engine = fakeEngine([[chunk({ content: 'The JSON {"city": "Paris"} is the answer.' }), chunk({}, "stop")]]);
    const out = await new ChatWllama({ engine }).bindTools([weather]).invoke([new HumanMessage("q")]);
    expect(out.text).toBe('The JSON {"city": "Paris"} is the answer.');
    expect(out.tool_calls).toEqual([]);
    expect(out.invalid_tool_calls ?? []).toEqual([]);
  });
});
