/**
 * The shown thread's reactive state: one rune class over the pure LiveThread
 * reducer (lib/live.ts) plus the worker's ThreadView (context, branches,
 * model, an interrupted run). Components read it through context and call
 * its methods; every run call returns whether it started, so the composer
 * keeps the text when it did not.
 */
import { toErrorInfo } from "../core/errors.ts";
import type { AgentClient, RunStart } from "../worker/client.ts";
import type { AgentEvent, ApprovalDecision, ErrorInfo, ModelChoice, ThreadView, UserInput, WorkerInfo } from "../worker/protocol.ts";
import { applyEvent, beginTurn, emptyLive, failTurn, fromView, STARTING, type LiveThread } from "./lib/live.ts";

export class Chat {
  readonly #client: AgentClient;
  #threadId: string = $state.raw("");
  #live: LiveThread = $state.raw(emptyLive());
  #view: ThreadView | null = $state.raw(null);
  #busy = $state.raw(false);
  #worker: WorkerInfo | null = $state.raw(null);
  #loading = $state.raw(false);
  /** Bumped after each run and reload: panels (files) refresh on it. */
  #revision = $state.raw(0);
  readonly #unsubscribe: () => void;
  /** Branch switches in the order they were asked for, and the number of the last. */
  #branchSwitches: Promise<void> = Promise.resolve();
  #branchRequest = 0;

  constructor(client: AgentClient, threadId: string = crypto.randomUUID()) {
    this.#client = client;
    this.#threadId = threadId;
    // Another tab's worker announces its runs on this thread.
    this.#unsubscribe = client.onThreadEvent((event) => {
      if (event.threadId === this.#threadId || event.threadId === "*") void this.#onUpdate();
    });
  }

  dispose(): void {
    this.#unsubscribe();
  }

  get client(): AgentClient {
    return this.#client;
  }
  get threadId(): string {
    return this.#threadId;
  }
  get live(): LiveThread {
    return this.#live;
  }
  get view(): ThreadView | null {
    return this.#view;
  }
  /** True while another tab runs this thread: the chat is read-only. */
  get busy(): boolean {
    return this.#busy;
  }
  get running(): boolean {
    return this.#live.runId !== null;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get worker(): WorkerInfo | null {
    return this.#worker;
  }
  get revision(): number {
    return this.#revision;
  }
  get error(): ErrorInfo | null {
    return this.#live.error;
  }

  /** Asks the worker who it is and shows the thread. */
  async connect(): Promise<void> {
    try {
      this.#worker = await this.#client.ping();
      await this.reload();
    } catch (err) {
      this.#live = { ...this.#live, error: toErrorInfo(err) };
    }
  }

  /** Shows another thread (not while a run of this tab streams). */
  async open(threadId: string): Promise<void> {
    if (this.running || threadId === this.#threadId) return;
    this.#threadId = threadId;
    this.#live = emptyLive();
    this.#view = null;
    this.#busy = false;
    await this.reload();
  }

  /** Reloads the thread from the worker (the checkpoint is the truth). */
  async reload(): Promise<void> {
    const threadId = this.#threadId;
    this.#loading = true;
    try {
      const [view, status] = await Promise.all([this.#client.getThread(threadId), this.#client.getThreadStatus(threadId)]);
      if (threadId !== this.#threadId || this.running) return;
      this.#view = view;
      this.#busy = status.busy;
      // A run's error stays until dismissed or the next run: the thread's update broadcast after a failed run reloads too.
      this.#live = { ...fromView(view), finished: this.#live.finished, error: this.#live.error };
      this.#revision++;
    } catch (err) {
      this.#live = { ...this.#live, error: toErrorInfo(err) };
    } finally {
      this.#loading = false;
    }
  }

  async #onUpdate(): Promise<void> {
    if (!this.running) await this.reload();
  }

  /** Sends a message; false when the run did not start (the error says why, and the composer keeps the text). */
  send(input: UserInput): Promise<boolean> {
    const text = input.text.trim();
    if ((!text && !input.attachments?.length) || this.running || this.#busy) return Promise.resolve(false);
    const shown = input.attachments?.length ? `${text}\n\n(attaching ${input.attachments.map((a) => a.name).join(", ")})`.trim() : text;
    this.#live = beginTurn(this.#live, shown);
    return this.#stream((onEvent) => this.#client.run(this.#threadId, { ...input, text }, onEvent), true);
  }

  /** Answers the pending approval (one decision per action) and continues. */
  decide(decisions: ApprovalDecision[]): Promise<boolean> {
    const approval = this.#live.approval;
    if (this.running || this.#busy || !approval) return Promise.resolve(false);
    this.#live = beginTurn(this.#live);
    // A refused decision keeps the approval shown (the dialog says why); if another request waits now, that one is shown.
    return this.#stream(
      // The decisions answer the request shown, and no other (the worker refuses them if another now waits).
      (onEvent) => this.#client.resume(this.#threadId, decisions, onEvent, approval.id),
      false,
      () => {
        if (this.#live.error?.code === "approval_changed") void this.reload();
        else this.#live = { ...this.#live, approval };
      },
    );
  }

  /** Continues a run a reload cut off, from its last checkpoint. */
  continueRun(): Promise<boolean> {
    if (this.running || this.#busy) return Promise.resolve(false);
    this.#live = beginTurn(this.#live);
    this.#view = this.#view ? { ...this.#view, interrupted: undefined } : this.#view;
    return this.#stream(
      (onEvent) => this.#client.continueRun(this.#threadId, onEvent),
      false,
      () => void this.reload(),
    );
  }

  /** Replaces the user message at `index` and runs from there (a new branch). */
  edit(index: number, text: string): Promise<boolean> {
    if (this.running || this.#busy || !text.trim()) return Promise.resolve(false);
    this.#live = { ...beginTurn({ ...this.#live, messages: this.#live.messages.slice(0, index) }), approval: null };
    this.#live = { ...this.#live, messages: [...this.#live.messages, { role: "user", content: text.trim() }] };
    return this.#stream(
      (onEvent) => this.#client.editAndRerun(this.#threadId, index, text.trim(), onEvent),
      false,
      () => void this.reload(),
    );
  }

  /** Runs the last user message again (a new branch). */
  retry(): Promise<boolean> {
    if (this.running || this.#busy) return Promise.resolve(false);
    const last = this.#live.messages.findLastIndex((m) => m.role === "user");
    this.#live = beginTurn({ ...this.#live, messages: this.#live.messages.slice(0, last + 1) });
    return this.#stream(
      (onEvent) => this.#client.retry(this.#threadId, onEvent),
      false,
      () => void this.reload(),
    );
  }

  /**
   * Shows the branch `delta` steps from the one at `messageIndex`. The
   * position moves at once, so a second click moves on from it rather than
   * from a view that has not arrived; the switches reach the worker in order
   * and only the last one's view is shown.
   */
  moveBranch(messageIndex: number, delta: number): Promise<void> {
    const view = this.#view;
    const branch = view?.branches.find((b) => b.messageIndex === messageIndex);
    if (this.running || !view || !branch) return Promise.resolve();
    const target = Math.min(branch.count, Math.max(1, branch.current + delta));
    if (target === branch.current) return Promise.resolve();
    const threadId = this.#threadId;
    const head = branch.heads[target - 1]!;
    this.#view = { ...view, branches: view.branches.map((b) => (b === branch ? { ...b, current: target } : b)) };
    const request = ++this.#branchRequest;
    this.#branchSwitches = this.#branchSwitches.then(async () => {
      const shown = await this.#client.switchBranch(threadId, head).catch((err: unknown) => {
        this.#live = { ...this.#live, error: toErrorInfo(err) };
        return null;
      });
      if (request !== this.#branchRequest || threadId !== this.#threadId || this.running) return;
      // A failed switch: the position moved ahead of the worker, so show what the worker has (the error stays).
      if (!shown) return this.reload();
      this.#view = shown;
      this.#live = fromView(shown);
      this.#revision++;
    });
    return this.#branchSwitches;
  }

  async setModel(choice: ModelChoice): Promise<void> {
    await this.#client.setThreadModel(this.#threadId, choice);
    await this.reload();
  }

  async stop(): Promise<void> {
    const runId = this.#live.runId;
    if (runId && runId !== STARTING) await this.#client.cancel(runId);
  }

  dismissError(): void {
    this.#live = { ...this.#live, error: null };
  }

  async #stream(
    start: (onEvent: (event: AgentEvent) => void) => Promise<RunStart>,
    optimistic: boolean,
    onRefused: () => void = () => undefined,
  ): Promise<boolean> {
    try {
      const started = await start((event) => {
        this.#live = applyEvent(this.#live, event);
      });
      if (!started.ok) {
        this.#live = failTurn(this.#live, started.error, optimistic);
        if (started.error.code === "thread_busy") this.#busy = true;
        onRefused();
        return false;
      }
      if (this.#live.runId === STARTING) this.#live = { ...this.#live, runId: started.value.runId };
      const end = await started.value.done;
      // The worker died mid-run: no terminal event came through the callback.
      if (end.type === "error" && this.#live.runId === end.runId) this.#live = applyEvent(this.#live, end);
      const error = this.#live.error;
      const finished = this.#live.finished;
      this.#live = { ...this.#live, runId: null };
      await this.reload();
      this.#live = { ...this.#live, error, finished };
      return true;
    } catch (err) {
      this.#live = failTurn(this.#live, toErrorInfo(err), optimistic);
      onRefused();
      return false;
    }
  }
}
