/**
 * An agent client whose answers can be held back, for tests of the page's state while a thread loads slowly or a run
 * goes on: the first `getThread` (the view read right after a reload), a run's end, and a run's last event.
 */
import type { AgentClient } from "../page/client.ts";
import type { AgentEvent } from "../protocol/events.ts";

/** A promise that resolves when `open` is called. */
function gate() {
  let open!: () => void;
  const closed = new Promise<void>((resolve) => (open = resolve));
  return { closed, open };
}

/** What {@link heldClient} holds back. */
export interface HeldOptions {
  /** The first `getThread` answers only once `releaseLoad()` is called (default false). */
  readonly firstLoad?: boolean;
  /**
   * Runs count as ended only once `releaseEnd()` is called: every run (true), or only runs started after `holdRuns()`
   * (false, the default).
   */
  readonly runs?: boolean;
  /** A held run's last event (done or error) reaches the page only once `releaseEnd()` is called, too (default false). */
  readonly lastEvent?: boolean;
}

/** The wrapped client and the calls that let its held answers go. */
export interface HeldClient {
  readonly client: AgentClient;
  /** Lets the held first `getThread` answer. */
  readonly releaseLoad: () => void;
  /** Holds the runs started from now on. */
  readonly holdRuns: () => void;
  /** Lets every held run end (and its last event through). */
  readonly releaseEnd: () => void;
}

/** Wraps `client` so that the answers `options` names wait for the test to release them. */
export function heldClient(client: AgentClient, options: HeldOptions = {}): HeldClient {
  const load = gate();
  const end = gate();
  let firstLoad = options.firstLoad ?? false;
  let holding = options.runs ?? false;
  const wrapped: AgentClient = {
    ...client,
    async getThread(threadId) {
      if (!firstLoad) return client.getThread(threadId);
      firstLoad = false;
      const view = await client.getThread(threadId);
      await load.closed;
      return view;
    },
    async run(threadId, input, onEvent) {
      const held = holding;
      const last = (event: AgentEvent) => event.type === "done" || event.type === "error";
      const forward = (event: AgentEvent) => {
        if (held && options.lastEvent && last(event)) void end.closed.then(() => onEvent?.(event));
        else onEvent?.(event);
      };
      const started = await client.run(threadId, input, forward);
      if (!started.ok || !held) return started;
      const done = started.value.done.then(async (terminal) => {
        await end.closed;
        return terminal;
      });
      return { ok: true, value: { ...started.value, done } };
    },
  };
  return { client: wrapped, releaseLoad: load.open, holdRuns: () => (holding = true), releaseEnd: end.open };
}
