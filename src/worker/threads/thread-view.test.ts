/**
 * The context meter's numbers from what the real provider clients report:
 * the OpenAI and Anthropic clients (as the app builds them) answer through
 * the loopback servers with cache reads, and the last request's tokens and
 * the thread's totals count every prompt token once.
 */
import { AIMessage, HumanMessage, ToolMessage, type AIMessageChunk } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { remoteModelFor } from "../../testing/remote-model.ts";
import type { Dialect } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { clearedMessage } from "../../context/clear-results.ts";
import { estimateMessageTokens } from "../../context/tokens.ts";
import { addUsage } from "../../core/usage.ts";
import { lastRequestTokens, threadUsage, totalUsage } from "./thread-view.ts";

const serve = serveScripted();

/** One answer from the provider's real client, built as the app builds it, streamed as the app streams it. */
async function answer(dialect: Dialect, usage: { input: number; output: number; cacheRead?: number }): Promise<AIMessage> {
  const server = await serve(dialect, [{ text: "Done.", usage }]);
  let message: AIMessageChunk | undefined;
  for await (const chunk of await (await remoteModelFor(server)).stream([new HumanMessage("go")]))
    message = message ? message.concat(chunk) : (chunk as AIMessageChunk);
  return new AIMessage({ content: message!.content, ...(message!.usage_metadata ? { usage_metadata: message!.usage_metadata } : {}) });
}

describe("the context meter's numbers", () => {
  for (const dialect of ["openai", "anthropic"] as const) {
    it(`${dialect}: a request with 1,000 of its 1,200 prompt tokens cached counts 1,200 prompt tokens, not 2,200`, async () => {
      const ai = await answer(dialect, { input: 1_200, output: 30, cacheRead: 1_000 });
      // LangChain's input_tokens already include the cache reads; the cached part is a detail of them.
      expect(ai.usage_metadata?.input_tokens).toBe(1_200);
      expect(ai.usage_metadata?.input_token_details?.cache_read).toBe(1_000);
      const output = ai.usage_metadata!.output_tokens;
      const messages = [new HumanMessage("go"), ai];
      expect(lastRequestTokens(messages, undefined)).toBe(1_200 + output);
      expect(totalUsage(messages)).toEqual({ input: 1_200, output, cacheRead: 1_000 });
    });
  }

  it("totals sum every reported call; the last request is the newest answer's, else an estimate", () => {
    const call = (input: number, output: number, cacheRead?: number) =>
      new AIMessage({
        content: "",
        usage_metadata: {
          input_tokens: input,
          output_tokens: output,
          total_tokens: input + output,
          ...(cacheRead !== undefined ? { input_token_details: { cache_read: cacheRead } } : {}),
        },
      });
    const messages = [new HumanMessage("a"), call(100, 10), call(300, 20, 100), new HumanMessage("b"), call(500, 5, 400)];
    expect(totalUsage(messages)).toEqual({ input: 900, output: 35, cacheRead: 500 });
    expect(lastRequestTokens(messages, undefined)).toBe(505);
    // A stopped answer (no usage) after them: the estimate, not an older call's count.
    const stopped = [...messages, new AIMessage("partial")];
    expect(lastRequestTokens(stopped, undefined)).toBeGreaterThan(0);
    expect(lastRequestTokens(stopped, undefined)).not.toBe(505);
    // Old results the harness cleared count as their notes, as the model got them.
    const result = new ToolMessage({ content: "r".repeat(40_000), tool_call_id: "c1" });
    const withResult = [new HumanMessage("a"), new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "t", args: {} }] }), result];
    const whole = lastRequestTokens([...withResult, new AIMessage("partial")], undefined);
    const cleared = lastRequestTokens([...withResult, new AIMessage("partial")], undefined, { before: 3, createdAtLength: 3 });
    expect(whole).toBeGreaterThan(10_000);
    expect(cleared).toBe(whole - estimateMessageTokens(result) + estimateMessageTokens(clearedMessage(result)));
    expect(addUsage({ input: 1, output: 2 }, { input: 3, output: 4, cacheRead: 1 })).toEqual({ input: 4, output: 6, cacheRead: 1 });
    expect(addUsage({ input: 1, output: 2 }, { input: 3, output: 4 })).toEqual({ input: 4, output: 6 });
  });

  it("the thread's usage adds its subagents' calls and its summarization calls to its own", () => {
    const own = new AIMessage({ content: "x", usage_metadata: { input_tokens: 100, output_tokens: 10, total_tokens: 110 } });
    const event = {
      cutoffIndex: 1,
      summaryMessage: new HumanMessage("summary"),
      filePath: "/conversation_history/t.md",
      createdAtLength: 2,
      usage: { input: 2_000, output: 80, cacheRead: 500 },
    };
    const children = { input: 40, output: 4 };
    expect(threadUsage([new HumanMessage("a"), own], children, event)).toEqual({ input: 2_140, output: 94, cacheRead: 500 });
    expect(threadUsage([new HumanMessage("a"), own], children, undefined)).toEqual({ input: 140, output: 14 });
  });
});
