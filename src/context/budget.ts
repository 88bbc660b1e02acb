/**
 * Budgets that follow the model's context window, so the harness holds up
 * in small windows (4k to 32k tokens: in-tab models, Ollama's defaults) as
 * in large ones.
 *
 * - One tool result may take at most {@link resultTokenBudget} tokens: the
 *   smaller of deepagents' 20,000 and a fixed share of the window. Larger
 *   results are offloaded to /large_tool_results/ (or, for read_file and
 *   listings, cut with a note on how to page on).
 * - Below COMPACT_PROFILE_BELOW tokens (tool-profile.ts) the compact tool profile is
 *   chosen: shorter tool descriptions and fewer tools, so the fixed prompt
 *   leaves room to work.
 */
import { CHARS_PER_TOKEN } from "./tokens.ts";

export { COMPACT_PROFILE_BELOW, toolProfileFor, type ToolProfile } from "./tool-profile.ts";

/** deepagents' limit for one tool result. */
const TOOL_RESULT_TOKEN_LIMIT = 20_000;
/** The share of the window one tool result may take. */
const RESULT_WINDOW_SHARE = 0.2;
/** Never below this, so a small window still gets a useful page of a file. */
const MIN_RESULT_TOKENS = 400;

/** Tokens one tool result may take in a window (20,000 when the window is unknown). */
export function resultTokenBudget(window: number | undefined): number {
  if (!window) return TOOL_RESULT_TOKEN_LIMIT;
  return Math.max(MIN_RESULT_TOKENS, Math.min(TOOL_RESULT_TOKEN_LIMIT, Math.floor(window * RESULT_WINDOW_SHARE)));
}

/** The same budget in characters (the estimate is 4 characters per token). */
export function resultCharBudget(window: number | undefined): number {
  return resultTokenBudget(window) * CHARS_PER_TOKEN;
}
