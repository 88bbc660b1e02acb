/**
 * Approvals in the protocol: a tool call waiting for a decision, what a paused thread waits for, and the decision.
 */
import type { Decision } from "../middleware/hitl.ts";

/** One tool call waiting for a decision. */
export interface ApprovalAction {
  name: string;
  args: Record<string, unknown>;
  description: string;
  allowedDecisions: Array<Decision["type"]>;
  /** The tool's argument schema (to check edited arguments). */
  schema?: Record<string, unknown>;
  /** For edits and overwrites: the file before and after (for a diff). */
  change?: { path: string; before: string; after: string };
}

/** What a paused thread waits for, and where the pause comes from. */
export interface PendingApproval {
  /** Which pause this is: `resume` names it, so a decision applies only to the request it was shown for. */
  id: string;
  actions: ApprovalAction[];
  /** Set when a subagent paused: its type and the `task` call that runs it. */
  subagent?: { type: string; taskId: string };
  /**
   * Other requests pending at the same time (parallel subagents), in order:
   * each is shown, and answered, after this one.
   */
  waiting?: Array<{ subagent?: { type: string; taskId: string }; tools: string[] }>;
}

export type ApprovalDecision = Decision;
