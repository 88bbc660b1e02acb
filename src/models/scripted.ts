/**
 * A deterministic chat model for tests and the app's demo mode. It plays a
 * script of turns (text, tool calls, token chunks, errors, delays) and records
 * every request it receives, so tests can assert exactly what the model saw.
 * Browser-safe: no Node imports.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { InvalidToolCall, ToolCall } from "@langchain/core/messages/tool";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { abortableSleep as sleep } from "../core/abortable-sleep.ts";

/**
 * A tool call to play. Malformed calls, as real providers send them, can be
 * scripted too: `rawArgs` is sent as the argument text instead of
 * `JSON.stringify(args)` (text that is not JSON becomes an invalid tool
 * call); `id: ""` sends an empty id and `noId` none at all; `args` may be any
 * value (null, a list) when a test needs non-object arguments.
 */
export interface ScriptedToolCall {
  name: string;
  args?: unknown;
  id?: string;
  noId?: boolean;
  rawArgs?: string;
}

export interface ScriptedError {
  message: string;
  /** Error class name to report, e.g. "ContextOverflowError". */
  name?: string;
  status?: number;
  code?: string;
}

export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** How the text streams; by default it is split into words (spaces kept). */
  chunks?: string[];
  error?: ScriptedError;
  /** Wait before answering (ms); aborts with the run's signal. */
  delayMs?: number;
  /** Wait between streamed chunks (ms). */
  chunkDelayMs?: number;
  usage?: { input_tokens: number; output_tokens: number };
}

export interface ScriptContext {
  /** 0-based index of this model call. */
  call: number;
  messages: readonly BaseMessage[];
  tools: readonly string[];
}

export type Script = readonly ScriptedTurn[] | ((ctx: ScriptContext) => ScriptedTurn);

export interface RecordedCall {
  messages: BaseMessage[];
  tools: string[];
  /** The tool definitions as bound (what a provider would receive). */
  toolDefinitions: BindToolsInput[];
}

interface Shared {
  script: Script;
  calls: RecordedCall[];
  /** Distinguishes message ids of different model instances (e.g. before and after a reload). */
  idPrefix: string;
}

export interface ScriptedChatModelParams extends BaseChatModelParams {
  script: Script;
}

function toolName(tool: BindToolsInput): string {
  const t = tool as { name?: string; function?: { name?: string } };
  return t.function?.name ?? t.name ?? "unknown";
}

export class ScriptedChatModel extends BaseChatModel<BaseChatModelCallOptions, AIMessageChunk> {
  readonly #shared: Shared;
  readonly #tools: string[];
  readonly #definitions: BindToolsInput[];

  constructor(params: ScriptedChatModelParams | { shared: Shared; tools: BindToolsInput[] }) {
    super({});
    if ("shared" in params) {
      this.#shared = params.shared;
      this.#tools = params.tools.map(toolName);
      this.#definitions = params.tools;
    } else {
      this.#shared = { script: params.script, calls: [], idPrefix: `scripted-${crypto.randomUUID().slice(0, 8)}` };
      this.#tools = [];
      this.#definitions = [];
    }
  }

  static override lc_name(): string {
    return "ScriptedChatModel";
  }

  _llmType(): string {
    return "scripted";
  }

  /** Every request received so far, across tool-bound copies. */
  get calls(): readonly RecordedCall[] {
    return this.#shared.calls;
  }

  override bindTools(tools: BindToolsInput[]): ScriptedChatModel {
    return new ScriptedChatModel({ shared: this.#shared, tools });
  }

  #nextTurn(messages: BaseMessage[]): { turn: ScriptedTurn; call: number } {
    const call = this.#shared.calls.length;
    this.#shared.calls.push({ messages: [...messages], tools: [...this.#tools], toolDefinitions: this.#definitions });
    const script = this.#shared.script;
    const turn = typeof script === "function" ? script({ call, messages, tools: this.#tools }) : script[call];
    if (!turn) throw new Error(`ScriptedChatModel: script exhausted after ${call} calls`);
    return { turn, call };
  }

  #raise(error: ScriptedError): never {
    const err = new Error(error.message) as Error & { status?: number; code?: string };
    if (error.name) err.name = error.name;
    if (error.status !== undefined) err.status = error.status;
    if (error.code !== undefined) err.code = error.code;
    throw err;
  }

  #toolCallId(tc: ScriptedToolCall, call: number, i: number): string | undefined {
    return tc.noId ? undefined : (tc.id ?? `call_${call}_${i}`);
  }

  /** Calls as the harness gets them from a provider: parsed ones, and those whose arguments did not parse. */
  #toolCalls(turn: ScriptedTurn, call: number) {
    const valid: ToolCall[] = [];
    const invalid: InvalidToolCall[] = [];
    (turn.toolCalls ?? []).forEach((tc, i) => {
      const id = this.#toolCallId(tc, call, i);
      if (tc.rawArgs === undefined) {
        valid.push({ name: tc.name, args: tc.args as Record<string, unknown>, id, type: "tool_call" });
        return;
      }
      try {
        valid.push({ name: tc.name, args: JSON.parse(tc.rawArgs) as Record<string, unknown>, id, type: "tool_call" });
      } catch (err) {
        invalid.push({
          name: tc.name,
          args: tc.rawArgs,
          id,
          error: err instanceof Error ? err.message : String(err),
          type: "invalid_tool_call",
        });
      }
    });
    return { valid, invalid };
  }

  #usage(turn: ScriptedTurn) {
    const u = turn.usage;
    return u ? { input_tokens: u.input_tokens, output_tokens: u.output_tokens, total_tokens: u.input_tokens + u.output_tokens } : undefined;
  }

  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const { turn, call } = this.#nextTurn(messages);
    if (turn.delayMs) await sleep(turn.delayMs, options.signal);
    if (turn.error) this.#raise(turn.error);
    const usage = this.#usage(turn);
    const calls = this.#toolCalls(turn, call);
    const message = new AIMessage({
      content: turn.text ?? "",
      tool_calls: calls.valid,
      invalid_tool_calls: calls.invalid,
      id: `${this.#shared.idPrefix}-${call}`,
      ...(usage ? { usage_metadata: usage } : {}),
    });
    return { generations: [{ text: turn.text ?? "", message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { turn, call } = this.#nextTurn(messages);
    if (turn.delayMs) await sleep(turn.delayMs, options.signal);
    if (turn.error) this.#raise(turn.error);
    const id = `${this.#shared.idPrefix}-${call}`;
    const text = turn.text ?? "";
    const chunks = turn.chunks ?? text.match(/\S+\s*|\s+/g) ?? [];
    for (const [i, piece] of chunks.entries()) {
      // Between chunks only: the first streams as soon as the turn starts, as a provider's first token does.
      if (turn.chunkDelayMs && i > 0) await sleep(turn.chunkDelayMs, options.signal);
      const chunk = new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ content: piece, id }) });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
    const toolCalls = turn.toolCalls ?? [];
    const usage = this.#usage(turn);
    if (toolCalls.length || usage || chunks.length === 0) {
      const message = new AIMessageChunk({
        content: "",
        id,
        tool_call_chunks: toolCalls.map((tc, index) => ({
          name: tc.name,
          args: tc.rawArgs ?? JSON.stringify(tc.args),
          id: this.#toolCallId(tc, call, index),
          index,
          type: "tool_call_chunk" as const,
        })),
        ...(usage ? { usage_metadata: usage } : {}),
      });
      yield new ChatGenerationChunk({ text: "", message });
    }
  }
}
