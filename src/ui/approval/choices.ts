/**
 * The approval dialog's logic as pure functions: what the user has chosen per
 * pending tool call (`Choice`), turning those choices into the decisions the
 * worker accepts (one per action, in order, each one the action allows), the
 * edited-arguments parser, and the small labels the dialog shows.
 */
import { err, ok, type Result } from "../../core/result.ts";
import { TOOL } from "../../core/tool-names.ts";
import type { ApprovalAction, ApprovalDecision, PendingApproval } from "../../protocol/approvals.ts";

export type DecisionType = ApprovalDecision["type"];

/** What of a pending approval these functions read (its `id` only matters to the worker). */
export type ApprovalContent = Pick<PendingApproval, "actions" | "subagent" | "waiting">;

/** The order decisions are offered in. */
const DECISION_ORDER: readonly DecisionType[] = ["approve", "edit", "reject", "respond"];

export const DECISION_LABELS: Readonly<Record<DecisionType, string>> = {
  approve: "Approve",
  edit: "Edit",
  reject: "Reject",
  respond: "Respond",
};

/** What the user has picked for one action so far. */
export interface Choice {
  /** The chosen decision; null until one is picked. */
  type: DecisionType | null;
  /** Edit: the arguments as JSON text (prefilled with the call's arguments). */
  editText: string;
  /** Reject: the optional reason (the agent sees it). */
  reason: string;
  /** Respond: the answer given instead of running the tool (required). */
  answer: string;
}

/** The decisions an action allows, in {@link DECISION_ORDER}, without duplicates or unknown types. */
export function allowedOf(action: ApprovalAction): DecisionType[] {
  return DECISION_ORDER.filter((type) => action.allowedDecisions.includes(type));
}

/** Arguments as indented JSON (what the dialog shows and the edit box starts with). */
export function formatArgs(args: Record<string, unknown>): string {
  try {
    return JSON.stringify(args, null, 2) ?? "{}";
  } catch {
    return String(args);
  }
}

/** One fresh choice per action: nothing picked, the edit box holding the call's arguments. */
export function initialChoices(approval: ApprovalContent | null): Choice[] {
  return (approval?.actions ?? []).map((action) => ({ type: null, editText: formatArgs(action.args), reason: "", answer: "" }));
}

/** Edited arguments: the text must be JSON, and a JSON object. */
export function parseEditedArgs(text: string): Result<Record<string, unknown>, string> {
  if (!text.trim()) return err("Enter the arguments as a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return err(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return err("The arguments must be a JSON object ({ … }).");
  }
  return ok(value as Record<string, unknown>);
}

/** "delete" with one action, "call 2 (delete)" with several. */
export function callLabel(approval: ApprovalContent, index: number): string {
  const name = approval.actions[index]?.name ?? "?";
  return approval.actions.length === 1 ? name : `call ${index + 1} (${name})`;
}

/** The decision one choice stands for, or why it cannot be sent yet. */
function decisionOf(action: ApprovalAction, choice: Choice): Result<ApprovalDecision, string> {
  if (choice.type === null) return err("Choose a decision.");
  if (!action.allowedDecisions.includes(choice.type)) {
    return err(
      `${DECISION_LABELS[choice.type]} is not allowed; allowed: ${allowedOf(action)
        .map((t) => DECISION_LABELS[t])
        .join(", ")}.`,
    );
  }
  switch (choice.type) {
    case "approve":
      return ok({ type: "approve" });
    case "edit": {
      const args = parseEditedArgs(choice.editText);
      return args.ok ? ok({ type: "edit", editedAction: { name: action.name, args: args.value } }) : args;
    }
    case "reject": {
      const message = choice.reason.trim();
      return ok(message ? { type: "reject", message } : { type: "reject" });
    }
    case "respond": {
      const message = choice.answer.trim();
      return message ? ok({ type: "respond", message }) : err("Write the answer the agent gets instead of the tool's result.");
    }
  }
}

/** One decision per action, in order; refuses a missing, not allowed or incomplete choice (naming the call). */
export function toDecisions(approval: ApprovalContent, choices: readonly Choice[]): Result<ApprovalDecision[], string> {
  if (choices.length !== approval.actions.length) {
    return err(`Give one decision for each of the ${approval.actions.length} calls (got ${choices.length}).`);
  }
  const decisions: ApprovalDecision[] = [];
  for (const [i, action] of approval.actions.entries()) {
    const choice = choices[i]!;
    if (choice.type === null) return err(`Choose a decision for ${callLabel(approval, i)}.`);
    const decision = decisionOf(action, choice);
    if (!decision.ok) return err(`${callLabel(approval, i)}: ${decision.error}`);
    decisions.push(decision.value);
  }
  return ok(decisions);
}

/** Where the pause comes from: "Main agent" or "Subagent <type>". */
export function originLabel(approval: Pick<PendingApproval, "subagent">): string {
  return approval.subagent ? `Subagent ${approval.subagent.type}` : "Main agent";
}

/**
 * The requests waiting after the shown one (parallel subagents each pause on
 * their own; they are shown one after another), e.g. "1 more request waits
 * after this one: Subagent writer (write_file)". Null when none does.
 */
export function waitingLabel(approval: ApprovalContent): string | null {
  const waiting = approval.waiting ?? [];
  if (!waiting.length) return null;
  const list = waiting.map((w) => `${originLabel(w)} (${w.tools.join(", ")})`).join("; ");
  return waiting.length === 1
    ? `1 more request waits after this one: ${list}`
    : `${waiting.length} more requests wait after this one: ${list}`;
}

/** Every action allows approve (the dialog then offers "Approve all" and Enter). */
export function allApprovable(approval: ApprovalContent): boolean {
  return approval.actions.length > 0 && approval.actions.every((a) => a.allowedDecisions.includes("approve"));
}

/**
 * The dialog's title: "Approve delete?" with one call, "Approve 2 tool calls"
 * with several ("Review …" when approving is not allowed).
 */
export function approvalTitle(approval: ApprovalContent): string {
  const verb = allApprovable(approval) ? "Approve" : "Review";
  const n = approval.actions.length;
  return n === 1 ? `${verb} ${approval.actions[0]!.name}?` : `${verb} ${n} tool calls`;
}

/** Enter approves everything: approve is allowed for every action and nothing other than approve is picked. */
export function enterApproves(approval: ApprovalContent, choices: readonly Choice[]): boolean {
  return (
    allApprovable(approval) && choices.length === approval.actions.length && choices.every((c) => c.type === null || c.type === "approve")
  );
}

/**
 * The action's description without the arguments the default one repeats
 * ("Tool execution requires approval\n\nTool: delete\nArgs: {…}"): the
 * dialog shows them itself.
 */
export function descriptionOf(action: ApprovalAction): string {
  const repeated = `\n\nTool: ${action.name}\nArgs: ${formatArgs(action.args)}`;
  const text = action.description.endsWith(repeated) ? action.description.slice(0, -repeated.length) : action.description;
  return text.trim();
}

/** How an action's arguments are shown: a command, a diff, or JSON. */
export type ArgsView =
  | { kind: "command"; command: string; rest: Record<string, unknown> | null }
  | { kind: "diff"; path: string; before: string; after: string }
  | { kind: "json"; text: string };

export function argsView(action: ApprovalAction): ArgsView {
  const { command, ...rest } = action.args;
  if (action.name === TOOL.execute && typeof command === "string") {
    return { kind: "command", command, rest: Object.keys(rest).length ? rest : null };
  }
  if ((action.name === TOOL.edit_file || action.name === TOOL.write_file) && action.change) {
    return { kind: "diff", ...action.change };
  }
  return { kind: "json", text: formatArgs(action.args) };
}
