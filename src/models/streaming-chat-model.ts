/**
 * StreamingChatModel: a chat model that only streams (Chrome's model,
 * llama.cpp in the tab). A subclass writes `_streamResponseChunks`; `invoke`
 * (`_generate`) answers with the stream assembled into one message.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, ChatResult } from "@langchain/core/outputs";

export abstract class StreamingChatModel<CallOptions extends BaseChatModelCallOptions> extends BaseChatModel<CallOptions, AIMessageChunk> {
  /** The reply as it streams. Abstract here: BaseChatModel's default would call `_generate`, which calls this. */
  abstract override _streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk>;

  /**
   * The chunks of the stream concatenated (text, tool-call chunks, usage,
   * response metadata, as `AIMessageChunk.concat` merges them) into one
   * generation; an empty stream is an empty message; the stream's error
   * rejects.
   */
  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    let whole: AIMessageChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
      const message = chunk.message as AIMessageChunk;
      whole = whole ? whole.concat(message) : message;
    }
    const message = whole ?? new AIMessageChunk({ content: "" });
    return { generations: [{ text: message.text, message }] };
  }
}
