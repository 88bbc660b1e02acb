/**
 * The chat's reactive state: one rune class over the pure ChatView reducer.
 * Components read it through context (context.ts) and call its methods.
 */
import { toErrorInfo } from "../harness/errors.ts";
import type { AgentClient } from "../worker/client.ts";
import type { ErrorInfo, WorkerInfo } from "../worker/protocol.ts";
import { applyEvent, beginTurn, emptyView, failTurn, STARTING, type ChatItem, type ChatView } from "./chat-view.ts";

export class Chat {
  readonly #client: AgentClient;
  readonly threadId: string;
  #view: ChatView = $state.raw(emptyView());
  #worker: WorkerInfo | null = $state.raw(null);

  constructor(client: AgentClient, threadId: string = crypto.randomUUID()) {
    this.#client = client;
    this.threadId = threadId;
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
  /** What the worker reported about itself; null until it answered. */
  get worker(): WorkerInfo | null {
    return this.#worker;
  }

  /** Asks the worker who it is; a worker that failed to start shows as an error. */
  async connect(): Promise<void> {
    try {
      this.#worker = await this.#client.ping();
    } catch (err) {
      this.#view = { ...this.#view, error: toErrorInfo(err) };
    }
  }

  /** Sends one user message and streams the run into the view. */
  async send(text: string): Promise<void> {
    const input = text.trim();
    if (!input || this.running) return;
    this.#view = beginTurn(this.#view, input);
    try {
      const start = await this.#client.run(this.threadId, input, (event) => {
        this.#view = applyEvent(this.#view, event);
      });
      if (!start.ok) this.#view = failTurn(this.#view, start.error);
      else if (this.#view.runId === STARTING) this.#view = { ...this.#view, runId: start.run.runId };
      if (start.ok) {
        const end = await start.run.done;
        // The worker died mid-run: no terminal event came through the callback.
        if (end.type === "error" && this.#view.runId === end.runId) this.#view = applyEvent(this.#view, end);
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
