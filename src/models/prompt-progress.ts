/**
 * How a chat model says it is reading its prompt, before its first token: a
 * LangChain custom event (`runManager.handleCustomEvent`) with how many of
 * the prompt's tokens it has processed. ChatWllama sends it (llama.cpp's
 * `prompt_progress`); the worker shows it while the user waits
 * (worker/runs/run-status.ts). Plain data, no imports: the worker reads it
 * without loading any model's code.
 */

export const PROMPT_PROGRESS_EVENT = "deeptab_prompt_progress";

export interface PromptProgress {
  /** Tokens of the prompt processed so far (cached ones included). */
  processed: number;
  /** Tokens in the prompt. */
  total: number;
}

export function isPromptProgress(value: unknown): value is PromptProgress {
  const v = value as Partial<PromptProgress> | null;
  return typeof v?.processed === "number" && typeof v.total === "number" && v.total > 0 && v.processed >= 0;
}
