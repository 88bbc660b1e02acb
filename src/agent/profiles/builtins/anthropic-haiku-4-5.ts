import { createHarnessProfile } from "../create.ts";
import type { HarnessProfile } from "../types.ts";
import { CLAUDE_GUIDANCE } from "./claude-guidance.ts";

const SYSTEM_PROMPT_SUFFIX = CLAUDE_GUIDANCE;

/**
 * The built-in Claude Haiku 4.5 harness profile.
 *
 * Same universal Claude guidance as Sonnet 4.6. No Haiku-specific
 * overlays.
 *
 */
export function register(): [string, HarnessProfile][] {
  return [["anthropic:claude-haiku-4-5", createHarnessProfile({ systemPromptSuffix: SYSTEM_PROMPT_SUFFIX })]];
}
