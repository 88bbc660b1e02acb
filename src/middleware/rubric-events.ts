import type { AgentMiddleware } from "../harness/types.ts";

/** The rubric loop's custom stream events (the run's `writer`), in a module of their own so readers load no grader. */
export const RUBRIC_START_EVENT = "rubric_evaluation_start";
export const RUBRIC_END_EVENT = "rubric_evaluation_end";
/** The private state field that keeps every evaluation of a thread. */
export const RUBRIC_EVALUATIONS_KEY = "_rubric_evaluations";

/**
 * A middleware that only declares the evaluations' field, for an agent that reads threads a rubric loop ran on
 * (a graph returns only the channels it declares) without loading the grader.
 */
export const RUBRIC_STATE_READER: AgentMiddleware = {
  name: "RubricStateReader",
  stateSchema: { [RUBRIC_EVALUATIONS_KEY]: { default: () => [], private: true } },
};
