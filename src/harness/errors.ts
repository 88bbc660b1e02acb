/**
 * Errors thrown by the harness at construction or on a broken setup (see
 * core/errors.ts for the convention).
 */
import { DeeptabError } from "../core/errors.ts";

export type HarnessErrorCode =
  | "tool_name_collision"
  | "required_middleware"
  | "invalid_option"
  | "context_overflow"
  | "unsupported_backend"
  /** The model cannot serve the agent (e.g. no tool calling). */
  | "unsupported_model"
  /** A harness helper was called outside a graph node (its config lacks the graph's internals). */
  | "not_in_graph"
  /** Another run of the same thread is in progress (one run per thread at a time). */
  | "thread_busy"
  /** A resume's decisions do not fit the pending approval (refused before the pause is consumed). */
  | "invalid_decision";

export class HarnessError extends DeeptabError<HarnessErrorCode> {
  constructor(code: HarnessErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "HarnessError";
  }
}
