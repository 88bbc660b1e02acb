/**
 * LangChain messages and interrupt values as the plain protocol values the
 * page gets. Pure.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { isGraderFeedback, isNote, messageText, TOOL_DURATION_KEY, WEB_SEARCH_KEY } from "../../core/messages.ts";
import { MAX_TOOL_IMAGES, TOOL_IMAGES_KEY, type ToolImage } from "../../core/tool-images.ts";
import { tokenUsage } from "../../core/usage.ts";
import { evictionPreview } from "../../middleware/eviction.ts";
import { DECISION_KEY } from "../../middleware/hitl.ts";
import { RUBRIC_RESULTS } from "../../middleware/rubric-events.ts";
import { CANCELLED_KEY } from "../../middleware/patch-tool-calls.ts";
import { hash53 } from "../../storage/encoding.ts";
import { CUT_OFF_KEY, REPLAY_KEY, STOPPED_KEY } from "../../protocol/message-marks.ts";
import type { ApprovalAction, PendingApproval } from "../../protocol/approvals.ts";
import type {
  CitationInfo,
  GradeInfo,
  MessageInfo,
  ReplayInfo,
  Role,
  ToolCallInfo,
  UsageInfo,
  WebSearchInfo,
} from "../../protocol/messages.ts";
import { isRecord } from "../../core/is-record.ts";

const ROLES: Partial<Record<string, Role>> = { human: "user", ai: "assistant", tool: "tool", system: "system" };

/** A JSON copy: guarantees structured-cloneable plain data. */
export function plain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function toToolCallInfo(call: { id?: string | undefined; name: string; args: Record<string, unknown> }): ToolCallInfo {
  return { id: call.id ?? "", name: call.name, args: (plain(call.args) as Record<string, unknown> | null) ?? {} };
}

export function usageOf(msg: AIMessage): UsageInfo | undefined {
  return msg.usage_metadata ? tokenUsage(msg.usage_metadata) : undefined;
}

/**
 * A replayed turn's mark, as its opening message keeps it in the checkpoint: the ReplayInfo, with an `Infinity` pace
 * written `"instant"` (checkpoints and exports are JSON, where `Infinity` would become `null`).
 */
export function replayMark(info: ReplayInfo): Record<string, unknown> {
  const { speed, ...rest } = info;
  return speed === undefined ? rest : { ...rest, speed: Number.isFinite(speed) ? speed : "instant" };
}

/** The ReplayInfo a message's mark holds (replayMark's inverse), or none when it is not one (a crafted import could hold anything). */
export function replayInfoOf(value: unknown): ReplayInfo | undefined {
  if (!isRecord(value)) return undefined;
  const { file, title, model, recordedBy, recordedAt, scripted, speed } = value;
  if (typeof file !== "string" || typeof title !== "string" || typeof model !== "string") return undefined;
  const pace = speed === "instant" ? Infinity : typeof speed === "number" && speed > 0 ? speed : undefined;
  return {
    file,
    title,
    model,
    ...(typeof recordedBy === "string" ? { recordedBy } : {}),
    ...(typeof recordedAt === "string" ? { recordedAt } : {}),
    scripted: scripted === true,
    ...(pace !== undefined ? { speed: pace } : {}),
  };
}

/** A message as plain data. Unknown message types are reported as `user`. */
export function toMessageInfo(msg: BaseMessage): MessageInfo {
  const info: MessageInfo = { role: ROLES[msg.getType()] ?? "user", content: messageText(msg) };
  if (msg.id) info.id = msg.id;
  if (isGraderFeedback(msg)) info.grader = true;
  if (isNote(msg)) info.note = true;
  const replay = msg.getType() === "human" ? replayInfoOf(msg.additional_kwargs?.[REPLAY_KEY]) : undefined;
  if (replay) info.replay = replay;
  if (AIMessage.isInstance(msg)) {
    if (msg.tool_calls?.length) info.toolCalls = msg.tool_calls.map(toToolCallInfo);
    const usage = usageOf(msg);
    if (usage) info.usage = usage;
    if (msg.response_metadata?.[STOPPED_KEY]) info.stopped = true;
    if (msg.response_metadata?.[CUT_OFF_KEY]) info.cutOff = true;
    // The provider's own web search, read from its blocks as the message arrived (the page checks the links again).
    const web = msg.response_metadata?.[WEB_SEARCH_KEY] as { searches?: unknown; citations?: unknown } | undefined;
    if (Array.isArray(web?.searches) && web.searches.length) info.searches = plain(web.searches) as WebSearchInfo[];
    if (Array.isArray(web?.citations) && web.citations.length) info.citations = plain(web.citations) as CitationInfo[];
  }
  if (ToolMessage.isInstance(msg)) {
    info.toolCallId = msg.tool_call_id;
    if (msg.name) info.name = msg.name;
    info.status = msg.status === "error" ? "error" : "success";
    const meta = msg.response_metadata ?? {};
    if (meta[DECISION_KEY] === "reject" || meta[DECISION_KEY] === "respond") info.decision = meta[DECISION_KEY];
    if (typeof meta.evicted_to === "string") {
      info.offloadedTo = meta.evicted_to;
      const preview = evictionPreview(info.content);
      if (preview !== undefined) info.offloadPreview = preview;
    }
    if (typeof meta[TOOL_DURATION_KEY] === "number") info.durationMs = meta[TOOL_DURATION_KEY] as number;
    // Checked when kept; the page checks them again before it shows one (a crafted import could hold anything).
    const images = meta[TOOL_IMAGES_KEY];
    if (Array.isArray(images) && images.length) info.images = plain(images.slice(0, MAX_TOOL_IMAGES)) as ToolImage[];
    if (meta[STOPPED_KEY]) info.stopped = true;
    else if (meta[CANCELLED_KEY]) info.cancelled = true;
  }
  return info;
}

/**
 * Which pause an approval is: its origin (the main agent, or the `task` call
 * of a subagent) and a hash of what it asks (each action's tool and
 * arguments). A decision names it, so it applies only to the request shown.
 */
function approvalId(approval: Pick<PendingApproval, "actions" | "subagent">): string {
  const asked = JSON.stringify(approval.actions.map((a) => [a.name, a.args]));
  const origin = approval.subagent ? `task:${approval.subagent.taskId}` : "main";
  return `${origin}:${hash53(new TextEncoder().encode(asked)).toString(36)}`;
}

/**
 * The approval a HITL interrupt value asks for (deepagents' shape:
 * `{ actionRequests, reviewConfigs }`, plus `subagent`/`taskId` when a
 * subagent paused). Undefined when the value is not an approval request.
 */
export function toPendingApproval(value: unknown): PendingApproval | undefined {
  if (!isRecord(value) || !Array.isArray(value.actionRequests)) return undefined;
  const reviews = Array.isArray(value.reviewConfigs) ? value.reviewConfigs : [];
  const actions: ApprovalAction[] = value.actionRequests.filter(isRecord).map((req, i) => {
    const review = isRecord(reviews[i]) ? reviews[i] : {};
    const allowed = Array.isArray(review.allowedDecisions)
      ? review.allowedDecisions.filter((d): d is ApprovalAction["allowedDecisions"][number] =>
          ["approve", "edit", "reject", "respond"].includes(d as string),
        )
      : [];
    return {
      name: String(req.name ?? ""),
      args: isRecord(req.args) ? (plain(req.args) as Record<string, unknown>) : {},
      description: String(req.description ?? ""),
      allowedDecisions: allowed.length ? allowed : ["approve", "edit", "reject", "respond"],
    };
  });
  if (!actions.length) return undefined;
  const subagent =
    typeof value.subagent === "string" && typeof value.taskId === "string" ? { type: value.subagent, taskId: value.taskId } : undefined;
  const approval: PendingApproval = { id: approvalId({ actions, subagent }), actions };
  if (subagent) approval.subagent = subagent;
  return approval;
}

/** Every approval the interrupt values ask for, in order (parallel subagents each pause with their own). */
export function pendingApprovals(values: readonly unknown[]): PendingApproval[] {
  return values.map(toPendingApproval).filter((a): a is PendingApproval => a !== undefined);
}

/**
 * The approval to show of those pending: the first, with the others listed
 * as waiting after it (they are shown one after another, each decision
 * applying only to the request it was shown for). Undefined when none is.
 */
export function shownApproval(values: readonly unknown[]): PendingApproval | undefined {
  const [first, ...rest] = pendingApprovals(values);
  if (!first || !rest.length) return first;
  return { ...first, waiting: rest.map((a) => ({ ...(a.subagent ? { subagent: a.subagent } : {}), tools: a.actions.map((x) => x.name) })) };
}

/** Messages the user and the agent wrote: user messages and assistant messages with text (not tool traffic). */
export function visibleCount(messages: readonly BaseMessage[]): number {
  let n = 0;
  for (const m of messages) {
    const type = m.getType();
    if (type === "human" || (type === "ai" && m.text.trim())) n++;
  }
  return n;
}

const GRADE_RESULTS: ReadonlySet<string> = new Set(RUBRIC_RESULTS);

/** A rubric evaluation (from the stream or the thread's state) as plain, checked data; undefined when it is not one. */
export function gradeInfo(evaluation: unknown): GradeInfo | undefined {
  if (!isRecord(evaluation) || typeof evaluation.result !== "string" || !GRADE_RESULTS.has(evaluation.result)) return undefined;
  const criteria = Array.isArray(evaluation.criteria) ? evaluation.criteria.filter(isRecord) : [];
  return {
    result: evaluation.result as GradeInfo["result"],
    explanation: typeof evaluation.explanation === "string" ? evaluation.explanation : "",
    criteria: criteria.map((c) => ({
      name: String(c.name ?? ""),
      passed: c.passed === true,
      ...(typeof c.gap === "string" && c.gap ? { gap: c.gap } : {}),
    })),
    iteration: typeof evaluation.iteration === "number" ? evaluation.iteration : 0,
    ...usageField(evaluation.usage),
  };
}

/** A stored usage as plain numbers, when it is one (state is read back from storage: nothing is trusted). */
function usageField(value: unknown): { usage?: UsageInfo } {
  if (!isRecord(value)) return {};
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
  const input = count(value.input);
  const output = count(value.output);
  if (input === undefined || output === undefined) return {};
  const cacheRead = count(value.cacheRead);
  return { usage: { input, output, ...(cacheRead ? { cacheRead } : {}) } };
}
