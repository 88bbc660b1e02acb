/**
 * Steering: the messages a person sends while a run works, per thread, until the run's next model call takes them
 * (the loop's `inbox` step, harness/loop.ts; runs.ts hands it the queues). Kept in the worker's memory: the run lives
 * in this tab's worker, so a reload ends both (the page keeps what was queued as a draft; ui/chat/composer.svelte).
 * Loaded with the first message sent during a run.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { queuedUserMessage } from "../../core/messages.ts";
import { fail, ok } from "../../core/result.ts";
import type { SteerResult } from "../../protocol/errors.ts";
import { threadLockName } from "../../protocol/threads.ts";
import type { QueuedMessage } from "../../protocol/worker-api.ts";

const TAKEN = "The agent has read that message already: it is in the conversation now.";

/** Every thread's queued messages. */
export class SteerQueues {
  readonly #queues = new Map<string, QueuedMessage[]>();

  /** The thread's queued messages, in the order sent. */
  list(threadId: string): readonly QueuedMessage[] {
    return this.#queues.get(threadId) ?? [];
  }

  /**
   * Queues `text` for the thread's run; `running`: whether this worker runs the thread (no run here: `not_running`, or
   * `thread_busy` when another tab's worker holds the thread's lock).
   */
  async steer(threadId: string, text: string, running: boolean): Promise<SteerResult<QueuedMessage>> {
    if (running) return this.add(threadId, text);
    const { held = [] } = (await globalThis.navigator?.locks?.query()) ?? {};
    if (held.some((l) => l.name === threadLockName(threadId)))
      return fail("thread_busy", "Another tab is running this thread: send your message there, or after its run ends.", "SteerError");
    return fail("not_running", "The agent is not working on this thread now: send the message as a new turn.", "SteerError");
  }

  add(threadId: string, text: string): SteerResult<QueuedMessage> {
    if (!text.trim()) return fail("empty_input", "Type a message first.", "SteerError");
    const message = { id: crypto.randomUUID(), text: text.trim() };
    this.#queues.set(threadId, [...this.list(threadId), message]);
    return ok(message);
  }

  edit(threadId: string, id: string, text: string): SteerResult<QueuedMessage> {
    if (!text.trim()) return fail("empty_input", "Type a message first (or withdraw it).", "SteerError");
    const queue = this.list(threadId);
    if (!queue.some((m) => m.id === id)) return fail("already_taken", TAKEN, "SteerError");
    const message = { id, text: text.trim() };
    this.#queues.set(
      threadId,
      queue.map((m) => (m.id === id ? message : m)),
    );
    return ok(message);
  }

  /** An id not queued (any more) is `already_taken`: the run read it (an id never queued cannot come from the page). */
  withdraw(threadId: string, id: string): SteerResult<null> {
    const queue = this.list(threadId);
    if (!queue.some((m) => m.id === id)) return fail("already_taken", TAKEN, "SteerError");
    this.#set(
      threadId,
      queue.filter((m) => m.id !== id),
    );
    return ok(null);
  }

  /** Removes and returns every queued message of the thread. */
  take(threadId: string): QueuedMessage[] {
    const queue = [...this.list(threadId)];
    this.#queues.delete(threadId);
    return queue;
  }

  /** The loop's inbox over these queues: each message becomes a user message with the queued id, marked steered. */
  inbox(): { take(threadId: string): BaseMessage[] } {
    return { take: (threadId) => this.take(threadId).map((m) => queuedUserMessage(m, true)) };
  }

  #set(threadId: string, queue: QueuedMessage[]): void {
    if (queue.length) this.#queues.set(threadId, queue);
    else this.#queues.delete(threadId);
  }
}
