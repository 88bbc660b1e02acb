/**
 * The chat's reactive state: one rune class over the pure ChatView reducer.
 * Components read it through context (context.ts) and call its methods.
 */
import { toErrorInfo } from "../core/errors.ts";
import type { AgentClient } from "../worker/client.ts";
import {
  type AgentEvent,
  type ApprovalDecision,
  type ErrorInfo,
  type FileData,
  type PendingApproval,
  type WorkerInfo,
} from "../worker/protocol.ts";
import type { RunStart } from "../worker/client.ts";
import { applyEvent, beginTurn, emptyView, failTurn, STARTING, viewFromHistory, type ChatItem, type ChatView } from "./chat-view.ts";

/** One action waiting for the user's decision. */
export interface ApprovalItem {
  name: string;
  args: Record<string, unknown>;
  description: string;
  allowedDecisions: string[];
}

function approvalItems(pending: PendingApproval | null): ApprovalItem[] {
  const value = pending?.interrupts[0]?.value as
    | {
        actionRequests?: Array<{ name: string; args: Record<string, unknown>; description: string }>;
        reviewConfigs?: Array<{ allowedDecisions: string[] }>;
      }
    | undefined;
  return (value?.actionRequests ?? []).map((a, i) => ({ ...a, allowedDecisions: value?.reviewConfigs?.[i]?.allowedDecisions ?? [] }));
}

export class Chat {
  readonly #client: AgentClient;
  #threadId: string = $state.raw("");
  #busy = $state.raw(false);
  #view: ChatView = $state.raw(emptyView());
  #worker: WorkerInfo | null = $state.raw(null);
  #files: Readonly<Record<string, FileData>> = $state.raw({});
  #approval: ApprovalItem[] = $state.raw([]);
  readonly #unsubscribe: () => void;

  constructor(client: AgentClient, threadId: string = crypto.randomUUID()) {
    this.#client = client;
    this.#threadId = threadId;
    // Another tab's worker announces its runs on this thread (see protocol.ts, ThreadEvent).
    this.#unsubscribe = client.onThreadEvent((event) => {
      if (event.threadId === this.#threadId) void this.#onUpdate();
    });
  }

  /** Stops listening to thread updates. */
  dispose(): void {
    this.#unsubscribe();
  }

  /** The thread shown. */
  get threadId(): string {
    return this.#threadId;
  }
  /** True while another tab runs this thread: the chat is read-only. */
  get busy(): boolean {
    return this.#busy;
  }

  /** Shows another thread (not while a run of this tab is streaming). */
  async open(threadId: string): Promise<void> {
    if (this.running || threadId === this.#threadId) return;
    this.#threadId = threadId;
    this.#view = emptyView();
    this.#files = {};
    this.#approval = [];
    this.#busy = false;
    await this.#load();
  }

  async #onUpdate(): Promise<void> {
    if (this.running) return;
    try {
      const { busy } = await this.#client.getThreadStatus(this.#threadId);
      this.#busy = busy;
      if (!this.running) await this.#load();
    } catch (err) {
      this.#view = { ...this.#view, error: toErrorInfo(err) };
    }
  }

  async #load(): Promise<void> {
    const threadId = this.#threadId;
    const history = await this.#client.getMessages(threadId);
    if (threadId !== this.#threadId || this.running) return;
    // Counters of this tab's streams survive a reload of the same thread's history.
    const { tokenEvents, tokenChunks } = this.#view;
    this.#view = { ...(history.length ? viewFromHistory(history) : emptyView()), tokenEvents, tokenChunks };
    await this.#refresh();
    this.#busy = (await this.#client.getThreadStatus(threadId)).busy;
  }

  get items(): readonly ChatItem[] {
    return this.#view.items;
  }
  get live(): string | null {
    return this.#view.live?.text ?? null;
  }
  get running(): boolean {
    return this.#view.runId !== null;
  }
  get error(): ErrorInfo | null {
    return this.#view.error;
  }
  get tokenEvents(): number {
    return this.#view.tokenEvents;
  }
  get tokenChunks(): number {
    return this.#view.tokenChunks;
  }
  /** The thread's files, by path (refreshed after each run). */
  get files(): Readonly<Record<string, FileData>> {
    return this.#files;
  }
  /** Actions the paused run waits on; empty when nothing is pending. */
  get approval(): readonly ApprovalItem[] {
    return this.#approval;
  }
  /** What the worker reported about itself; null until it answered. */
  get worker(): WorkerInfo | null {
    return this.#worker;
  }

  /** Asks the worker who it is and restores the thread (history, files, a pending approval). */
  async connect(): Promise<void> {
    try {
      this.#worker = await this.#client.ping();
      if (this.#view.items.length === 0) await this.#load();
      else await this.#refresh();
    } catch (err) {
      this.#view = { ...this.#view, error: toErrorInfo(err) };
    }
  }

  async #refresh(): Promise<void> {
    const threadId = this.#threadId;
    const files = await this.#client.getFiles(threadId);
    const approval = approvalItems(await this.#client.getPendingApproval(threadId));
    if (threadId !== this.#threadId) return;
    this.#files = files;
    this.#approval = approval;
  }

  /** Sends one user message and streams the run into the view. */
  async send(text: string): Promise<void> {
    const input = text.trim();
    if (!input || this.running || this.#busy || this.#approval.length) return;
    this.#view = beginTurn(this.#view, input);
    await this.#stream((onEvent) => this.#client.run(this.threadId, input, onEvent));
  }

  /** Answers the pending approval (one decision per action) and continues the run. */
  async decide(decisions: ApprovalDecision[]): Promise<void> {
    if (this.running || this.#busy || this.#approval.length === 0) return;
    this.#approval = [];
    this.#view = { ...this.#view, runId: STARTING, error: null };
    await this.#stream((onEvent) => this.#client.resume(this.threadId, decisions, onEvent));
  }

  async #stream(start: (onEvent: (event: AgentEvent) => void) => Promise<RunStart>): Promise<void> {
    try {
      const startResult = await start((event) => {
        this.#view = applyEvent(this.#view, event);
      });
      if (!startResult.ok) {
        this.#view = failTurn(this.#view, startResult.error);
        if (startResult.error.code === "thread_busy") this.#busy = true;
      } else if (this.#view.runId === STARTING) this.#view = { ...this.#view, runId: startResult.value.runId };
      if (startResult.ok) {
        const end = await startResult.value.done;
        // The worker died mid-run: no terminal event came through the callback.
        if (end.type === "error" && this.#view.runId === end.runId) this.#view = applyEvent(this.#view, end);
        await this.#refresh();
      }
    } catch (err) {
      this.#view = failTurn(this.#view, toErrorInfo(err));
    }
  }

  async cancel(): Promise<void> {
    const runId = this.#view.runId;
    if (runId && runId !== STARTING) await this.#client.cancel(runId);
  }
}
