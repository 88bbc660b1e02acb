/**
 * The shown thread's reactive state: one rune class over the pure LiveThread
 * reducer (live.ts) plus the worker's ThreadView (context, branches,
 * model, an interrupted run). Components read it through context and call
 * its methods; every run call resolves, as soon as the worker answers,
 * with whether the run started (the composer keeps the text when it did
 * not); `idle()` resolves once the run ended and the thread is reloaded.
 * A run stays `running` until that reload is shown, so nothing can be sent
 * against a view the run has made stale; and a run asked for while a
 * branch switch is on its way waits for it, so it runs on the branch shown.
 */
import { SvelteSet } from "svelte/reactivity";
import { toErrorInfo } from "../../core/errors.ts";
import type { AgentClient, RunHandle, RunStart } from "../../page/client.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { ApprovalDecision } from "../../protocol/approvals.ts";
import type { ErrorInfo } from "../../protocol/errors.ts";
import type { ModelChoice } from "../../protocol/settings.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import type { QueuedMessage, UserInput, WorkerInfo } from "../../protocol/worker-api.ts";
import { applyEvent, beginTurn, emptyLive, failTurn, fromView, STARTING, withEarlier, type LiveThread } from "./live.ts";

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
  /** Branch switches asked for and not yet answered. */
  #switching = 0;
  /** The thread whose run elsewhere this page failed to follow: not tried again until a load shows it ended. */
  #unfollowed: string | null = null;
  /** The end of this tab's current run (its reload included). */
  #idle: Promise<void> = Promise.resolve();
  /** This tab's run started and its end (the reload after it) is not shown yet. */
  #ending = $state.raw(false);
  /** Loads are numbered as they are asked for; a load that answers after a later one was shown is not shown. */
  #loads = 0;
  #shownLoad = 0;
  /** Messages sent while this tab's run works (steering), not yet read by the run. */
  #queued: readonly QueuedMessage[] = $state.raw([]);
  /** Queued ids the run has read (a `steered` event can come before the worker's answer to `steer`). */
  readonly #landed = new SvelteSet<string>();

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
  /** A run of this tab's is on, or has ended and its thread is being reloaded (its last event clears `runId` first). */
  get running(): boolean {
    return this.#live.runId !== null || this.#ending;
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
  /** Messages sent while the run works, waiting for its next model call (editable and withdrawable until then). */
  get queued(): readonly QueuedMessage[] {
    return this.#queued;
  }

  /**
   * Sends `text` to the run going on (steering): it waits, queued, for the run's next model call, and joins the
   * conversation there; still queued when the run ends, it starts the next turn. False when refused (the error says why).
   */
  async steer(text: string): Promise<boolean> {
    const threadId = this.#threadId;
    if (!text.trim() || !this.running || this.#busy) return false;
    const queued = await this.#client.steer(threadId, text.trim());
    if (threadId !== this.#threadId) return queued.ok;
    if (!queued.ok && queued.error.code === "not_running" && this.running) {
      // The run ended as it was sent (its end not shown yet): once it is, the message is the next turn's.
      await this.#idle;
      if (threadId !== this.#threadId) return false;
      return this.running ? this.steer(text) : this.send({ text });
    }
    if (!queued.ok) {
      this.#live = { ...this.#live, error: queued.error };
      return false;
    }
    if (!this.#landed.has(queued.value.id)) this.#queued = [...this.#queued, queued.value];
    // Queued just as the run ended: it starts the next turn.
    if (!this.running) this.#runQueued();
    return true;
  }

  /** Replaces a queued message's text; false when the run read it meanwhile (the error says so). */
  async editQueued(id: string, text: string): Promise<boolean> {
    const threadId = this.#threadId;
    const edited = await this.#client.editQueued(threadId, id, text);
    if (threadId !== this.#threadId) return edited.ok;
    if (!edited.ok) {
      this.#live = { ...this.#live, error: edited.error };
      return false;
    }
    this.#queued = this.#queued.map((m) => (m.id === id ? edited.value : m));
    return true;
  }

  /** Withdraws a queued message; false when the run read it meanwhile (the error says so). */
  async withdrawQueued(id: string): Promise<boolean> {
    const threadId = this.#threadId;
    const withdrawn = await this.#client.withdrawQueued(threadId, id);
    if (threadId !== this.#threadId) return withdrawn.ok;
    if (!withdrawn.ok) {
      this.#live = { ...this.#live, error: withdrawn.error };
      return false;
    }
    this.#queued = this.#queued.filter((m) => m.id !== id);
    return true;
  }

  /** The queued messages start a turn (this tab's run ended with some left, and no approval waits). */
  #runQueued(): void {
    const queued = this.#queued;
    if (!queued.length || this.running || this.#busy || this.#live.approval) return;
    this.#queued = [];
    let live = beginTurn(this.#live, queued[0]!.text);
    // With their queued ids: on a LangGraph server each is a run of its own, whose `steered` event moves it to where it runs.
    live = { ...live, messages: [...live.messages, ...queued.slice(1).map((m) => ({ role: "user" as const, content: m.text, id: m.id }))] };
    this.#live = live;
    void this.#stream(
      (onEvent) => this.#client.runQueued(this.#threadId, onEvent),
      false,
      () => {
        // Refused: they are still queued in the worker; shown as such, with the thread as it is.
        this.#queued = queued;
        void this.reload();
      },
    );
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
  reload(): Promise<void> {
    return this.#load(false);
  }

  /** Resolves once this tab runs nothing on the shown thread and the view after its last run is shown. */
  idle(): Promise<void> {
    return this.#idle;
  }

  /** Loads the thread; `afterRun`: the reload that ends a run (shown although the run still counts as running). */
  async #load(afterRun: boolean): Promise<void> {
    const threadId = this.#threadId;
    const load = ++this.#loads;
    this.#loading = true;
    try {
      const [view, status] = await Promise.all([this.#client.getThread(threadId), this.#client.getThreadStatus(threadId)]);
      if (threadId !== this.#threadId || load < this.#shownLoad) return;
      this.#shownLoad = load;
      if (this.running && !afterRun) {
        // A message sent before the thread had loaded: its earlier conversation is shown above the run.
        if (this.#view === null) {
          this.#view = view;
          this.#live = withEarlier(this.#live, view);
          this.#revision++;
        }
        return;
      }
      this.#view = view;
      this.#busy = status.busy;
      // A run's error stays until dismissed or the next run: the thread's update broadcast after a failed run reloads too.
      this.#live = { ...fromView(view), finished: this.#live.finished, error: this.#live.error };
      this.#revision++;
      if (!afterRun) this.#follow(threadId, view);
    } catch (err) {
      if (load >= this.#shownLoad) this.#live = { ...this.#live, error: toErrorInfo(err) };
    } finally {
      if (load === this.#loads) this.#loading = false;
    }
  }

  /** A run that goes on elsewhere (a server's) is followed as soon as the thread is shown, once per run that can be joined. */
  #follow(threadId: string, view: ThreadView): void {
    if (!view.interrupted?.running) {
      if (this.#unfollowed === threadId) this.#unfollowed = null;
      return;
    }
    if (this.#unfollowed === threadId) return;
    void this.continueRun().then((started) => {
      if (!started && threadId === this.#threadId) this.#unfollowed = threadId;
    });
  }

  async #onUpdate(): Promise<void> {
    if (!this.running) await this.reload();
  }

  /**
   * Sends a message; false when the run did not start (the error says why, and the composer keeps the text).
   * `stored` is called once the worker's thread holds the message: at the run's first event from the graph (it
   * streams only after storing its input), or at the run's end.
   */
  send(input: UserInput, stored: () => void = () => undefined): Promise<boolean> {
    if (this.#switching) return this.#branchSwitches.then(() => this.send(input, stored));
    const text = input.text.trim();
    if ((!text && !input.attachments?.length) || this.running || this.#busy) return Promise.resolve(false);
    const shown = input.attachments?.length ? `${text}\n\n(attaching ${input.attachments.map((a) => a.name).join(", ")})`.trim() : text;
    this.#live = beginTurn(this.#live, shown);
    let told = false;
    const tell = () => {
      if (told) return;
      told = true;
      stored();
    };
    return this.#stream(
      (onEvent) =>
        this.#client.run(this.#threadId, { ...input, text }, (event) => {
          // A status can come before the input is stored (a model loading in the tab); every other event comes after.
          if (event.type !== "status") tell();
          onEvent(event);
        }),
      true,
      undefined,
      tell,
    );
  }

  /** Answers the pending approval (one decision per action) and continues. */
  decide(decisions: ApprovalDecision[]): Promise<boolean> {
    if (this.#switching) return this.#branchSwitches.then(() => this.decide(decisions));
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
    if (this.#switching) return this.#branchSwitches.then(() => this.continueRun());
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
    if (this.#switching) return this.#branchSwitches.then(() => this.edit(index, text));
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
    if (this.#switching) return this.#branchSwitches.then(() => this.retry());
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
    this.#switching++;
    this.#branchSwitches = this.#branchSwitches.then(async () => {
      const shown = await this.#client
        .switchBranch(threadId, head)
        .catch((err: unknown) => {
          this.#live = { ...this.#live, error: toErrorInfo(err) };
          return null;
        })
        .finally(() => this.#switching--);
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
    onEnded: () => void = () => undefined,
  ): Promise<boolean> {
    let started: RunStart;
    try {
      started = await start((event) => {
        this.#live = applyEvent(this.#live, event);
        if (event.type === "steered") {
          for (const id of event.ids) this.#landed.add(id);
          this.#queued = this.#queued.filter((m) => !event.ids.includes(m.id));
        }
      });
    } catch (err) {
      this.#live = failTurn(this.#live, toErrorInfo(err), optimistic);
      onRefused();
      return false;
    }
    if (!started.ok) {
      this.#live = failTurn(this.#live, started.error, optimistic);
      if (started.error.code === "thread_busy") this.#busy = true;
      onRefused();
      return false;
    }
    if (this.#live.runId === STARTING) this.#live = { ...this.#live, runId: started.value.runId };
    this.#idle = this.#finish(started.value.done).finally(onEnded);
    return true;
  }

  /** Waits for the run's end, then shows the thread as the worker has it, and only then stops counting as running. */
  async #finish(done: RunHandle["done"]): Promise<void> {
    this.#ending = true;
    try {
      const end = await done;
      // The worker died mid-run: no terminal event came through the callback.
      if (end.type === "error" && this.#live.runId === end.runId) this.#live = applyEvent(this.#live, end);
    } catch (err) {
      this.#live = { ...this.#live, error: toErrorInfo(err) };
    }
    const { error, finished } = this.#live;
    await this.#load(true);
    this.#live = { ...this.#live, runId: null, error, finished };
    this.#ending = false;
    // Messages still queued when the run ended (done, failed or stopped) start the next turn.
    this.#runQueued();
  }
}
