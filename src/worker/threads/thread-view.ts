/**
 * A thread as the page shows it (ThreadView): its messages (a `task` call
 * with its subagent's messages nested), todos, the latest summarization,
 * the pending approval, an interrupted run, usage and context, branches.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { DeepAgent } from "../../agent/create-deep-agent.ts";
import { subagentThreadId } from "../../backends/runtime.ts";
import { clearedResultFiles, withClearedResults, type ClearedResults } from "../../context/clear-results.ts";
import { estimateMessagesTokens } from "../../context/tokens.ts";
import type { SummarizationEvent } from "../../context/view.ts";
import { CLEARED_KEY, EVENT_KEY } from "../../middleware/summarization.ts";
import { RUBRIC_EVALUATIONS } from "../../middleware/rubric-events.ts";
import { ASYNC_TASKS, type AsyncTask } from "../../middleware/async-tasks.ts";
import { branchesOf, type CheckpointReader } from "./history.ts";
import { gradeInfo, plain, shownApproval, toMessageInfo, usageOf } from "../runs/messages.ts";
import { brokenThread, messagesProblem } from "./stored-state.ts";
import type { RunRegistry, RunService } from "../runs/runs.ts";
import type { ModelWindow } from "../models/windows.ts";
import { addUsage } from "../../core/usage.ts";
import type { GradeInfo, MessageInfo, Todo, UsageInfo } from "../../protocol/messages.ts";
import type { ModelChoice } from "../../protocol/settings.ts";
import type { PendingApproval } from "../../protocol/approvals.ts";
import type { RemoteTask, ThreadView } from "../../protocol/threads.ts";

export interface ViewDeps {
  reader: DeepAgent;
  registry: RunRegistry;
  runs: Pick<RunService, "interrupted">;
  /** Adds schemas and diffs to a pending approval (approvals.ts). */
  enrich(threadId: string, approval: PendingApproval): Promise<PendingApproval>;
  history?: CheckpointReader | undefined;
  /** A subagent thread's messages and summarization event (from the checkpointer), or undefined. */
  childThread(threadId: string): Promise<ChildThread | undefined>;
  /** The window a choice works in (windows.ts: the one the agent is sized to). */
  windowOf(choice: ModelChoice): Promise<ModelWindow>;
}

/** What the view reads of a subagent's own thread. */
export interface ChildThread {
  messages: BaseMessage[];
  /** Its summarization event, when its context was summarized: it carries those calls' usage. */
  event?: SummarizationEvent | undefined;
}

const NO_USAGE: UsageInfo = { input: 0, output: 0 };

/** The summarization trigger deeptab uses for a window (85%, as the middleware's default). */
export function triggerFor(window: number): number {
  return Math.floor(window * 0.85);
}

/**
 * Totals of provider usage over AI messages. `input` counts every prompt
 * token, cache reads included (LangChain's `input_tokens` does for OpenAI
 * and Anthropic); `cacheRead` says how many of them the cache served.
 */
export function totalUsage(messages: readonly BaseMessage[]): UsageInfo {
  let total: UsageInfo = { input: 0, output: 0 };
  for (const m of messages) {
    if (!AIMessage.isInstance(m)) continue;
    const u = usageOf(m);
    if (u) total = addUsage(total, u);
  }
  return total;
}

/**
 * The whole thread's provider usage: the main agent's model calls (its AI
 * messages), its subagents' (`children`, from their threads), its
 * summarization calls' (kept on the summarization event: they leave no message)
 * and its rubric grader's (`grades`, kept on each evaluation).
 */
export function threadUsage(
  messages: readonly BaseMessage[],
  children: UsageInfo,
  event: SummarizationEvent | undefined,
  grades: readonly (GradeInfo | undefined)[] = [],
): UsageInfo {
  const graded = grades.reduce<UsageInfo>((sum, g) => (g?.usage ? addUsage(sum, g.usage) : sum), NO_USAGE);
  return addUsage(addUsage(addUsage(totalUsage(messages), children), event?.usage ?? NO_USAGE), graded);
}

/**
 * Tokens of the latest request and its answer, the context the next request
 * starts from: the provider's count when the last answer reports it (its
 * `input_tokens` already include cache reads, so they are not added again),
 * else an estimate.
 */
export function lastRequestTokens(
  messages: readonly BaseMessage[],
  event: SummarizationEvent | undefined,
  cleared?: ClearedResults,
): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m)) continue;
    const u = usageOf(m);
    if (u && u.input > 0) return u.input + u.output;
    break;
  }
  const from = event ? event.cutoffIndex : 0;
  const seen = withClearedResults(messages, cleared).slice(from);
  return estimateMessagesTokens(seen) + (event ? estimateMessagesTokens([event.summaryMessage]) : 0);
}

/**
 * The messages as plain data, each `task` call with its subagent's messages
 * (read from the subagent's own thread), and the provider usage of those
 * subagent runs: the child threads hold every model call a subagent made,
 * its summarization calls on their summarization event.
 */
async function withChildren(
  threadId: string,
  messages: readonly BaseMessage[],
  deps: ViewDeps,
): Promise<{ messages: MessageInfo[]; childUsage: UsageInfo }> {
  const out: MessageInfo[] = [];
  let childUsage = NO_USAGE;
  for (const m of messages) {
    const info = toMessageInfo(m);
    if (info.toolCalls?.some((c) => c.name === "task")) {
      for (const call of info.toolCalls) {
        if (call.name !== "task" || !call.id) continue;
        const child = await deps.childThread(subagentThreadId(threadId, call.id)).catch(() => undefined);
        // A subagent thread whose history is broken shows no activity rather than breaking the parent's view.
        if (!child || messagesProblem(child.messages)) continue;
        call.children = child.messages.filter((c) => c.getType() !== "human").map(toMessageInfo);
        childUsage = addUsage(childUsage, threadUsage(child.messages, NO_USAGE, child.event));
      }
    }
    out.push(info);
  }
  return { messages: out, childUsage };
}

/** The rubric loop's evaluations (the private `_rubric_evaluations`), each on the answer it graded; the latest wins. */
export function withGrades(messages: MessageInfo[], evaluations: unknown): void {
  if (!Array.isArray(evaluations)) return;
  for (const e of evaluations) {
    const at = (e as { afterMessage?: unknown }).afterMessage;
    const grade = gradeInfo(e);
    if (grade && typeof at === "number" && messages[at]?.role === "assistant") messages[at] = { ...messages[at], grade };
  }
}

/** The `asyncTasks` channel's tasks that name their server, as the page opens them; undefined when there are none. */
function remoteTasks(raw: unknown): Record<string, RemoteTask> | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const out: Record<string, RemoteTask> = {};
  for (const task of Object.values(raw as Record<string, Partial<AsyncTask>>)) {
    if (!task?.taskId || !task.url || !task.graphId) continue;
    out[task.taskId] = {
      taskId: task.taskId,
      agentName: String(task.agentName ?? ""),
      url: task.url,
      graphId: task.graphId,
      status: String(task.status ?? ""),
    };
  }
  return Object.keys(out).length ? out : undefined;
}

/** The view of a thread, less its agent (thread-agents.ts adds it). */
export async function threadView(threadId: string, deps: ViewDeps): Promise<Omit<ThreadView, "agent">> {
  const head = await deps.registry.head(threadId);
  const snapshot = await deps.reader.getState({ configurable: { thread_id: threadId, ...(head ? { checkpoint_id: head } : {}) } });
  const values = snapshot.values as {
    messages?: BaseMessage[];
    todos?: Todo[];
    [EVENT_KEY]?: SummarizationEvent;
    [CLEARED_KEY]?: ClearedResults;
  };
  const broken = messagesProblem(values.messages);
  if (broken) throw brokenThread(threadId, broken);
  const messages = values.messages ?? [];
  const event = values[EVENT_KEY];
  const model = await deps.registry.model(threadId);
  const window = await deps.windowOf(model);
  // The approval comes from the snapshot already read (one state read per view).
  const pending = head ? undefined : shownApproval(snapshot.tasks.flatMap((t) => t.interrupts.map((i) => i.value)));
  const [approval, cut] = await Promise.all([pending ? deps.enrich(threadId, pending) : null, deps.runs.interrupted(threadId)]);
  const partial = cut ? await deps.registry.partial(threadId) : undefined;
  const shown = await withChildren(threadId, messages, deps);
  const evaluations = (snapshot.values as Record<string, unknown>)[RUBRIC_EVALUATIONS.key];
  withGrades(shown.messages, evaluations);
  const view: Omit<ThreadView, "agent"> = {
    threadId,
    messages: shown.messages,
    todos: plain(values.todos ?? []),
    approval,
    model,
    usage: threadUsage(messages, shown.childUsage, event, Array.isArray(evaluations) ? evaluations.map(gradeInfo) : []),
    lastRequestTokens: lastRequestTokens(messages, event, values[CLEARED_KEY]),
    branches: deps.history ? await branchesOf(deps.history, threadId, head) : [],
  };
  for (const [i, path] of clearedResultFiles(messages, values[CLEARED_KEY])) shown.messages[i]!.clearedTo = path;
  if (event) view.summary = { cutoff: event.cutoffIndex, historyPath: event.filePath };
  if (cut) view.interrupted = partial ? { partial } : {};
  if (window.tokens) {
    view.window = window.tokens;
    view.trigger = triggerFor(window.tokens);
    if (window.assumed) view.windowAssumed = true;
  }
  if (head) view.head = head;
  const remote = remoteTasks((snapshot.values as Record<string, unknown>)[ASYNC_TASKS.key]);
  if (remote) view.remoteTasks = remote;
  return view;
}
