/** StreamingChatModel: `invoke` answers with the subclass's stream assembled into one message. */
import type { BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { describe, expect, it } from "vitest";
import { StreamingChatModel } from "./streaming-chat-model.ts";

/** A model that streams the given chunks, then fails with `error` if given. */
class StreamOf extends StreamingChatModel<BaseChatModelCallOptions> {
  readonly #chunks: AIMessageChunk[];
  readonly #error: Error | undefined;

  constructor(chunks: AIMessageChunk[], error?: Error) {
    super({});
    this.#chunks = chunks;
    this.#error = error;
  }

  _llmType(): string {
    return "stream-of";
  }

  override async *_streamResponseChunks(_messages: BaseMessage[]): AsyncGenerator<ChatGenerationChunk> {
    for (const message of this.#chunks) yield new ChatGenerationChunk({ text: message.text, message });
    if (this.#error) throw this.#error;
  }
}

const hi = [new HumanMessage("hi")];

describe("StreamingChatModel", () => {
  it("joins text, tool-call chunks, usage and the finish reason into the one message invoke returns", async () => {
    const model = new StreamOf([
      new AIMessageChunk({ content: "Let me " }),
      new AIMessageChunk({ content: "check." }),
      new AIMessageChunk({
        content: "",
        tool_call_chunks: [{ type: "tool_call_chunk", index: 0, id: "c1", name: "weather", args: '{"city":' }],
      }),
      new AIMessageChunk({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", index: 0, args: '"Tokyo"}' }] }),
      new AIMessageChunk({
        content: "",
        usage_metadata: { input_tokens: 7, output_tokens: 5, total_tokens: 12 },
        response_metadata: { finish_reason: "tool_calls" },
      }),
    ]);
    const { generations } = await model._generate(hi, {});
    expect(generations).toHaveLength(1);
    expect(generations[0]!.text).toBe("Let me check.");
    const message = await model.invoke(hi);
    expect(message.text).toBe("Let me check.");
    expect(message.tool_calls).toEqual([{ type: "tool_call", id: "c1", name: "weather", args: { city: "Tokyo" } }]);
    expect(message.usage_metadata).toMatchObject({ input_tokens: 7, output_tokens: 5, total_tokens: 12 });
    expect(message.response_metadata).toMatchObject({ finish_reason: "tool_calls" });
  });

  it("answers an empty stream with an empty message", async () => {
    const { generations } = await new StreamOf([])._generate(hi, {});
    expect(generations).toHaveLength(1);
    expect(generations[0]!.text).toBe("");
    expect(generations[0]!.message).toBeInstanceOf(AIMessageChunk);
    expect(generations[0]!.message.content).toBe("");
  });

  it("rejects with the stream's error", async () => {
    const model = new StreamOf([new AIMessageChunk({ content: "half" })], new Error("engine crashed"));
    await expect(model.invoke(hi)).rejects.toThrow("engine crashed");
  });
});
