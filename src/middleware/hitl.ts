/**
 * Human in the loop: tool calls named in `interruptOn` pause the run before
 * any tool executes. The interrupt value follows deepagents:
 *   { actionRequests: [{ name, args, description }], reviewConfigs: [{ actionName, allowedDecisions }] }
 * Resume with `new Command({ resume: { decisions: [...] } })`, one decision per
 * action request, in order:
 *   { type: "approve" } | { type: "edit", editedAction: { name?, args } }
 *   | { type: "reject", message? } | { type: "respond", message }
 * Rejected and answered calls get a ToolMessage and never run; approved and
 * edited ones run. Works with several pending calls at once and after a page
 * reload (the pause is in the checkpoint). Needs a checkpointer.
 */
import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { copyAIMessage, lastAIMessage, pendingToolCalls } from "../core/messages.ts";
import { HarnessError } from "../harness/errors.ts";
import { interruptWithConfig } from "../harness/interrupt.ts";
import type { AgentMiddleware } from "../harness/types.ts";

export const HITL = "HumanInTheLoopMiddleware";

export type DecisionType = "approve" | "edit" | "reject" | "respond";
export const ALL_DECISIONS: readonly DecisionType[] = ["approve", "edit", "reject", "respond"];

export interface InterruptRule {
  allowedDecisions?: DecisionType[];
  description?: string | ((call: ToolCall) => string);
  /** Only calls for which this returns true pause (path-aware rules use it). */
  when?: (call: ToolCall) => boolean;
}

export type InterruptOnConfig = Record<string, boolean | InterruptRule>;

export interface ActionRequest {
  name: string;
  args: Record<string, unknown>;
  description: string;
}

export interface ReviewConfig {
  actionName: string;
  allowedDecisions: DecisionType[];
}

export interface HITLRequest {
  actionRequests: ActionRequest[];
  reviewConfigs: ReviewConfig[];
}

export type Decision =
  | { type: "approve" }
  | { type: "edit"; editedAction: { name?: string; args: Record<string, unknown> } }
  | { type: "reject"; message?: string }
  | { type: "respond"; message: string };

export interface HITLResponse {
  decisions: Decision[];
}

function describe(call: ToolCall, rule: InterruptRule): string {
  if (typeof rule.description === "function") return rule.description(call);
  if (typeof rule.description === "string") return rule.description;
  return `Tool execution requires approval\n\nTool: ${call.name}\nArgs: ${JSON.stringify(call.args, null, 2)}`;
}

/** Rules from `interruptOn`, with `true` meaning every decision is allowed. */
export function normalizeInterruptOn(config: InterruptOnConfig): Map<string, InterruptRule> {
  const rules = new Map<string, InterruptRule>();
  for (const [name, value] of Object.entries(config)) {
    if (value === false) continue;
    rules.set(name, value === true ? {} : value);
  }
  return rules;
}

function checkDecisions(response: unknown, count: number): Decision[] {
  const decisions = (response as HITLResponse | undefined)?.decisions;
  if (!Array.isArray(decisions) || decisions.length !== count) {
    throw new HarnessError(
      "invalid_option",
      `Resume with { decisions: [...] } holding exactly ${count} decision(s), one per action request.`,
    );
  }
  return decisions;
}

export function hitlMiddleware(interruptOn: InterruptOnConfig, extraRules: Array<[string, InterruptRule]> = []): AgentMiddleware {
  const rules = normalizeInterruptOn(interruptOn);
  const extra = extraRules;
  const matches = (call: ToolCall): InterruptRule | undefined => {
    const rule = rules.get(call.name);
    if (rule && (rule.when?.(call) ?? true)) return rule;
    for (const [name, r] of extra) if (name === call.name && (r.when?.(call) ?? true)) return r;
    return undefined;
  };
  return {
    name: HITL,
    async afterModel(state, config) {
      const ai = lastAIMessage(state.messages);
      if (!ai) return undefined;
      const pending = pendingToolCalls(state.messages);
      const gated = pending
        .map((call) => ({ call, rule: matches(call) }))
        .filter((g): g is { call: typeof g.call; rule: InterruptRule } => !!g.rule);
      if (gated.length === 0) return undefined;
      const request: HITLRequest = {
        actionRequests: gated.map(({ call, rule }) => ({ name: call.name, args: call.args, description: describe(call, rule) })),
        reviewConfigs: gated.map(({ call, rule }) => ({
          actionName: call.name,
          allowedDecisions: rule.allowedDecisions ?? [...ALL_DECISIONS],
        })),
      };
      const decisions = checkDecisions(interruptWithConfig<HITLResponse>(request, config), gated.length);
      const byId = new Map(
        gated.map(({ call }, i) => [call.id, { decision: decisions[i]!, allowed: request.reviewConfigs[i]!.allowedDecisions }]),
      );
      const results: ToolMessage[] = [];
      const calls = (ai.tool_calls ?? []).map((call) => {
        const entry = call.id ? byId.get(call.id) : undefined;
        if (!entry) return call;
        const { decision, allowed } = entry;
        if (!allowed.includes(decision.type)) {
          throw new HarnessError(
            "invalid_option",
            `Decision '${decision.type}' is not allowed for ${call.name}; allowed: ${allowed.join(", ")}.`,
          );
        }
        if (decision.type === "edit") return { ...call, name: decision.editedAction.name ?? call.name, args: decision.editedAction.args };
        if (decision.type === "reject") {
          results.push(
            new ToolMessage({
              content: decision.message ?? `User rejected the tool call for \`${call.name}\` with id ${call.id}`,
              name: call.name,
              tool_call_id: call.id!,
              status: "error",
            }),
          );
        } else if (decision.type === "respond") {
          results.push(new ToolMessage({ content: decision.message, name: call.name, tool_call_id: call.id!, status: "success" }));
        }
        return call;
      });
      const edited = copyAIMessage(ai, { tool_calls: calls });
      return { messages: [edited, ...results] };
    },
  };
}
