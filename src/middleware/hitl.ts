/**
 * Human in the loop: tool calls named in `interruptOn` pause the run before
 * any tool executes. The interrupt value follows deepagents:
 *   { actionRequests: [{ name, args, description }], reviewConfigs: [{ actionName, allowedDecisions }] }
 * Resume with `new Command({ resume: { decisions: [...] } })`, one decision per
 * action request, in order:
 *   { type: "approve" } | { type: "edit", editedAction: { name?, args } }
 *   | { type: "reject", message? } | { type: "respond", message }
 * Rejected and answered calls get a ToolMessage and never run; approved and
 * edited ones run. Those ToolMessages carry the decision ("reject" or
 * "respond") under `response_metadata[DECISION_KEY]`, so a UI can tell a
 * person's answer from a tool's result; the model sees only the content.
 * Works with several pending calls at once and after a page reload (the
 * pause is in the checkpoint). Needs a checkpointer. A resume whose
 * decisions do not fit (wrong count, a type the action does not allow, an
 * edit without arguments, a respond without text) is refused with
 * `invalid_decision` and the pause stays, unconsumed.
 */
import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { copyAIMessage, lastAIMessage, pendingToolCalls } from "../core/messages.ts";
import { interruptWithConfig } from "../harness/interrupt.ts";
import type { AgentMiddleware } from "../harness/types.ts";
import { isRecord } from "../core/is-record.ts";

export const HITL = "HumanInTheLoopMiddleware";

/** `response_metadata` key of the ToolMessage a reject or respond decision stands in for the tool's result with. */
export const DECISION_KEY = "hitl_decision";

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
function normalizeInterruptOn(config: InterruptOnConfig): Map<string, InterruptRule> {
  const rules = new Map<string, InterruptRule>();
  for (const [name, value] of Object.entries(config)) {
    if (value === false) continue;
    rules.set(name, value === true ? {} : value);
  }
  return rules;
}

/** What is wrong with one decision for an action allowing `allowed`, or undefined when it is usable. */
export function decisionProblem(decision: unknown, allowed: readonly DecisionType[]): string | undefined {
  if (!isRecord(decision))
    return `a decision is an object such as { type: "approve" }, not ${JSON.stringify(decision) ?? String(decision)}`;
  const type = decision.type;
  if (!ALL_DECISIONS.includes(type as DecisionType))
    return `unknown decision type ${JSON.stringify(type)} (use ${ALL_DECISIONS.join(", ")})`;
  if (!allowed.includes(type as DecisionType)) return `'${String(type)}' is not allowed here; allowed: ${allowed.join(", ")}`;
  if (type === "edit") {
    const edited = decision.editedAction;
    if (!isRecord(edited) || !isRecord(edited.args)) return "an edit needs editedAction: { args: { … } } with the arguments as an object";
    if (edited.name !== undefined && (typeof edited.name !== "string" || !edited.name)) return "editedAction.name must be a tool name";
  }
  if (type === "reject" && decision.message !== undefined && typeof decision.message !== "string") return "a reject message must be text";
  if (type === "respond" && (typeof decision.message !== "string" || !decision.message.trim()))
    return "respond needs a message: the text the agent gets instead of the tool's result";
  return undefined;
}

/**
 * What is wrong with `response` as the answer to `request`, or undefined when
 * it is usable: one well-formed decision per action request, in order, each
 * one its action allows.
 */
export function decisionsProblem(response: unknown, request: HITLRequest): string | undefined {
  const decisions = isRecord(response) ? response.decisions : undefined;
  const count = request.actionRequests.length;
  if (!Array.isArray(decisions) || decisions.length !== count)
    return `Resume with { decisions: [...] } holding exactly ${count} decision(s), one per action request.`;
  for (const [i, decision] of decisions.entries()) {
    const problem = decisionProblem(decision, request.reviewConfigs[i]?.allowedDecisions ?? ALL_DECISIONS);
    if (problem) return `Decision ${i + 1} (${request.actionRequests[i]!.name}): ${problem}.`;
  }
  return undefined;
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
      // A decision that does not fit is refused before it is taken: the pause stays for a better one.
      const { decisions } = interruptWithConfig<HITLResponse>(request, config, (response) => decisionsProblem(response, request));
      const byId = new Map(gated.map(({ call }, i) => [call.id, decisions[i]!]));
      const results: ToolMessage[] = [];
      const calls = (ai.tool_calls ?? []).map((call) => {
        const decision = call.id ? byId.get(call.id) : undefined;
        if (!decision) return call;
        if (decision.type === "edit") return { ...call, name: decision.editedAction.name ?? call.name, args: decision.editedAction.args };
        if (decision.type === "reject") {
          results.push(
            new ToolMessage({
              content: decision.message?.trim() ? decision.message : `User rejected the tool call for \`${call.name}\` with id ${call.id}`,
              name: call.name,
              tool_call_id: call.id!,
              status: "error",
              response_metadata: { [DECISION_KEY]: "reject" },
            }),
          );
        } else if (decision.type === "respond") {
          results.push(
            new ToolMessage({
              content: decision.message,
              name: call.name,
              tool_call_id: call.id!,
              status: "success",
              response_metadata: { [DECISION_KEY]: "respond" },
            }),
          );
        }
        return call;
      });
      const edited = copyAIMessage(ai, { tool_calls: calls });
      return { messages: [edited, ...results] };
    },
  };
}
