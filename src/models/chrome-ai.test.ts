/**
 * Chrome's built-in model adapter without the model: detection, the message
 * and tool mapping, and replies through a fake page port. Gemini Nano itself
 * is not on this machine, so what the real model answers is not verified.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { createPromptApiPort, languageModelApi, type LanguageModelApi } from "../page/prompt-api-host.ts";
import { ChatChromeAI, parseReply, promptApiAvailability, toPromptRequest, type PromptRequest } from "./chrome-ai.ts";

/** A stand-in for `window.LanguageModel` that replies with scripted text in two pieces. */
function fakeLanguageModel(
  replies: string[],
): LanguageModelApi & { requests: Array<{ initialPrompts: unknown; input: string; constraint: unknown }>; destroyed: number } {
  const requests: Array<{ initialPrompts: unknown; input: string; constraint: unknown }> = [];
  const fake = {
    requests,
    destroyed: 0,
    async create(options?: { initialPrompts?: PromptRequest["initialPrompts"] }) {
      return {
        contextWindow: 6_000,
        destroy: () => void fake.destroyed++,
        promptStreaming(input: string, o?: { responseConstraint?: unknown }) {
          requests.push({ initialPrompts: options?.initialPrompts, input, constraint: o?.responseConstraint });
          const reply = replies.shift() ?? "";
          const half = Math.ceil(reply.length / 2);
          return new ReadableStream<string>({
            start(c) {
              c.enqueue(reply.slice(0, half));
              c.enqueue(reply.slice(half));
              c.close();
            },
          });
        },
      };
    },
  };
  return fake;
}

describe("Chrome's built-in model (Prompt API)", () => {
  it("is detected only where LanguageModel exists and says it is available", async () => {
    expect(await promptApiAvailability({})).toBe("unavailable");
    expect(await promptApiAvailability({ LanguageModel: { availability: async () => "downloadable" } })).toBe("downloadable");
    expect(await promptApiAvailability({ LanguageModel: { availability: async () => Promise.reject(new Error("policy")) } })).toBe(
      "unavailable",
    );
    expect(languageModelApi({})).toBeUndefined();
  });

  it("maps a conversation: history as initialPrompts, the last user turns as the prompt, tools as a JSON constraint", () => {
    const weather = {
      type: "function" as const,
      function: {
        name: "get_weather",
        description: "Weather.",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    };
    const request = toPromptRequest(
      [
        new SystemMessage("be brief"),
        new HumanMessage("weather in Paris?"),
        new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "get_weather", args: { city: "Paris" }, type: "tool_call" }] }),
        new ToolMessage({ content: "sunny", tool_call_id: "c1", name: "get_weather" }),
      ],
      [weather],
    );
    expect(request.initialPrompts[0]!.role).toBe("system");
    expect(request.initialPrompts[0]!.content).toMatch(/^be brief\n\nYou can call these tools:\n- get_weather: Weather\./);
    expect(request.initialPrompts.slice(1)).toEqual([
      { role: "user", content: "weather in Paris?" },
      { role: "assistant", content: '{"tool_calls":[{"name":"get_weather","arguments":{"city":"Paris"}}]}' },
    ]);
    expect(request.input).toBe("Result of tool call c1 (get_weather):\nsunny");
    expect(JSON.stringify(request.responseConstraint)).toContain('"const":"get_weather"');
  });

  it("parses constrained replies into an answer or tool calls, and anything else into an invalid call", () => {
    expect(parseReply('{"answer":"hi"}', true).text).toBe("hi");
    const calls = parseReply('{"tool_calls":[{"name":"ls","arguments":{"path":"/"}}]}', true).tool_calls!;
    expect(calls).toEqual([{ id: expect.stringMatching(/^chrome_/), name: "ls", args: { path: "/" }, type: "tool_call" }]);
    expect(parseReply("not json", true).invalid_tool_calls).toHaveLength(1);
    expect(parseReply("plain", false).text).toBe("plain");
  });

  it("drives an agent turn through the page port: a tool call, its result, an answer; text streams when no tools are bound", async () => {
    const lm = fakeLanguageModel([
      '{"tool_calls":[{"name":"write_file","arguments":{"file_path":"/a.md","content":"hi"}}]}',
      '{"answer":"Saved it."}',
      "Hello there",
    ]);
    const port = createPromptApiPort(lm);
    const model = new ChatChromeAI({ port, contextWindow: await port.contextWindow() });
    expect(model.profile.maxInputTokens).toBe(6_000);
    const out = await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("save hi")] });
    expect(out.messages.map((m: { getType(): string }) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(out.messages.at(-1)!.text).toBe("Saved it.");
    expect(lm.requests[1]!.input).toMatch(/^Result of tool call .* \(write_file\):\nUpdated file \/a\.md$/);
    const pieces: string[] = [];
    for await (const c of await model.stream([new HumanMessage("hi")])) pieces.push(c.text);
    expect(pieces.filter(Boolean)).toEqual(["Hello ", "there"]);
    expect(lm.destroyed).toBeGreaterThanOrEqual(4);
  });
});
