/**
 * ChatWllama: llama.cpp in the tab (wllama) as a LangChain chat model.
 *
 * wllama 3 runs llama-server's inference loop in WebAssembly, so the GGUF's
 * own Jinja chat template renders the prompt, llama.cpp derives a grammar
 * from the bound tools' JSON schemas (a tool call always parses and its
 * arguments fit the schema) and parses the model's tool-call format (Qwen
 * `<tool_call>`, Llama 3.x, Hermes, …) into OpenAI-shaped deltas. This class
 * maps LangChain messages to that API and the stream back to message chunks
 * with tool-call chunks and usage.
 *
 * - `bindTools(tools, { tool_choice })`; `auto` by default.
 * - Streaming (`.stream()`, and `invoke` through it), usage metadata.
 * - Abort with the call's `signal`.
 * - `profile.maxInputTokens` is the context the model was loaded with.
 * - A prompt over the context is a LangChain ContextOverflowError (the
 *   harness then summarizes and retries); a failed generation is an error
 *   with a plain message, and the engine stays usable.
 * - A malformed tool call is never a final answer. A call cut short (the
 *   token limit) keeps its partial arguments, which LangChain marks invalid;
 *   one cut before its name was complete, which llama.cpp drops (an empty
 *   message ending at the limit), becomes an invalid call saying so.
 *   Text that starts a call llama.cpp did not parse (`<tool_call>`,
 *   `<|python_tag|>`, `<function=`, `[TOOL_CALLS]`, `{"name": …`), and a
 *   generation that fails after such text or mid-call (wllama 3.13 turns
 *   llama.cpp's "does not match the format" error into a RuntimeError), end
 *   the message with an invalid tool call holding that text. The harness
 *   answers an invalid call with an error result the model can act on.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { ContextOverflowError } from "@langchain/core/errors";
import type { ModelProfile } from "@langchain/core/language_models/profile";
import { type BaseChatModelCallOptions, type BaseChatModelParams, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolCallChunk } from "@langchain/core/messages/tool";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { ChatCompletionChunk, ChatCompletionMessage, ChatCompletionParams, ChatCompletionTool } from "@wllama/wllama";
import { messageText } from "../../core/messages.ts";
import { PROMPT_PROGRESS_EVENT, type PromptProgress } from "../prompt-progress.ts";
import { StreamingChatModel } from "../streaming-chat-model.ts";

/**
 * What ChatWllama needs of an engine: a streamed chat completion and the
 * loaded context size. A loaded `Wllama` fits (see `wllamaEngine`).
 */
export interface WllamaEngine {
  /** Streams a completion; rejects (or the stream throws) on failure, with `AbortError` when aborted. */
  streamChat(params: ChatCompletionParams & ServerExtras): Promise<AsyncIterable<ChatCompletionChunk>>;
  /** Tokens the model was loaded with (n_ctx). */
  contextSize(): number;
  /** A name for the model (e.g. the GGUF file name). */
  readonly modelName: string;
}

/** llama-server fields wllama passes through without typing them. */
export interface ServerExtras {
  stream_options?: { include_usage: boolean };
  /** Streams `prompt_progress` chunks while the prompt is read, before the first token. */
  return_progress?: boolean;
  parallel_tool_calls?: boolean;
  cache_prompt?: boolean;
}

export type ToolChoice = "auto" | "required" | "none";

export interface ChatWllamaCallOptions extends BaseChatModelCallOptions {
  tools?: ChatCompletionTool[];
  tool_choice?: ToolChoice;
}

export interface ChatWllamaFields extends BaseChatModelParams {
  engine: WllamaEngine;
  /** Sampling temperature; default 0.7. */
  temperature?: number;
  /** Most tokens of one answer; default a quarter of the context. */
  maxTokens?: number;
  /** Sampling seed: the same seed, prompt and model give the same answer. Default: a new one per call (llama.cpp's). */
  seed?: number;
}

/** LangChain messages as the OpenAI chat messages llama-server takes (system messages merged first). */
export function toWllamaMessages(messages: readonly BaseMessage[]): ChatCompletionMessage[] {
  const system = messages
    .filter((m) => m.getType() === "system")
    .map(messageText)
    .filter(Boolean);
  const out: ChatCompletionMessage[] = system.length ? [{ role: "system", content: system.join("\n\n") }] : [];
  for (const m of messages) {
    const type = m.getType();
    if (type === "system") continue;
    if (ToolMessage.isInstance(m)) out.push({ role: "tool", content: messageText(m), tool_call_id: m.tool_call_id });
    else if (AIMessage.isInstance(m)) {
      const calls = (m.tool_calls ?? []).map((c) => ({
        id: c.id ?? "",
        type: "function" as const,
        function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
      }));
      out.push({ role: "assistant", content: messageText(m) || null, ...(calls.length ? { tool_calls: calls } : {}) });
    } else out.push({ role: "user", content: messageText(m) });
  }
  return out;
}

/** llama-server's `prompt_progress` of a streamed chunk (with `return_progress`), which wllama passes through untyped. */
function promptProgressOf(chunk: ChatCompletionChunk): PromptProgress | undefined {
  const p = Reflect.get(chunk, "prompt_progress") as { processed?: unknown; total?: unknown } | undefined;
  return typeof p?.processed === "number" && typeof p.total === "number" && p.total > 0
    ? { processed: Math.min(p.processed, p.total), total: p.total }
    : undefined;
}

/** Where the text of a tool call starts, in the formats llama.cpp parses (Qwen/Hermes, Llama 3.x, Qwen3-Coder, Mistral, bare JSON). */
const CALL_START = /<tool_call>|<\|python_tag\|>|<function[=>]|\[TOOL_CALLS\]|\{\s*"name"\s*:/;

/**
 * The tool call for `text` that began a call llama.cpp did not parse, or
 * undefined when the text starts no call. Its arguments are the raw text
 * from the call's start: a marker or a cut-off object, which LangChain lists
 * in `invalid_tool_calls` (a whole JSON object becomes a call whose
 * arguments fail the tool's schema); either way the harness answers it with
 * an error result.
 */
export function malformedToolCall(text: string, index: number): ToolCallChunk | undefined {
  const start = text.search(CALL_START);
  if (start < 0) return undefined;
  const raw = text.slice(start);
  const name = /"name"\s*:\s*"([^"\\]{1,200})"/.exec(raw)?.[1];
  return {
    type: "tool_call_chunk",
    index,
    id: callId(),
    ...(name ? { name } : {}),
    args: raw,
  };
}

const callId = () => `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** The invalid call for an answer llama.cpp left empty at the token limit: a call cut before its name was complete. */
function cutOffCall(index: number, maxTokens: number): ToolCallChunk {
  return {
    type: "tool_call_chunk",
    index,
    id: callId(),
    args: `(nothing: the answer reached the limit of ${maxTokens} tokens before the tool call was complete; make the call shorter)`,
  };
}

const isAbort = (err: unknown): boolean => err instanceof Error && err.name === "AbortError";

function isContextError(err: unknown): boolean {
  return err instanceof Error && /exceeds the available context size|context size|kv cache/i.test(err.message);
}

export class ChatWllama extends StreamingChatModel<ChatWllamaCallOptions> {
  readonly engine: WllamaEngine;
  readonly temperature: number;
  readonly maxTokens: number | undefined;
  readonly seed: number | undefined;

  constructor(fields: ChatWllamaFields) {
    super(fields);
    this.engine = fields.engine;
    this.temperature = fields.temperature ?? 0.7;
    this.maxTokens = fields.maxTokens;
    this.seed = fields.seed;
  }

  static override lc_name(): string {
    return "ChatWllama";
  }

  _llmType(): string {
    return "wllama";
  }

  /** The model as loaded: its context window is what summarization and the budgets use. */
  override get profile(): ModelProfile {
    return { maxInputTokens: this.engine.contextSize(), toolCalling: true };
  }

  get model(): string {
    return this.engine.modelName;
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<ChatWllamaCallOptions>,
  ): Runnable<Parameters<this["invoke"]>[0], AIMessageChunk, ChatWllamaCallOptions> {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t) as ChatCompletionTool), ...kwargs });
  }

  override invocationParams(options?: this["ParsedCallOptions"]) {
    const tools = options?.tools ?? [];
    return {
      temperature: this.temperature,
      max_tokens: this.maxTokens ?? Math.max(256, Math.floor(this.engine.contextSize() / 4)),
      ...(this.seed === undefined ? {} : { seed: this.seed }),
      ...(tools.length ? { tools, tool_choice: options?.tool_choice ?? "auto", parallel_tool_calls: true } : {}),
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    let stream: AsyncIterable<ChatCompletionChunk>;
    const params: ChatCompletionParams & ServerExtras = {
      ...this.invocationParams(options),
      messages: toWllamaMessages(messages),
      stream: true,
      stream_options: { include_usage: true },
      return_progress: true,
      ...(options.signal ? { abortSignal: options.signal } : {}),
    };
    try {
      stream = await this.engine.streamChat(params);
    } catch (err) {
      throw this.#wrap(err);
    }
    const withTools = (params.tools?.length ?? 0) > 0;
    let said = "";
    let nextIndex = 0;
    let callsSeen = false;
    let finish: string | null | undefined;
    /** The chunk that ends a message whose tool call did not parse, if it is one. */
    const malformed = (): ChatGenerationChunk | undefined => {
      if (!withTools || callsSeen) return undefined;
      const call =
        malformedToolCall(said, nextIndex) ??
        (finish === "length" && !said.trim() ? cutOffCall(nextIndex, params.max_tokens ?? 0) : undefined);
      return call && new ChatGenerationChunk({ text: "", message: new AIMessageChunk({ content: "", tool_call_chunks: [call] }) });
    };
    try {
      for await (const chunk of stream) {
        const reading = promptProgressOf(chunk);
        if (reading) await runManager?.handleCustomEvent(PROMPT_PROGRESS_EVENT, reading);
        const choice = chunk.choices[0];
        const delta = choice?.delta;
        const text = delta?.content ?? "";
        said += text;
        finish = choice?.finish_reason ?? finish;
        for (const c of delta?.tool_calls ?? []) {
          callsSeen = true;
          nextIndex = Math.max(nextIndex, c.index + 1);
        }
        const calls = (delta?.tool_calls ?? []).map((c) => ({
          index: c.index,
          ...(c.id ? { id: c.id } : {}),
          ...(c.function?.name ? { name: c.function.name } : {}),
          args: c.function?.arguments ?? "",
          type: "tool_call_chunk" as const,
        }));
        const usage = chunk.usage
          ? {
              input_tokens: chunk.usage.prompt_tokens,
              output_tokens: chunk.usage.completion_tokens,
              total_tokens: chunk.usage.total_tokens,
            }
          : undefined;
        if (!text && !calls.length && !usage && !choice?.finish_reason) continue;
        const message = new AIMessageChunk({
          content: text,
          ...(calls.length ? { tool_call_chunks: calls } : {}),
          ...(usage ? { usage_metadata: usage } : {}),
          ...(choice?.finish_reason
            ? { response_metadata: { finish_reason: choice.finish_reason, model_name: this.engine.modelName } }
            : {}),
        });
        const generation = new ChatGenerationChunk({ text, message });
        yield generation;
        if (text) await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk: generation });
      }
    } catch (err) {
      const wrapped = this.#wrap(err);
      // A generation that failed inside a tool call ends as that (invalid) call, which the model can redo.
      const failedCall = withTools && !(wrapped instanceof ContextOverflowError) && !isAbort(wrapped);
      const ending = failedCall ? malformed() : undefined;
      if (ending) yield ending;
      else if (!(failedCall && callsSeen)) throw wrapped;
      return;
    }
    const ending = malformed();
    if (ending) yield ending;
  }

  #wrap(err: unknown): unknown {
    if (isAbort(err)) return err;
    if (isContextError(err)) {
      const overflow = new ContextOverflowError(
        `The prompt is longer than the in-tab model's context of ${this.engine.contextSize()} tokens.`,
      );
      overflow.cause = err as Error;
      return overflow;
    }
    const detail = err instanceof Error ? err.message : String(err);
    return Object.assign(
      new Error(`The in-tab model failed to answer (${detail}). Try again; a smaller model or a shorter message may help.`),
      {
        name: "WllamaGenerationError",
        code: "model_failed",
        cause: err,
      },
    );
  }
}
