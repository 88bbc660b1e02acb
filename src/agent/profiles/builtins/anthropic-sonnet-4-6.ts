import { createHarnessProfile } from "../create.ts";
import type { HarnessProfile } from "../types.ts";
import { CLAUDE_GUIDANCE } from "./claude-guidance.ts";

const SYSTEM_PROMPT_SUFFIX = CLAUDE_GUIDANCE;

/**
 * The built-in Claude Sonnet 4.6 harness profile.
 *
 * Layers universal Claude guidance (parallel tool calls, grounded
 * answers, post-tool reflection) onto `anthropic:claude-sonnet-4-6`.
 *
 * No Sonnet-specific overlays — Anthropic's guidance for Sonnet 4.6
 * centers on API-level configuration rather than system-prompt
 * adjustments. This module exists as the audit anchor: its presence
 * documents the review and justifies the absence of model-specific
 * content.
 *
 */
export function register(): [string, HarnessProfile][] {
  return [["anthropic:claude-sonnet-4-6", createHarnessProfile({ systemPromptSuffix: SYSTEM_PROMPT_SUFFIX })]];
}
