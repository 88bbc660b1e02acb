/**
 * RubricMiddleware (deepagents' `RubricMiddleware`, opt-in): the caller says what "done" looks like with a `rubric`
 * on the run's input state. Each time the agent would finish (an answer without tool calls), a grader model grades
 * the transcript against the rubric (rubric-grade.ts). `needs_revision` adds the grader's feedback as a HumanMessage
 * (`name: "rubric_grader"`, `additional_kwargs.lc_source: "rubric_grader"`) and the run goes back to the model;
 * `satisfied`, `failed`, a grader error (`grader_error`) or the iteration cap (`max_iterations_reached`) end it with
 * the agent's last answer untouched. Without a rubric the middleware does nothing.
 *
 * Every evaluation is kept in the private `_rubric_evaluations` (with `afterMessage`, the index of the answer it
 * graded: deeptab's addition, so a UI can place it) and streamed as custom events `rubric_evaluation_start` /
 * `rubric_evaluation_end` on the run's writer. A new grading run (a new id, the budget reset) starts when the rubric
 * changes or the same rubric is given again after a run ended.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph/web";
import { providerErrorText } from "../core/error-body.ts";
import { keysOfModel, redactSecrets } from "../core/redact.ts";
import { tokenUsage, type TokenUsage } from "../core/usage.ts";
import { HarnessError } from "../harness/errors.ts";
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware, AgentState, StateUpdate } from "../harness/types.ts";
import {
  GRADER_SYSTEM_PROMPT,
  RUBRIC_GRADER_SOURCE,
  graderPayload,
  graderTool,
  parseGraderAnswer,
  revisionPrompt,
  type GraderResponse,
} from "./rubric-grade.ts";
import {
  RUBRIC_END_EVENT,
  RUBRIC_EVALUATIONS,
  RUBRIC_START_EVENT,
  type CriterionEval,
  type RubricEvaluation,
  type RubricResult,
} from "./rubric-events.ts";

export const RUBRIC = "RubricMiddleware";
export { RUBRIC_END_EVENT, RUBRIC_START_EVENT, type RubricEvaluation };

export interface RubricOptions {
  /** The grader's model (the agent's own, or another). */
  model: BaseChatModel;
  /** The grader's instructions; defaults to {@link GRADER_SYSTEM_PROMPT}. */
  systemPrompt?: string;
  /** Gradings per grading run (a positive integer; default 3). */
  maxIterations?: number;
  /**
   * The rubric for runs whose state has none (deeptab's addition: an agent folder's `rubric`); a `rubric` on the
   * run's input takes its place.
   */
  rubric?: string;
  /** Called with each evaluation; what it throws is ignored. */
  onEvaluation?: (evaluation: RubricEvaluation) => void;
}

const TERMINAL: ReadonlySet<RubricResult> = new Set(["satisfied", "failed", "max_iterations_reached", "grader_error"]);

/** The rubric (public: the caller writes it on the input). */
const RUBRIC_TEXT = defineStateField<string>("rubric", { default: () => "" });
const STATUS = defineStateField<RubricResult | null>("_rubric_status", { default: () => null, private: true });
const ITERATIONS = defineStateField<number>("_rubric_iterations", { default: () => 0, private: true });
const RUN_ID = defineStateField<string>("_current_grading_run_id", { default: () => "", private: true });
const ACTIVE = defineStateField<string>("_active_rubric", { default: () => "", private: true });

const nonce = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");

/** The rubric loop; add it to `middleware` and pass `rubric` with the run's input. */
export function rubricMiddleware(options: RubricOptions): AgentMiddleware {
  if (!options?.model) throw new HarnessError("invalid_option", "RubricMiddleware: `model` is required.");
  const max = options.maxIterations ?? 3;
  if (!Number.isInteger(max) || max < 1)
    throw new HarnessError("invalid_option", `RubricMiddleware: \`maxIterations\` must be a positive integer, got ${String(max)}.`);
  const system = options.systemPrompt ?? GRADER_SYSTEM_PROMPT;
  const rubricOf = (state: Readonly<AgentState>) => RUBRIC_TEXT.get(state) || options.rubric || "";

  async function grade(
    state: Readonly<AgentState>,
    iteration: number,
    config: LangGraphRunnableConfig,
  ): Promise<GraderResponse & { usage?: TokenUsage }> {
    const model = options.model.bindTools ? options.model.bindTools([graderTool()]) : options.model;
    const payload = graderPayload(rubricOf(state), state.messages, iteration, nonce());
    // Its own call: no callbacks, so the grader's tokens never stream as the agent's answer.
    const answer = await model.invoke([new SystemMessage(system), new HumanMessage(payload)], { signal: config.signal });
    const verdict = parseGraderAnswer(new AIMessage({ content: answer.content, tool_calls: answer.tool_calls ?? [] }));
    return answer.usage_metadata ? { ...verdict, usage: tokenUsage(answer.usage_metadata) } : verdict;
  }

  function emit(config: LangGraphRunnableConfig, type: string, runId: string, iteration: number, evaluation?: RubricEvaluation): void {
    try {
      config.writer?.({ type, grading_run_id: runId, iteration, ...(evaluation ? { evaluation } : {}) });
    } catch {
      // A writer that fails is no reason to lose the grading.
    }
  }

  return {
    name: RUBRIC,
    stateSchema: stateSchema(RUBRIC_TEXT, STATUS, ITERATIONS, RUBRIC_EVALUATIONS, RUN_ID, ACTIVE),

    beforeAgent(state): StateUpdate | void {
      const rubric = rubricOf(state);
      if (!rubric) return;
      const status = STATUS.get(state);
      if (ACTIVE.get(state) === rubric && !(status && TERMINAL.has(status))) return;
      return { ...ITERATIONS.set(0), ...STATUS.set(null), ...RUN_ID.set(crypto.randomUUID()), ...ACTIVE.set(rubric) };
    },

    async afterAgent(state, config): Promise<StateUpdate | void> {
      if (!rubricOf(state)) return;
      const iteration = ITERATIONS.get(state);
      const runId = RUN_ID.get(state) || crypto.randomUUID();
      emit(config, RUBRIC_START_EVENT, runId, iteration);
      const afterMessage = state.messages.length - 1;
      const answerId = state.messages[afterMessage]?.id;
      const graded = answerId ? { afterMessage, answerId } : { afterMessage };
      let evaluation: RubricEvaluation;
      try {
        const verdict = await grade(state, iteration, config);
        const capped = verdict.result === "needs_revision" && iteration + 1 >= max;
        evaluation = { grading_run_id: runId, iteration, ...verdict, ...(capped ? { result: "max_iterations_reached" } : {}), ...graded };
      } catch (err) {
        if (config.signal?.aborted) throw err;
        // The grader's provider error as its status and plain message (never its body), the grader's key hidden.
        const why = redactSecrets(providerErrorText(err) ?? (err instanceof Error ? err.message : String(err)), keysOfModel(options.model));
        const explanation = `The grader failed: ${why}`;
        evaluation = { grading_run_id: runId, iteration, result: "grader_error", explanation, criteria: [], ...graded };
      }
      emit(config, RUBRIC_END_EVENT, runId, iteration, evaluation);
      try {
        options.onEvaluation?.(evaluation);
      } catch {
        // Upstream's contract: the callback cannot steer the loop.
      }
      const update: StateUpdate = {
        ...RUBRIC_EVALUATIONS.set([...RUBRIC_EVALUATIONS.get(state), evaluation]),
        ...ITERATIONS.set(iteration + 1),
        ...STATUS.set(evaluation.result),
        ...RUN_ID.set(runId),
      };
      if (evaluation.result !== "needs_revision") return update;
      const feedback = new HumanMessage({
        content: revisionPrompt(evaluation.explanation, evaluation.criteria),
        name: RUBRIC_GRADER_SOURCE,
        additional_kwargs: { lc_source: RUBRIC_GRADER_SOURCE },
      });
      return { ...update, messages: [feedback] };
    },
  };
}

export type { CriterionEval, GraderResponse, RubricResult };
export { GRADER_SYSTEM_PROMPT, RUBRIC_GRADER_SOURCE, isGraderFeedback } from "./rubric-grade.ts";
