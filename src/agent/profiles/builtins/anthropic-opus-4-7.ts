import { createHarnessProfile } from "../create.ts";
import type { HarnessProfile } from "../types.ts";
import { CLAUDE_GUIDANCE, OPUS_GUIDANCE } from "./claude-guidance.ts";

const SYSTEM_PROMPT_SUFFIX = CLAUDE_GUIDANCE + OPUS_GUIDANCE;

/**
 * The built-in Claude Opus 4.7 harness profile.
 *
 * Layers a system-prompt suffix onto `anthropic:claude-opus-4-7`
 * tuned to the model's documented behaviors: parallel tool calls,
 * grounded answers, post-tool reflection, active investigation, and
 * subagent spawning guidance.
 *
 */
export function register(): [string, HarnessProfile][] {
  return [["anthropic:claude-opus-4-7", createHarnessProfile({ systemPromptSuffix: SYSTEM_PROMPT_SUFFIX })]];
}
