/**
 * SummarizationMiddleware: keeps every request under the model's window
 * without ever rewriting state.messages.
 *
 * Each model call renders the view [summary, ...messages[cutoff:]] from the
 * `_summarizationEvent`, shortens old write/edit arguments, and when the
 * request reaches the trigger, shortens them outside the keep too and, if it
 * is still at the trigger, summarizes (see context/summarize.ts) and records
 * a new event. Before that, once the request reaches the clearing trigger
 * (half the window), tool results the model has seen outside the keep are
 * cleared (context/clear-results.ts): saved to files and shown as a note. On a
 * provider context-overflow error it summarizes,
 * trims the trailing tool results if needed, and retries once with a strictly
 * smaller request. It also provides the `compact_conversation` tool.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { BackendProtocol } from "../backends/protocol.ts";
import { createBackendRuntime, resolveBackend, type BackendOption } from "../backends/runtime.ts";
import { CLEAR_TRIGGER_FRACTION, CLEAR_TRIGGER_TOKENS, withClearedResults, type ClearedResults } from "../context/clear-results.ts";
import { historyPathFor } from "../context/history-file.ts";
import { maxInputTokens } from "../context/model-windows.ts";
import { isContextOverflow } from "../context/overflow.ts";
import { summarize } from "../context/summarize.ts";
import { requestView, requestViewTokens } from "../context/request-view.ts";
import { estimateMessagesTokens, estimateTextTokens, estimateToolsTokens } from "../context/tokens.ts";
import { truncateArgsOutsideKeep, truncateOldToolArgs } from "../context/truncate-args.ts";
import { renderView, type KeepPolicy, type SummarizationEvent } from "../context/view.ts";
import { HarnessError } from "../harness/errors.ts";
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware, AgentState, AgentTool, ModelHandler, ModelRequest, ModelResponse, StateUpdate } from "../harness/types.ts";
import { TOOL } from "../core/tool-names.ts";

export const SUMMARIZATION = "SummarizationMiddleware";
/** The on-demand compaction tool's name (offered with the full tool profile). */
const COMPACT_TOOL = TOOL.compact_conversation;
export const EVENT_KEY = "_summarizationEvent";
/** The latest summarization event (private: never crosses into subagents). */
const SUMMARIZATION_EVENT = defineStateField<SummarizationEvent | undefined>(EVENT_KEY, { default: () => undefined, private: true });
/** Up to where old tool results are cleared (private, as the event). */
export const CLEARED_KEY = "_clearedResults";
const CLEARED_RESULTS = defineStateField<ClearedResults | undefined>(CLEARED_KEY, { default: () => undefined, private: true });

export type ContextSize = { tokens: number } | { fraction: number } | { messages: number };

export interface SummarizationOptions {
  model: BaseChatModel;
  backend: BackendOption;
  now: () => string;
  /** When to summarize: tokens or a fraction of the window. Default 85% (170,000 tokens without a known window). */
  trigger?: ContextSize;
  /** What to keep verbatim. Default 10% of the window (6 messages without a known window). */
  keep?: ContextSize;
  /** Overrides the model's window (max input tokens). */
  maxInputTokens?: number;
  /** Model used to write summaries; defaults to `model`. */
  summaryModel?: BaseChatModel;
  /** Offer the `compact_conversation` tool (default true; the compact profile leaves it out). */
  compactTool?: boolean;
  /**
   * When to clear tool results the model has seen, outside the keep (see context/clear-results.ts): tokens or a
   * fraction of the window. Default half the window (100,000 tokens without a known window); `false` never clears.
   */
  clearToolResults?: { tokens: number } | { fraction: number } | false;
}

export interface ResolvedSettings {
  triggerTokens: number;
  keep: KeepPolicy;
  window: number | undefined;
  /** Where old tool results are cleared (undefined: never). */
  clearTokens: number | undefined;
}

/** Resolves defaults and rejects a keep that is not clearly below the trigger. */
export function resolveSummarizationSettings(
  options: Pick<SummarizationOptions, "model" | "trigger" | "keep" | "maxInputTokens" | "clearToolResults">,
): ResolvedSettings {
  const window = options.maxInputTokens ?? maxInputTokens(options.model);
  const toTokens = (size: ContextSize, what: string): number | undefined => {
    if ("tokens" in size) return size.tokens;
    if ("fraction" in size) {
      if (!window)
        throw new HarnessError(
          "invalid_option",
          `${what} is a fraction of the window, but the model's window is unknown; pass maxInputTokens.`,
        );
      if (!(size.fraction > 0 && size.fraction <= 1)) throw new HarnessError("invalid_option", `${what} fraction must be in (0, 1].`);
      return Math.floor(size.fraction * window);
    }
    return undefined;
  };
  const trigger = options.trigger ?? (window ? { fraction: 0.85 } : { tokens: 170_000 });
  const triggerTokens = toTokens(trigger, "trigger");
  if (triggerTokens === undefined || !(triggerTokens > 0)) {
    throw new HarnessError("invalid_option", "trigger must be a positive token count or fraction of the window.");
  }
  const keepSize = options.keep ?? (window ? { fraction: 0.1 } : { messages: 6 });
  const keepTokens = toTokens(keepSize, "keep");
  let keep: KeepPolicy;
  if (keepTokens !== undefined) {
    if (keepTokens >= triggerTokens * 0.8) {
      throw new HarnessError(
        "invalid_option",
        `keep (${keepTokens} tokens) must be clearly below the trigger (${triggerTokens} tokens), or every call would summarize again.`,
      );
    }
    keep = { tokens: keepTokens };
  } else {
    const n = (keepSize as { messages: number }).messages;
    if (!(Number.isInteger(n) && n >= 1)) throw new HarnessError("invalid_option", "keep.messages must be a positive integer.");
    keep = { messages: n };
  }
  const clear = options.clearToolResults ?? (window ? { fraction: CLEAR_TRIGGER_FRACTION } : { tokens: CLEAR_TRIGGER_TOKENS });
  const clearTokens = clear === false ? undefined : toTokens(clear, "clearToolResults");
  if (clearTokens !== undefined && !(clearTokens > 0)) {
    throw new HarnessError("invalid_option", "clearToolResults must be a positive token count or fraction of the window.");
  }
  return { triggerTokens, keep, window, clearTokens };
}

/** Both updates; their `files` (each a map of paths) merged. */
function joinUpdates(a: StateUpdate, b: StateUpdate): StateUpdate {
  const files = a.files || b.files ? { files: { ...(a.files as object | undefined), ...(b.files as object | undefined) } } : {};
  return { ...a, ...b, ...files };
}

/** Tokens of the request outside the messages: the system prompt and the tool schemas. */
function fixedTokens(request: ModelRequest): number {
  return estimateTextTokens(request.systemPrompt) + estimateToolsTokens(request.tools);
}

export function summarizationMiddleware(options: SummarizationOptions): AgentMiddleware {
  const settings = resolveSummarizationSettings(options);
  const summaryModel = options.summaryModel ?? options.model;

  /**
   * `work` over the run's filesystem (the state's files, the call's config); the state-backed files it writes come
   * back beside its result as a `files` update ({} when it wrote none).
   */
  async function withBackend<T>(
    request: { state: Readonly<AgentState>; config: ModelRequest["config"] },
    work: (backend: BackendProtocol) => Promise<T>,
  ): Promise<{ result: T; files: StateUpdate }> {
    const runtime = createBackendRuntime(request.state.files, request.config, options.now);
    const result = await work(resolveBackend(options.backend, runtime));
    return { result, files: Object.keys(runtime.pendingFiles).length ? { files: runtime.pendingFiles } : {} };
  }

  /** `messages` are state.messages or a same-length request copy of them (indices must match). */
  async function summarizeNow(
    request: { state: Readonly<AgentState>; config: ModelRequest["config"]; messages: readonly BaseMessage[] },
    event: SummarizationEvent | undefined,
  ) {
    const { result: outcome, files } = await withBackend(request, (backend) =>
      summarize({
        model: summaryModel,
        backend,
        now: options.now,
        config: request.config,
        messages: request.messages,
        event,
        keep: settings.keep,
        historyPath: historyPathFor(request.config.configurable?.thread_id),
      }),
    );
    return { outcome, files };
  }

  /** Clears old results when there are new ones to clear (see clear-old-results.ts): the record and the files' update. */
  async function clearNow(
    request: ModelRequest,
    event: SummarizationEvent | undefined,
    cleared: ClearedResults | undefined,
    view: readonly BaseMessage[],
  ): Promise<{ cleared: ClearedResults; update: StateUpdate } | undefined> {
    const { clearOldResults } = await import("./clear-old-results.ts");
    const { result: record, files } = await withBackend(request, (backend) =>
      clearOldResults({ messages: request.messages, event, cleared, view, keep: settings.keep, backend }),
    );
    return record ? { cleared: record, update: { ...CLEARED_RESULTS.set(record), ...files } } : undefined;
  }

  const compactTool: AgentTool = {
    name: COMPACT_TOOL,
    description:
      "Summarizes older messages of this conversation to free context space. The full history stays in /conversation_history/. " +
      "Use it before starting a large new subtask in a long conversation.",
    schema: { type: "object", properties: {}, additionalProperties: false },
    async run(_args, rt) {
      const event = SUMMARIZATION_EVENT.get(rt.state);
      const messages = withClearedResults(rt.state.messages, CLEARED_RESULTS.get(rt.state));
      const view = renderView(messages, event);
      const tokens = estimateMessagesTokens(view);
      if (tokens < settings.triggerTokens * 0.5) {
        return (
          `Nothing to compact: the conversation uses about ${tokens} tokens, ` +
          `below half of the summarization trigger (${settings.triggerTokens} tokens).`
        );
      }
      const { outcome, files } = await summarizeNow({ state: rt.state, config: rt.config, messages }, event);
      if (!outcome.ok) return { content: `Error: could not compact the conversation: ${outcome.error}`, status: "error" };
      return {
        content: `Conversation compacted. Older messages were summarized; the full history is at ${outcome.value.event.filePath}.`,
        update: { ...SUMMARIZATION_EVENT.set(outcome.value.event), ...files },
      };
    },
  };

  /**
   * The slow path of a model call: summarize because the request reached the
   * trigger (then call), or, when the provider refused `view` as too long
   * (`overflowed`), summarize and cut, and retry once with a strictly smaller request.
   */
  async function compactAndCall(
    request: ModelRequest,
    next: ModelHandler,
    start: { event: SummarizationEvent | undefined; view: BaseMessage[]; cleared: ClearedResults | undefined; update: StateUpdate },
    overflowed: boolean,
  ): Promise<ModelResponse> {
    let event = start.event;
    let view = start.view;
    let update = start.update;
    let summarized = false;
    // Summaries are made from the messages as the model sees them (cleared results as their notes).
    const seen = { ...request, messages: withClearedResults(request.messages, start.cleared) };

    const doSummarize = async (): Promise<boolean> => {
      const { outcome, files } = await summarizeNow(seen, event);
      if (!outcome.ok) return false;
      event = outcome.value.event;
      view = truncateOldToolArgs(outcome.value.view);
      update = joinUpdates(update, { ...SUMMARIZATION_EVENT.set(event), ...files });
      summarized = true;
      return true;
    };

    const historyPath = historyPathFor(request.config.configurable?.thread_id);
    /** Cuts the request to `target` tokens (see fit-window.ts); files it saves join this call's update. */
    const fit = async (target: number) => {
      const { fitToWindow } = await import("./fit-window.ts");
      const fitted = await withBackend(request, (backend) => fitToWindow(view, fixedTokens(request), target, backend, historyPath));
      view = fitted.result;
      update = joinUpdates(update, fitted.files);
    };
    const withUpdate = (res: ModelResponse): ModelResponse =>
      Object.keys(update).length ? { ...res, update: joinUpdates(res.update ?? {}, update) } : res;

    if (!overflowed) {
      await doSummarize();
      // Still too large (a small window, a huge newest result): cut the request, never the unseen results' existence.
      if (fixedTokens(request) + estimateMessagesTokens(view) >= settings.triggerTokens) await fit(settings.triggerTokens - 1);
      try {
        return withUpdate(await next({ ...request, messages: view }));
      } catch (err) {
        if (!isContextOverflow(err)) throw err;
      }
    }
    const before = estimateMessagesTokens(view);
    if (!summarized) await doSummarize();
    if (estimateMessagesTokens(view) >= before) await fit(fixedTokens(request) + Math.floor(before * 0.7));
    if (estimateMessagesTokens(view) >= before) {
      throw new HarnessError("context_overflow", "The request is too large for the model's context window and could not be made smaller.");
    }
    try {
      return withUpdate(await next({ ...request, messages: view }));
    } catch (retryErr) {
      if (!isContextOverflow(retryErr)) throw retryErr;
      throw new HarnessError("context_overflow", "The request is still too large for the model's context window after summarizing once.");
    }
  }

  return {
    name: SUMMARIZATION,
    tools: options.compactTool === false ? [] : [compactTool],
    stateSchema: stateSchema(SUMMARIZATION_EVENT, CLEARED_RESULTS),
    async wrapModelCall(request, next): Promise<ModelResponse> {
      const event = SUMMARIZATION_EVENT.get(request.state);
      let cleared = CLEARED_RESULTS.get(request.state);
      let view = requestView(request.messages, event, cleared);
      let tokens = requestViewTokens(request.messages, event, fixedTokens(request), cleared);
      let update: StateUpdate = {};
      if (settings.clearTokens !== undefined && tokens >= settings.clearTokens) {
        const more = await clearNow(request, event, cleared, view);
        if (more) {
          ({ cleared, update } = more);
          view = requestView(request.messages, event, cleared);
          tokens = requestViewTokens(request.messages, event, fixedTokens(request), cleared);
        }
      }
      const withUpdate = (res: ModelResponse): ModelResponse =>
        Object.keys(update).length ? { ...res, update: joinUpdates(update, res.update ?? {}) } : res;
      if (tokens >= settings.triggerTokens) {
        // At the trigger, old write/edit bodies outside the keep are shortened first (the files hold them), as
        // deepagents' truncateArgsSettings does; a summary is made only when the request is still too large.
        const shorter = truncateArgsOutsideKeep(view, settings.keep);
        if (shorter !== view) {
          tokens -= estimateMessagesTokens(view) - estimateMessagesTokens(shorter);
          view = [...shorter];
        }
      }
      if (tokens >= settings.triggerTokens) {
        return compactAndCall(request, next, { event, view, cleared, update }, false);
      }
      try {
        return withUpdate(await next({ ...request, messages: view }));
      } catch (err) {
        if (!isContextOverflow(err)) throw err;
        return compactAndCall(request, next, { event, view, cleared, update }, true);
      }
    },
  };
}
