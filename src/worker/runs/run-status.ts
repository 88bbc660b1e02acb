/**
 * What a run is doing while no answer streams, as status events for the
 * page (protocol/events.ts `StatusEvent`): a callback handler on the run that
 * reports each main-agent model call as it starts (`waiting` for a
 * provider, `reading_prompt` for llama.cpp in the tab) and the prompt
 * progress a model reports (models/prompt-progress.ts). The model's load
 * (`loading_model`) is reported by the agent builder (agents.ts). A
 * subagent's calls (metadata `deeptab_task_id`) are left to its task card.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { isPromptProgress, PROMPT_PROGRESS_EVENT } from "../../models/prompt-progress.ts";
import type { RunPhase, StatusEvent } from "../../protocol/events.ts";

/** A status without its run: what the worker's parts report. */
export type RunStatus = Omit<StatusEvent, "type" | "runId">;

const inSubagent = (metadata?: Record<string, unknown>) => typeof metadata?.deeptab_task_id === "string";

export class RunStatusHandler extends BaseCallbackHandler {
  name = "deeptab_run_status";
  readonly #onStatus: (status: RunStatus) => void;
  readonly #startPhase: RunPhase | undefined;

  /** `startPhase`: what a model call waits on once it starts (none: the call answers at once, e.g. the demo). */
  constructor(onStatus: (status: RunStatus) => void, startPhase: RunPhase | undefined) {
    // Awaited, not queued in the background: a call's status reaches the sink before its first token does.
    super({ _awaitHandler: true });
    this.#onStatus = onStatus;
    this.#startPhase = startPhase;
  }

  override handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    _runId: string,
    _parentRunId?: string,
    _extra?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    if (this.#startPhase && !inSubagent(metadata)) this.#onStatus({ phase: this.#startPhase });
  }

  override handleCustomEvent(name: string, data: unknown, _runId: string, _tags?: string[], metadata?: Record<string, unknown>): void {
    if (name !== PROMPT_PROGRESS_EVENT || !isPromptProgress(data) || inSubagent(metadata)) return;
    this.#onStatus({ phase: "reading_prompt", progress: data.processed / data.total, tokens: data.total });
  }
}
