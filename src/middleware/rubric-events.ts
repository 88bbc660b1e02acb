/** The rubric loop's custom stream events (the run's `writer`), in a module of their own so readers load no grader. */
export const RUBRIC_START_EVENT = "rubric_evaluation_start";
export const RUBRIC_END_EVENT = "rubric_evaluation_end";
/** The private state field that keeps every evaluation of a thread. */
export const RUBRIC_EVALUATIONS_KEY = "_rubric_evaluations";
