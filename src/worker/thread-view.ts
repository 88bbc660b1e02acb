/**
 * A thread as the page shows it (ThreadView): its messages (a `task` call
 * with its subagent's messages nested), todos, the latest summarization,
 * the pending approval, an interrupted run, usage and context, branches.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { DeepAgent } from "../agent/create-deep-agent.ts";
import { subagentThreadId } from "../backends/runtime.ts";
import { estimateMessagesTokens } from "../context/tokens.ts";
import type { SummarizationEvent } from "../context/view.ts";
import { EVENT_KEY } from "../middleware/summarization.ts";
import { branchesOf, type CheckpointReader } from "./history.ts";
import { plain, toMessageInfo, toPendingApproval, usageOf } from "./messages.ts";
import type { RunRegistry, RunService } from "./runs.ts";
import type { MessageInfo, ModelChoice, PendingApproval, ThreadView, Todo, UsageInfo } from "./protocol.ts";

export interface ViewDeps {
  reader: DeepAgent;
  registry: RunRegistry;
  runs: Pick<RunService, "interrupted">;
  /** Adds schemas and diffs to a pending approval (approvals.ts). */
  enrich(threadId: string, approval: PendingApproval): Promise<PendingApproval>;
  history?: CheckpointReader | undefined;
  /** A subagent thread's messages (from the checkpointer), or undefined. */
  childMessages(threadId: string): Promise<BaseMessage[] | undefined>;
  /** The window a choice works in, when known. */
  windowOf(choice: ModelChoice): Promise<number | undefined>;
}

/** The summarization trigger deeptab uses for a window (85%, as the middleware's default). */
export function triggerFor(window: number): number {
  return Math.floor(window * 0.85);
}

/** Totals of provider usage over AI messages. */
export function totalUsage(messages: readonly BaseMessage[]): UsageInfo {
  const total: UsageInfo = { input: 0, output: 0 };
  for (const m of messages) {
    if (!AIMessage.isInstance(m)) continue;
    const u = usageOf(m);
    if (!u) continue;
    total.input += u.input;
    total.output += u.output;
    if (u.cacheRead) total.cacheRead = (total.cacheRead ?? 0) + u.cacheRead;
  }
  return total;
}

/** Tokens of the latest request: the provider's count when the last answer reports it, else an estimate. */
export function lastRequestTokens(messages: readonly BaseMessage[], event: SummarizationEvent | undefined): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m)) continue;
    const u = usageOf(m);
    if (u && u.input > 0) return u.input + (u.cacheRead ?? 0) + u.output;
    break;
  }
  const from = event ? event.cutoffIndex : 0;
  return estimateMessagesTokens(messages.slice(from)) + (event ? estimateMessagesTokens([event.summaryMessage]) : 0);
}

async function withChildren(threadId: string, messages: readonly BaseMessage[], deps: ViewDeps): Promise<MessageInfo[]> {
  const out: MessageInfo[] = [];
  for (const m of messages) {
    const info = toMessageInfo(m);
    if (info.toolCalls?.some((c) => c.name === "task")) {
      for (const call of info.toolCalls) {
        if (call.name !== "task" || !call.id) continue;
        const child = await deps.childMessages(subagentThreadId(threadId, call.id)).catch(() => undefined);
        if (child) call.children = child.filter((c) => c.getType() !== "human").map(toMessageInfo);
      }
    }
    out.push(info);
  }
  return out;
}

export async function threadView(threadId: string, deps: ViewDeps): Promise<ThreadView> {
  const head = await deps.registry.head(threadId);
  const snapshot = await deps.reader.getState({ configurable: { thread_id: threadId, ...(head ? { checkpoint_id: head } : {}) } });
  const values = snapshot.values as { messages?: BaseMessage[]; todos?: Todo[]; [EVENT_KEY]?: SummarizationEvent };
  const messages = values.messages ?? [];
  const event = values[EVENT_KEY];
  const model = await deps.registry.model(threadId);
  const window = await deps.windowOf(model);
  // The approval comes from the snapshot already read (one state read per view).
  const pending = head
    ? undefined
    : snapshot.tasks
        .flatMap((t) => t.interrupts)
        .map((i) => toPendingApproval(i.value))
        .find((a) => a);
  const [approval, cut] = await Promise.all([pending ? deps.enrich(threadId, pending) : null, deps.runs.interrupted(threadId)]);
  const partial = cut ? await deps.registry.partial(threadId) : undefined;
  const view: ThreadView = {
    threadId,
    messages: await withChildren(threadId, messages, deps),
    todos: plain(values.todos ?? []),
    approval,
    model,
    usage: totalUsage(messages),
    lastRequestTokens: lastRequestTokens(messages, event),
    branches: deps.history ? await branchesOf(deps.history, threadId, head) : [],
  };
  if (event) view.summary = { cutoff: event.cutoffIndex, historyPath: event.filePath };
  if (cut) view.interrupted = partial ? { partial } : {};
  if (window) {
    view.window = window;
    view.trigger = triggerFor(window);
  }
  if (head) view.head = head;
  return view;
}
