/**
 * A chat model that plays a recorded demo back (format.ts): each request is matched to its recorded call (match.ts)
 * and answered with the recorded reply, streamed at the recorded pace (or `speed` times faster; `Infinity`: at once),
 * while the harness runs every tool for real. When a request no longer fits, it throws {@link DemoDivergedError},
 * whose message says why, and nothing is invented. Browser- and Node-safe; one instance serves one run (its copies
 * from `bindTools` share what was played).
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { abortableSleep as wait } from "../../core/abortable-sleep.ts";
import { DeeptabError } from "../../core/errors.ts";
import type { Demo, DemoCall } from "./format.ts";
import { conversationKey, mismatch, replyIndex, requestParts } from "./match.ts";

/** A replay that no longer matches its recording: `message` says where and why, for the person. */
export class DemoDivergedError extends DeeptabError<"demo_diverged"> {
  constructor(reason: string) {
    super("demo_diverged", `The recorded demo stops here: ${reason}. Go on with a model of your own to continue from this point.`);
    this.name = "DemoDivergedError";
  }
}

/** What a {@link ReplayChatModel} plays: the demo, and how fast. */
export interface ReplayChatModelParams extends BaseChatModelParams {
  demo: Demo;
  /** How much faster than recorded the replies stream: 1 (the default) keeps the recorded pace; `Infinity`: no waits. */
  speed?: number;
}

interface Played {
  demo: Demo;
  speed: number;
  /** Indexes of the demo's calls already answered (two identical subagents get one each). */
  used: Set<number>;
  idPrefix: string;
}

function toolName(tool: BindToolsInput): string {
  const t = tool as { name?: string; function?: { name?: string } };
  return t.function?.name ?? t.name ?? "unknown";
}

/**
 * Plays a demo's recorded replies back (see the module comment): pass it as the `model` of `createDeepAgent` (every
 * subagent and the summaries use it too) and send the demo's prompt; the tools run for real.
 */
export class ReplayChatModel extends BaseChatModel<BaseChatModelCallOptions, AIMessageChunk> {
  #played: Played;
  /** The tools bound (undefined: none bound yet). */
  #tools: string[] | undefined;

  constructor(params: ReplayChatModelParams) {
    super({});
    const speed = params.speed ?? 1;
    if (!(speed > 0)) throw new DeeptabError("invalid_speed", `speed must be above 0 (got ${speed})`);
    this.#played = { demo: params.demo, speed, used: new Set(), idPrefix: `replay-${crypto.randomUUID().slice(0, 8)}` };
    this.#tools = undefined;
  }

  static override lc_name(): string {
    return "ReplayChatModel";
  }

  _llmType(): string {
    return "replay";
  }

  /** The recorded model's name (what the replies say answered). */
  get recordedModel(): string {
    return this.#played.demo.model;
  }

  /** How many recorded replies were played so far. */
  get played(): number {
    return this.#played.used.size;
  }

  /** A copy with `tools` bound that shares what was played. */
  override bindTools(tools: BindToolsInput[]): ReplayChatModel {
    const copy = new ReplayChatModel({ demo: this.#played.demo, speed: this.#played.speed });
    copy.#played = this.#played;
    copy.#tools = tools.map(toolName);
    return copy;
  }

  /** The recorded call this request is, or why none fits. */
  #find(messages: readonly BaseMessage[]): { index: number; call: DemoCall } {
    const { demo, used } = this.#played;
    const conversation = conversationKey(messages);
    const at = replyIndex(messages);
    const parts = requestParts(messages);
    const candidates = demo.calls
      .map((call, index) => ({ call, index }))
      .filter((c) => c.call.conversation === conversation && c.call.index === at);
    const open = candidates.filter((c) => !used.has(c.index));
    const fitting = open.find((c) => mismatch(c.call, parts) === undefined);
    if (fitting) {
      const missing = (fitting.call.reply.toolCalls ?? []).find((t) => this.#tools && !this.#tools.includes(t.name));
      if (missing) throw new DemoDivergedError(`the recorded answer calls ${missing.name}, which this agent does not offer here`);
      used.add(fitting.index);
      return fitting;
    }
    const first = open[0] ?? candidates[0];
    if (first) throw new DemoDivergedError(mismatch(first.call, parts) ?? "the recording's answer for this step was played already");
    const human = parts.find((p) => p.kind === "human");
    if (demo.calls.some((c) => c.conversation === conversation))
      throw new DemoDivergedError(`the recording ends here (it holds ${demo.calls.length} answers)`);
    throw new DemoDivergedError(
      human && at === 0
        ? `this message is not one the demo recorded (its prompt is “${demo.prompts[0]}”)`
        : "this step of the conversation is not in the recording",
    );
  }

  /** The reply's message id (one per recorded call) and its recorded usage. */
  #message(call: DemoCall, index: number): { id: string; usage?: AIMessage["usage_metadata"] } {
    const u = call.reply.usage;
    return {
      id: `${this.#played.idPrefix}-${index}`,
      ...(u
        ? { usage: { input_tokens: u.input_tokens, output_tokens: u.output_tokens, total_tokens: u.input_tokens + u.output_tokens } }
        : {}),
    };
  }

  #metadata() {
    return { model_name: this.#played.demo.model, deeptab_replay: true };
  }

  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const { call, index } = this.#find(messages);
    await wait(call.timing.endMs / this.#played.speed, options.signal);
    const { id, usage } = this.#message(call, index);
    const message = new AIMessage({
      content: call.reply.text,
      id,
      tool_calls: (call.reply.toolCalls ?? []).map((t) => ({ ...t, type: "tool_call" as const })),
      response_metadata: this.#metadata(),
      ...(usage ? { usage_metadata: usage } : {}),
    });
    return { generations: [{ text: call.reply.text, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { call, index } = this.#find(messages);
    const { speed } = this.#played;
    const { id, usage } = this.#message(call, index);
    const started = Date.now();
    const until = async (ms: number) => wait(ms / speed - (Date.now() - started), options.signal);
    const text = call.reply.text;
    // Recorded pieces; a reply recorded without a stream comes in one piece at its first-token time.
    const pieces: Array<[number, number]> = call.timing.chunks.length
      ? call.timing.chunks
      : text
        ? [[call.timing.firstMs, text.length]]
        : [];
    let offset = 0;
    for (const [at, size] of pieces) {
      await until(at);
      const piece = text.slice(offset, offset + size);
      offset += size;
      const chunk = new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ content: piece, id }) });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
    await until(call.timing.endMs);
    const toolCalls = call.reply.toolCalls ?? [];
    yield new ChatGenerationChunk({
      text: "",
      message: new AIMessageChunk({
        content: "",
        id,
        tool_call_chunks: toolCalls.map((t, i) => ({
          name: t.name,
          args: JSON.stringify(t.args),
          id: t.id,
          index: i,
          type: "tool_call_chunk" as const,
        })),
        response_metadata: this.#metadata(),
        ...(usage ? { usage_metadata: usage } : {}),
      }),
    });
  }
}
