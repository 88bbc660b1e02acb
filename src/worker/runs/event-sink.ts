/**
 * Sends one run's events to the page in order, merging bursts of tokens: a
 * token after a quiet spell goes at once (a first token is never held back),
 * and the tokens that follow within `batchMs` go together when it ends.
 * Each send awaits the page's callback; a callback that fails (page gone) is
 * ignored so the run still finishes and frees its thread.
 */
import { releaseProxy } from "comlink";
import { mergeTokens } from "./events.ts";
import type { AgentEvent, EventCallback, TokenEvent } from "../../protocol/events.ts";

export class EventSink {
  readonly #emit: EventCallback;
  readonly #batchMs: number;
  #queue: Promise<void> = Promise.resolve();
  /** Tokens held until the open window ends. */
  #pending: TokenEvent | undefined;
  /** The window after a token was sent: set while later tokens wait for its end. */
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(emit: EventCallback, batchMs: number) {
    this.#emit = emit;
    this.#batchMs = batchMs;
  }

  push(event: AgentEvent): void {
    if (event.type !== "token" || this.#batchMs <= 0) {
      this.#flush();
      this.#send(event);
      return;
    }
    const merged = this.#pending && mergeTokens(this.#pending, event);
    if (merged) {
      this.#pending = merged;
      return;
    }
    // Another message's (or another task's) token: what waits goes first, in order.
    this.#sendPending();
    if (this.#timer !== undefined) {
      this.#pending = event;
      return;
    }
    this.#send(event);
    this.#open();
  }

  /** Sends what is pending and waits until the page has received everything. */
  async close(): Promise<void> {
    this.#flush();
    await this.#queue;
  }

  /** A window of `batchMs`: tokens pushed meanwhile wait; at its end they go, and another window opens behind them. */
  #open(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#sendPending()) this.#open();
    }, this.#batchMs);
  }

  /** Sends what is pending and closes the window: the next token goes at once. */
  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#sendPending();
  }

  /** Sends the held tokens, if any; whether there were some. */
  #sendPending(): boolean {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) this.#send(pending);
    return pending !== undefined;
  }

  #send(event: AgentEvent): void {
    this.#queue = this.#queue.then(() => this.#emit(event)).catch(() => undefined);
  }
}

/** Frees a `Comlink.proxy` callback's port; a no-op for a plain function. */
export function release(callback: unknown): void {
  const free = (callback as { [releaseProxy]?: () => void } | null)?.[releaseProxy];
  if (typeof free === "function") free();
}

/**
 * Runs `body` holding the thread's Web Lock. Resolves true once the lock is
 * held and `body` started, false when another context holds it; `after` runs
 * once the lock is released.
 */
export function withThreadLock(name: string, body: () => Promise<void>, after: () => Promise<void>): Promise<boolean> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) {
    void body().finally(after);
    return Promise.resolve(true);
  }
  return new Promise<boolean>((granted) => {
    locks
      .request(name, { ifAvailable: true }, async (lock) => {
        granted(lock !== null);
        if (lock) await body();
        return lock !== null;
      })
      .then(
        (ran) => (ran ? after() : undefined),
        () => granted(false),
      );
  });
}
