/**
 * The worker's runs: start, resume, continue, edit-and-rerun, retry and
 * cancel, one run per thread (a Web Lock, so two tabs cannot run one thread
 * at once), streamed to the page as protocol events.
 *
 * What a run leaves behind is always consistent:
 * - Stop keeps the streamed part of the answer (an assistant message marked
 *   stopped), the results of calls that had finished, and gives the others a
 *   result marked stopped, in subagents' threads too (stop.ts). A failure
 *   (a dropped connection) keeps the streamed part too, marked cut off.
 * - While a run streams, its partial answer is saved every second, so a
 *   reload mid-run finds it; the registry's `running` mark, left set by a
 *   worker that went away, is what makes the thread "interrupted" (Continue
 *   runs on from the last checkpoint).
 * - Edits and retries fork a checkpoint; the earlier branch stays.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph/web";
import type { DeepAgent } from "../../agent/create-deep-agent.ts";
import { toErrorInfo, type ErrorInfo } from "../../core/errors.ts";
import { fail, ok, type Result } from "../../core/result.ts";
import { decisionProblem } from "../../middleware/hitl.ts";
import type { ModelChoice } from "../../models/providers.ts";
import type { BuiltAgent } from "./agents.ts";
import { ChildActivityHandler } from "./child-activity.ts";
import { EventSink, release, withThreadLock } from "./event-sink.ts";
import { createTranslator } from "./events.ts";
import { forkCheckpoint, type CheckpointReader } from "../threads/history.ts";
import { CUT_OFF_KEY } from "../../protocol/message-marks.ts";
import { isNote, opensTurn, queuedUserMessage } from "../../core/messages.ts";
import { pendingApprovals, replayInfoOf, replayMark, shownApproval, visibleCount } from "./messages.ts";
import { RunStatusHandler, type RunStatus } from "./run-status.ts";
import { brokenThread, messagesProblem } from "../threads/stored-state.ts";
import { threadLockName, type ThreadEvent } from "../../protocol/threads.ts";
import type { ApprovalDecision, PendingApproval } from "../../protocol/approvals.ts";
import type { EventCallback, TerminalEvent } from "../../protocol/events.ts";
import type { FileResult, StartErrorCode, StartResult, SteerResult } from "../../protocol/errors.ts";
import type { QueuedMessage, UserInput } from "../../protocol/worker-api.ts";
import type { Inbox } from "../../harness/loop.ts";
import type { SteerQueues } from "./steering.ts";
import { keepStopped, partialAnswer } from "./stop.ts";
import type { DemoRecorder } from "../../models/replay/recorder.ts";
import { REPLAY_KEY } from "../../protocol/message-marks.ts";
import type { ModelReplies } from "./model-replies.ts";
import { turnMessageIds } from "../threads/workspace-changes.ts";

/** What runs need of the thread registry (threads.ts). */
export interface RunRegistry {
  /** `shown`: how many messages the user sees as the run starts (its own message included), when it changes. */
  runStarted(threadId: string, text: string | undefined, model: ModelChoice, shown?: number): Promise<void>;
  runEnded(threadId: string, messages: readonly BaseMessage[]): Promise<void>;
  savePartial(threadId: string, text: string | undefined): Promise<void>;
  partial(threadId: string): Promise<string | undefined>;
  /** The branch shown when it is not the newest (a checkpoint id). */
  head(threadId: string): Promise<string | undefined>;
  setHead(threadId: string, head: string | undefined): Promise<void>;
  /** True when a run of the thread started and did not end (its worker went away). */
  wasRunning(threadId: string): Promise<boolean>;
  model(threadId: string): Promise<ModelChoice>;
}

export interface RunDeps {
  /**
   * Builds the run's agent for the thread (its agent folder, when it has one); `onStatus` hears what takes a while
   * meanwhile (loading a model in the tab).
   */
  agent(
    choice: ModelChoice,
    onStatus: (status: RunStatus) => void,
    threadId?: string,
    replay?: UserInput["replay"],
  ): Promise<Result<BuiltAgent, string>>;
  /**
   * Why `choice` cannot run for want of a key (a key for a past session only, or a required one never
   * given), as a message for people; undefined when it can. Checked before anything is sent or written.
   */
  missingKey?(choice: ModelChoice): Promise<string | undefined>;
  /** Reads and edits state (never calls a model). */
  reader: DeepAgent;
  registry: RunRegistry;
  history?: CheckpointReader | undefined;
  notify(event: ThreadEvent): void;
  /** Text without any API key in it. */
  redact(text: string): string;
  /** A plain message for a failed run (provider failures get the next step). */
  describe(err: unknown, choice: ModelChoice): string | Promise<string>;
  /** Writes attached files into the workspace; returns their paths. */
  attach(threadId: string, files: NonNullable<UserInput["attachments"]>): Promise<FileResult<string[]>>;
  /** Adds what the page needs to decide (schemas, diffs). */
  enrich(threadId: string, approval: PendingApproval): Promise<PendingApproval>;
  /** Token events within this window are merged (0: every chunk alone). Default 16 ms. */
  tokenBatchMs?: number;
  /** How often a streaming answer is saved for a reload. Default 1,000 ms. */
  partialEveryMs?: number;
  /**
   * Where each run's recorded model calls are kept, per turn (model-replies.ts): one write as the run ends. A failure
   * to store never fails the run.
   */
  replies?: Pick<ModelReplies, "save">;
  /** Records the workspace at a turn's start (before its message, by id) and as each run ends (threads/rewind.ts). */
  turnFiles?: {
    turnStarted(threadId: string, messageId: string): Promise<void>;
    turnEnded(threadId: string, messages: readonly BaseMessage[]): Promise<void>;
  };
}

export interface RunService {
  startRun(threadId: string, input: UserInput, onEvent: EventCallback): Promise<StartResult>;
  /** Answers the pending approval `approvalId` (its `PendingApproval.id`; may be left out while only one is pending). */
  resume(threadId: string, decisions: ApprovalDecision[], onEvent: EventCallback, approvalId?: string): Promise<StartResult>;
  continueRun(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  editAndRerun(threadId: string, messageIndex: number, text: string, onEvent: EventCallback): Promise<StartResult>;
  retry(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  cancel(runId: string): Promise<boolean>;
  runningHere(threadId: string): boolean;
  /** The approval a thread waits for, if any (from its checkpoint). */
  pendingApproval(threadId: string): Promise<PendingApproval | null>;
  /** True when the thread's last run was cut off (a reload) and can be continued. */
  interrupted(threadId: string): Promise<boolean>;
  /** Queues a message for the thread's run in this worker (see the protocol's `steer`). */
  steer(threadId: string, text: string): Promise<SteerResult<QueuedMessage>>;
  editQueued(threadId: string, id: string, text: string): Promise<SteerResult<QueuedMessage>>;
  withdrawQueued(threadId: string, id: string): Promise<SteerResult<null>>;
  /** Starts a turn with the thread's queued messages. */
  runQueued(threadId: string, onEvent: EventCallback): Promise<StartResult>;
  /** The runs' steering messages, for the agents `agent` builds (read before each top-level model call). */
  readonly inbox: Inbox;
}

interface ActiveRun {
  threadId: string;
  controller: AbortController;
}

interface RunPlan {
  input: unknown;
  text?: string;
  /** Fork from this checkpoint. */
  checkpointId?: string;
  /** Messages the user sees as the run starts, its own included (the thread row's count while it runs). */
  shown?: number;
  /** The id of the user message whose turn this run starts (its record is replaced); none: the run goes on with a turn. */
  turnId?: string;
  /** The user message the run sends (a replay's mark is put on it once the demo is read). */
  user?: HumanMessage;
  /** Run before the stream starts (holding the lock): e.g. keeping an interrupted answer. */
  before?: () => Promise<void>;
}

const startError = (code: StartErrorCode, message: string): StartResult => fail(code, message, "StartError");

function configOf(threadId: string, checkpointId?: string) {
  return { configurable: { thread_id: threadId, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) } };
}

export function createRunService(deps: RunDeps): RunService {
  const runs = new Map<string, ActiveRun>();
  const batchMs = deps.tokenBatchMs ?? 16;
  const partialEvery = deps.partialEveryMs ?? 1_000;
  const { reader, registry } = deps;

  const runningHere = (threadId: string) => [...runs.values()].some((r) => r.threadId === threadId);

  /** The messages sent while runs work (steering.ts), from the first one on. */
  let queues: SteerQueues | undefined;
  const steering = async () => (queues ??= new (await import("./steering.ts")).SteerQueues());
  const inbox: Inbox = {
    async take(threadId) {
      const taken = queues?.inbox().take(threadId) ?? [];
      // The workspace as each lands, recorded before the model call reads it (the tool calls of the step before have
      // finished, the next have not started): Rewind on a steered message restores what the files were then.
      for (const m of taken) await deps.turnFiles?.turnStarted(threadId, m.id!).catch(() => undefined);
      return taken;
    },
  };

  /** The thread's state; a history that cannot be read as messages is a `corrupt_record` error, not a TypeError later. */
  async function stateOf(threadId: string, checkpointId?: string) {
    const snapshot = await reader.getState(configOf(threadId, checkpointId));
    const broken = messagesProblem((snapshot.values as { messages?: unknown }).messages);
    if (broken) throw brokenThread(threadId, broken);
    return snapshot;
  }

  type Snapshot = Awaited<ReturnType<typeof stateOf>>;
  const messagesIn = (snapshot: Snapshot): BaseMessage[] => (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];

  /** The messages of the newest checkpoint, or of `checkpointId` (the shown branch's head). */
  async function messagesOf(threadId: string, checkpointId?: string): Promise<BaseMessage[]> {
    return messagesIn(await stateOf(threadId, checkpointId));
  }

  const interruptValues = (snapshot: Snapshot): unknown[] => snapshot.tasks.flatMap((t) => t.interrupts.map((i) => i.value));

  /** The approval a snapshot waits for, as stored (not yet given schemas and diffs), with any others waiting after it. */
  function approvalIn(snapshot: Snapshot): PendingApproval | undefined {
    return shownApproval(interruptValues(snapshot));
  }

  /**
   * The resume answering the pending approval `approvalId` (the one the page
   * showed; without an id, the only one pending), or why it cannot: each
   * decision must be one its action allows, and complete.
   */
  async function resumePlan(threadId: string, decisions: ApprovalDecision[], approvalId?: string): Promise<RunPlan | StartResult> {
    const pending = pendingApprovals(interruptValues(await stateOf(threadId)));
    if (!pending.length) return startError("not_paused", "This thread is not waiting for an approval.");
    const approval = approvalId === undefined ? (pending.length === 1 ? pending[0] : undefined) : pending.find((a) => a.id === approvalId);
    if (!approval) {
      return approvalId === undefined
        ? startError("invalid_decision", `${pending.length} requests are waiting: say which one these decisions answer.`)
        : startError("approval_changed", "The request you answered is no longer waiting; the one waiting now is shown.");
    }
    if (!Array.isArray(decisions) || decisions.length !== approval.actions.length)
      return startError("invalid_decision", `Give one decision for each of the ${approval.actions.length} pending calls.`);
    for (const [i, d] of decisions.entries()) {
      const action = approval.actions[i]!;
      const problem = decisionProblem(d, action.allowedDecisions);
      if (problem) return startError("invalid_decision", `${action.name}: ${problem}.`);
    }
    const resume = approval.subagent ? { decisions, taskId: approval.subagent.taskId } : { decisions };
    return { input: new Command({ resume }) };
  }

  async function pendingApproval(threadId: string): Promise<PendingApproval | null> {
    const found = approvalIn(await stateOf(threadId));
    return found ? deps.enrich(threadId, found) : null;
  }

  async function interrupted(threadId: string): Promise<boolean> {
    if (runningHere(threadId) || !(await registry.wasRunning(threadId))) return false;
    const { held = [] } = (await globalThis.navigator?.locks?.query()) ?? {};
    if (held.some((l) => l.name === threadLockName(threadId))) return false;
    // A run cut before it saved its input (a reload just after Send; the page keeps the draft) left nothing to run and
    // nothing shown: it is marked ended, rather than offering a Continue that would fail or do nothing. One with a step
    // to run, or with streamed text to keep, is interrupted.
    const latest = await stateOf(threadId);
    if (latest.next.length > 0 || (await registry.partial(threadId)) !== undefined) return true;
    await registry.runEnded(threadId, messagesIn(latest));
    // The thread lists (this tab's and others') showed it interrupted: they read it again.
    deps.notify({ type: "thread_updated", threadId, running: false });
    return false;
  }

  /**
   * The replay the thread's current turn plays: its opening message's mark (MessageInfo.replay), or none. Messages
   * inside a turn (steered ones, the grader's, workspace notes) do not open one.
   */
  async function turnReplay(threadId: string): Promise<UserInput["replay"]> {
    const messages = messagesIn(await stateOf(threadId));
    const opening = messages.findLast(opensTurn);
    // The mark keeps the pace chosen, so a reload mid-replay goes on at it.
    const mark = replayInfoOf(opening?.additional_kwargs?.[REPLAY_KEY]);
    if (!mark) return undefined;
    return { file: mark.file, ...(mark.speed !== undefined ? { speed: mark.speed } : {}) };
  }

  /**
   * A thread whose last run ended with a step still to run and no approval waiting (a replay that diverged, a model
   * call that failed): Continue runs that step, with the thread's own model.
   */
  async function stepLeft(threadId: string): Promise<boolean> {
    if (runningHere(threadId)) return false;
    const latest = await stateOf(threadId);
    return latest.next.length > 0 && !approvalIn(latest);
  }

  /** Writes the partial answer into the thread as an assistant message marked stopped (or cut off). */
  async function keepPartial(threadId: string, text: string, mark?: Parameters<typeof partialAnswer>[1]): Promise<void> {
    if (!text.trim()) return;
    await reader.updateState(configOf(threadId), { messages: [partialAnswer(text, mark)] }, "after_model");
  }

  async function describeError(err: unknown, choice: ModelChoice): Promise<ErrorInfo> {
    const info = toErrorInfo(err);
    // A replay that no longer fits says why itself (models/replay): its message and code reach the page as they are.
    if (info.code === "demo_diverged") return { ...info, message: deps.redact(info.message) };
    // The message is rewritten for people (what failed, what to do): coded, so the page shows it alone.
    return { ...info, code: info.code ?? "run_failed", message: deps.redact(await deps.describe(err, choice)) };
  }

  /** Streams the run into `sink` while holding the thread; returns the terminal event. */
  async function execute(
    runId: string,
    threadId: string,
    built: BuiltAgent,
    choice: ModelChoice,
    plan: RunPlan,
    sink: EventSink,
    signal: AbortSignal,
  ): Promise<TerminalEvent> {
    const translator = createTranslator(runId, threadId);
    let lastSaved = 0;
    let saving: Promise<void> = Promise.resolve();
    let terminal: TerminalEvent;
    // Every model call of the run (every agent's), in memory until the run ends (model-replies.ts). Its code is
    // preloaded as the worker boots (agents.ts preloadRunCode), not part of the startup bundle.
    const recorder = new (await import("../../models/replay/recorder.ts")).DemoRecorder();
    try {
      await plan.before?.();
      await registry.runStarted(threadId, plan.text, choice, plan.shown);
      deps.notify({ type: "thread_updated", threadId, running: true });
      const children = new ChildActivityHandler((taskId, message) => {
        for (const event of translator.childMessage(taskId, message)) sink.push(event);
      });
      const status = new RunStatusHandler((s) => sink.push({ type: "status", runId, ...s }), built.phase);
      const stream = await built.agent.stream(plan.input as Parameters<DeepAgent["stream"]>[0], {
        ...configOf(threadId, plan.checkpointId),
        streamMode: ["messages", "updates", "custom"],
        signal,
        callbacks: [children, status, recorder],
      });
      for await (const chunk of stream) {
        for (const event of translator.translate(chunk)) {
          sink.push(event.type === "interrupt" ? { ...event, approval: await deps.enrich(threadId, event.approval) } : event);
        }
        const now = Date.now();
        if (translator.partial && now - lastSaved >= partialEvery) {
          lastSaved = now;
          const text = translator.partial;
          saving = saving.then(() => registry.savePartial(threadId, text)).catch(() => undefined);
        }
      }
      terminal = { type: "done", runId, status: translator.interrupted ? "interrupted" : "complete" };
    } catch (err) {
      if (signal.aborted) {
        await keepStopped(reader, threadId, translator).catch(() => undefined);
        terminal = { type: "done", runId, status: "cancelled" };
      } else {
        // What was shown stays (a dropped connection's half answer), marked cut off; the error says why.
        await keepPartial(threadId, translator.partial, CUT_OFF_KEY).catch(() => undefined);
        terminal = { type: "error", runId, error: await describeError(err, choice) };
      }
    }
    await saving;
    await registry.savePartial(threadId, undefined).catch(() => undefined);
    const ended = await messagesOf(threadId).catch(() => []);
    await keepRecord(threadId, plan, built, choice, recorder, ended).catch(() => undefined);
    await deps.turnFiles?.turnEnded(threadId, ended).catch(() => undefined);
    await registry.runEnded(threadId, ended).catch(() => undefined);
    return terminal;
  }

  /**
   * Stores what the run recorded under its turn: a run starting the turn replaces the turn's record, one going on
   * (an approval's answer, Continue, a steered message) appends to the turn it ended in.
   */
  async function keepRecord(
    threadId: string,
    plan: RunPlan,
    built: BuiltAgent,
    choice: ModelChoice,
    recorder: DemoRecorder,
    ended: readonly BaseMessage[],
  ): Promise<void> {
    if (!deps.replies) return;
    const turnId = plan.turnId ?? turnMessageIds(ended)[0];
    const calls = recorder.calls;
    if (!turnId || (!plan.turnId && !calls.length)) return;
    const model = `${choice.provider}:${choice.model ?? ""}`;
    const record = { model, calls, ...(built.window ? { window: built.window } : {}) };
    await deps.replies.save(threadId, turnId, record, plan.turnId ? "replace" : "append");
  }

  async function begin(
    threadId: string,
    onEvent: EventCallback,
    plan: () => Promise<RunPlan | StartResult>,
    replay?: UserInput["replay"],
  ): Promise<StartResult> {
    if (runningHere(threadId)) {
      release(onEvent);
      return startError("thread_busy", "This thread already has a run in progress.");
    }
    const choice = await registry.model(threadId);
    // A replay needs no key: its model is the demo.
    const missing = replay ? undefined : await deps.missingKey?.(choice);
    if (missing) {
      release(onEvent);
      return startError("key_missing", missing);
    }
    const planned = await plan().catch((cause: unknown) => {
      const info = toErrorInfo(cause);
      return startError(info.code === "corrupt_record" ? "broken_thread" : "not_found", info.message);
    });
    if ("ok" in planned) {
      release(onEvent);
      return planned;
    }
    const runId = crypto.randomUUID();
    // Open before the agent is built: loading a model in the tab reports its progress on it.
    const sink = new EventSink(onEvent, batchMs);
    const built = await deps.agent(choice, (status) => sink.push({ type: "status", runId, ...status }), threadId, replay);
    if (!built.ok) {
      await sink.close();
      release(onEvent);
      return startError("model_unavailable", deps.redact(built.error));
    }
    // A replayed turn's message says so, across reloads (MessageInfo.replay).
    if (built.value.replay && planned.user) planned.user.additional_kwargs[REPLAY_KEY] = replayMark(built.value.replay);
    const controller = new AbortController();
    runs.set(runId, { threadId, controller });
    let terminal: TerminalEvent = { type: "error", runId, error: { name: "Error", message: "The run ended without a result." } };
    const run = async () => {
      terminal = await execute(runId, threadId, built.value, choice, planned, sink, controller.signal);
    };
    // The thread is free (no run here, lock released) before the page hears the run ended.
    const ended = async () => {
      runs.delete(runId);
      sink.push(terminal);
      await sink.close();
      release(onEvent);
      deps.notify({ type: "thread_updated", threadId, running: false });
    };
    if (!(await withThreadLock(threadLockName(threadId), run, ended))) {
      runs.delete(runId);
      release(onEvent);
      return startError("thread_busy", "This thread has a run in progress in another tab.");
    }
    return ok(runId);
  }

  /**
   * The plan of a new user message: attachments written, a shown older branch forked, an interrupted answer kept.
   * `queued`: the turn is the thread's queued messages (steering that came after its run), taken as the run starts.
   */
  async function messagePlan(threadId: string, input: UserInput, queued?: readonly QueuedMessage[]): Promise<RunPlan | StartResult> {
    const files = input.attachments ?? [];
    if (!input.text.trim() && !files.length) return startError("empty_input", "Type a message first.");
    // One read of the newest state: its approval refuses the message, and (with no older branch shown) its
    // messages are what the user sees. The thread's other records are read beside it.
    const [latest, head, partial] = await Promise.all([
      stateOf(threadId),
      registry.head(threadId),
      interrupted(threadId).then((wasCut) => (wasCut ? registry.partial(threadId) : undefined)),
    ]);
    if (approvalIn(latest)) {
      return startError("awaiting_approval", "The agent is waiting for your approval. Answer it first, or reject it with your message.");
    }
    let text = input.text;
    // The message's id is known before it is sent: the workspace just before it is recorded under it (before the attachments).
    const id = queued?.[0]?.id ?? crypto.randomUUID();
    await deps.turnFiles?.turnStarted(threadId, id);
    if (files.length) {
      const paths = await deps.attach(threadId, files);
      if (!paths.ok) return startError("attachment_failed", paths.error.message);
      text = `${text.trim()}\n\nAttached files: ${paths.value.join(", ")}`.trim();
    }
    const before = visibleCount(head ? await messagesOf(threadId, head).catch(() => []) : messagesIn(latest));
    const user = new HumanMessage({ content: text, id });
    return {
      input: { messages: queued ? queued.map((m) => queuedUserMessage(m, false)) : [user] },
      text,
      turnId: id,
      ...(queued ? {} : { user }),
      shown: before + (partial?.trim() ? 1 : 0) + (queued?.length ?? 1),
      ...(head ? { checkpointId: head } : {}),
      before: async () => {
        // Taken only now that the run holds the thread: a run that could not start leaves them queued.
        if (queued) queues?.take(threadId);
        if (head) await registry.setHead(threadId, undefined);
        if (partial) await keepPartial(threadId, partial);
      },
    };
  }

  return {
    runningHere,
    pendingApproval,
    interrupted,

    inbox,
    // The steering code loads with the first message sent during a run (a first turn does not need it).
    steer: async (threadId, text) => (await steering()).steer(threadId, text, runningHere(threadId)),
    editQueued: async (threadId, id, text) => (await steering()).edit(threadId, id, text),
    withdrawQueued: async (threadId, id) => (await steering()).withdraw(threadId, id),
    runQueued: (threadId, onEvent) =>
      begin(threadId, onEvent, async () => {
        const queued = queues?.list(threadId) ?? [];
        if (!queued.length) return startError("empty_input", "No message is queued for this thread.");
        return messagePlan(threadId, { text: queued.map((m) => m.text).join("\n\n") }, queued);
      }),

    startRun: (threadId, input, onEvent) => {
      return begin(threadId, onEvent, () => messagePlan(threadId, input), input.replay);
    },

    // An approval inside a replayed turn is answered, and the replay goes on (the same demo, at the pace chosen).
    resume: async (threadId, decisions, onEvent, approvalId) =>
      begin(threadId, onEvent, () => resumePlan(threadId, decisions, approvalId), await turnReplay(threadId)),

    continueRun: (threadId, onEvent) =>
      begin(threadId, onEvent, async () => {
        if (!(await interrupted(threadId)) && !(await stepLeft(threadId)))
          return startError("not_interrupted", "This thread has no interrupted run to continue.");
        return { input: null, before: () => registry.savePartial(threadId, undefined) };
      }),

    editAndRerun: (threadId, messageIndex, text, onEvent) =>
      begin(threadId, onEvent, async () => {
        if (!text.trim()) return startError("empty_input", "Type a message first.");
        // The branch on screen, which is not the newest one after a switch.
        const head = await registry.head(threadId);
        const messages = await messagesOf(threadId, head);
        if (!HumanMessage.isInstance(messages[messageIndex])) return startError("not_found", "There is no user message there to edit.");
        const fork = deps.history ? await forkCheckpoint(deps.history, threadId, messageIndex, head) : undefined;
        if (!fork) return startError("not_found", "The checkpoint before that message is not stored; it cannot be edited.");
        const id = crypto.randomUUID();
        await deps.turnFiles?.turnStarted(threadId, id);
        return {
          input: { messages: [new HumanMessage({ content: text, id })] },
          text,
          turnId: id,
          shown: visibleCount(messages.slice(0, messageIndex)) + 1,
          checkpointId: fork,
          before: () => registry.setHead(threadId, undefined),
        };
      }),

    async retry(threadId, onEvent) {
      const messages = await messagesOf(threadId, await registry.head(threadId));
      // The person's last message: not a note of theirs about the workspace (threads/rewind.ts), which is not a request.
      const index = messages.findLastIndex((m) => HumanMessage.isInstance(m) && !isNote(m));
      if (index < 0) {
        release(onEvent);
        return startError("not_found", "There is no message to retry.");
      }
      return this.editAndRerun(threadId, index, messages[index]!.text, onEvent);
    },

    async cancel(runId) {
      const run = runs.get(runId);
      if (!run) return false;
      run.controller.abort();
      return true;
    },
  };
}
