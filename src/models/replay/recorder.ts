/**
 * Records a run's model calls as a demo (format.ts), through LangChain's callbacks: pass a {@link DemoRecorder} in a
 * run's `callbacks` and every chat model call below it (the main agent's, every subagent's, a summary's) is kept with
 * what its request added, its reply and the times of its streamed pieces. A failed call keeps nothing (the harness
 * retries it, and the retry is what is kept). Browser- and Node-safe.
 */
import { BaseCallbackHandler, type HandleLLMNewTokenCallbackFields, type NewTokenIndices } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { Serialized } from "@langchain/core/load/serializable";
import { DEMO_FORMAT, type Demo, type DemoCall, type DemoToolCall } from "./format.ts";
import { conversationKey, replyIndex, requestParts } from "./match.ts";

interface Open {
  seq: number;
  started: number;
  firstMs?: number;
  chunks: Array<[number, number]>;
  call: Omit<DemoCall, "reply" | "timing">;
}

/** A demo's description besides its calls (format.ts `Demo`). */
export type DemoInfo = Omit<Demo, "format" | "calls" | "prompts"> & { prompts?: string[] };

const rounded = (ms: number) => Math.max(0, Math.round(ms));

/**
 * A callback handler that records every chat model call of the runs it is passed to (`callbacks: [recorder]`), for
 * {@link DemoRecorder.demo} to turn into a demo.
 */
export class DemoRecorder extends BaseCallbackHandler {
  name = "deeptab_demo_recorder";
  override awaitHandlers = true;
  /** Models stream to a recorder (their pace is part of the demo), as they do in the app's runs. */
  readonly lc_prefer_streaming = true;
  readonly #open = new Map<string, Open>();
  readonly #done: Array<{ seq: number; call: DemoCall }> = [];
  #seq = 0;
  readonly #now: () => number;

  /** `now`: the clock (milliseconds), for tests. */
  constructor(options: { now?: () => number } = {}) {
    super();
    this.#now = options.now ?? (() => performance.now());
  }

  override handleChatModelStart(_llm: Serialized, messages: BaseMessage[][], runId: string): void {
    const request = messages[0] ?? [];
    this.#open.set(runId, {
      seq: this.#seq++,
      started: this.#now(),
      chunks: [],
      call: { conversation: conversationKey(request), index: replyIndex(request), request: requestParts(request) },
    });
  }

  override handleLLMNewToken(
    token: string,
    _idx: NewTokenIndices,
    runId: string,
    _parent?: string,
    _tags?: string[],
    fields?: HandleLLMNewTokenCallbackFields,
  ): void {
    const open = this.#open.get(runId);
    const text = typeof fields?.chunk?.text === "string" ? fields.chunk.text : token;
    if (!open || !text) return;
    const at = rounded(this.#now() - open.started);
    open.firstMs ??= at;
    open.chunks.push([at, text.length]);
  }

  override handleLLMError(_err: Error, runId: string): void {
    this.#open.delete(runId);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const open = this.#open.get(runId);
    this.#open.delete(runId);
    if (!open) return;
    const generation = output.generations[0]?.[0] as { text?: string; message?: BaseMessage } | undefined;
    const message = generation?.message as
      | (BaseMessage & {
          tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
          usage_metadata?: { input_tokens: number; output_tokens: number };
        })
      | undefined;
    const text = message?.text ?? generation?.text ?? "";
    const endMs = rounded(this.#now() - open.started);
    const toolCalls: DemoToolCall[] = (message?.tool_calls ?? []).map((t, i) => ({ id: t.id || `call_${i}`, name: t.name, args: t.args }));
    const usage = message?.usage_metadata;
    // Streamed pieces that do not add up to the text (a provider that streamed something else) are kept as one.
    const streamed = open.chunks.reduce((n, [, size]) => n + size, 0);
    const chunks = streamed === text.length ? open.chunks : text ? [[open.firstMs ?? endMs, text.length] as [number, number]] : [];
    this.#done.push({
      seq: open.seq,
      call: {
        ...open.call,
        reply: {
          text,
          ...(toolCalls.length ? { toolCalls } : {}),
          ...(usage ? { usage: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens } } : {}),
        },
        timing: { firstMs: Math.min(open.firstMs ?? endMs, endMs), chunks, endMs },
      },
    });
  }

  /** The calls recorded so far, in the order they started. */
  get calls(): DemoCall[] {
    return [...this.#done].sort((a, b) => a.seq - b.seq).map((d) => d.call);
  }

  /** Forgets what was recorded (a recorder reused across runs). */
  clear(): void {
    this.#done.length = 0;
    this.#open.clear();
  }

  /**
   * The recording as a demo. Its prompts are the person's messages of the first call's conversation, in order,
   * unless `info.prompts` names them.
   */
  demo(info: DemoInfo): Demo {
    const calls = this.calls;
    return demoOf(calls, info);
  }
}

/** A demo of recorded calls (see {@link DemoRecorder.demo}). */
export function demoOf(calls: DemoCall[], info: DemoInfo): Demo {
  const main = calls[0]?.conversation;
  const prompts =
    info.prompts ??
    calls
      .filter((c) => c.conversation === main)
      .flatMap((c) => c.request.filter((p) => p.kind === "human").map((p) => (p as { text: string }).text));
  const { prompts: _ignored, ...rest } = info;
  return { format: DEMO_FORMAT, ...rest, prompts, calls };
}
