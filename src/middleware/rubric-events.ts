/**
 * What a reader of the rubric loop's output needs without loading the grader (rubric.ts, rubric-grade.ts): its custom
 * stream events, the statuses an evaluation can end with, and the private field that keeps the evaluations.
 */
import type { TokenUsage } from "../core/usage.ts";
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware } from "../harness/types.ts";

/** The rubric loop's custom stream events (the run's `writer`). */
export const RUBRIC_START_EVENT = "rubric_evaluation_start";
export const RUBRIC_END_EVENT = "rubric_evaluation_end";

/** What an evaluation records: the grader's verdict, or one of the two the middleware gives itself. */
export const RUBRIC_RESULTS = ["satisfied", "needs_revision", "failed", "max_iterations_reached", "grader_error"] as const;
export type RubricResult = (typeof RUBRIC_RESULTS)[number];

/** One criterion's verdict: a failing one says what is missing. */
export type CriterionEval = { name: string; passed: true } | { name: string; passed: false; gap: string };

/** One grading, as kept in `_rubric_evaluations` and sent with {@link RUBRIC_END_EVENT}. */
export interface RubricEvaluation {
  grading_run_id: string;
  /** Zero-based, within the grading run. */
  iteration: number;
  result: RubricResult;
  explanation: string;
  criteria: CriterionEval[];
  /** Index in `messages` of the answer it graded. */
  afterMessage: number;
  /** The graded answer's message id, when it has one. */
  answerId?: string;
  /** deeptab: the grader call's provider usage, when the provider reported it (it counts in the turn's and thread's). */
  usage?: TokenUsage;
}

/** Every evaluation of a thread (private: it never crosses into or out of subagents). */
export const RUBRIC_EVALUATIONS = defineStateField<RubricEvaluation[]>("_rubric_evaluations", { default: () => [], private: true });

/**
 * A middleware that only declares the evaluations' field, for an agent that reads threads a rubric loop ran on
 * (a graph returns only the channels it declares) without loading the grader.
 */
export const RUBRIC_STATE_READER: AgentMiddleware = { name: "RubricStateReader", stateSchema: stateSchema(RUBRIC_EVALUATIONS) };
