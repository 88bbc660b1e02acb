/**
 * The person's queued messages on a LangGraph server, followed as one turn. Each message sent during a run is a run of
 * its own on the server, queued with the multitask strategy `"enqueue"` (langgraph-client.ts): the server starts them
 * one after another once the current run ends. The page follows them the same way: each queued run's events stream
 * into the thread in turn, its user message shown where it starts (a `steered` event), and the turn ends only after
 * the last one has.
 */
import { isTerminal, type AgentEvent, type TerminalEvent } from "../protocol/events.ts";
import type { ErrorInfo } from "../core/errors.ts";
import type { RunHandle } from "./client.ts";
import type { LangGraphConnection, LangGraphResult } from "./langgraph-client.ts";

/** The queued runs as one run for the page; `current` is the server run followed now (the one Stop cancels). */
export interface QueuedTurn extends RunHandle {
  readonly current: () => string;
}

/**
 * Follows the thread's run in progress, then each run queued behind it, until none is left (or one pauses at an
 * approval). Every event goes to `onEvent` under the first run's id (the page's run), but only the last run's
 * terminal event: the turn ends once. A run `texts` knows (the person's queued message) is announced with a `steered`
 * event as it starts, so its message shows above its answer. A failed run does not stop the ones queued behind it
 * (the server runs them); the turn ends with the first failure. `null` when nothing runs on the thread.
 */
export async function followQueued(
  connection: Pick<LangGraphConnection, "activeRun" | "join">,
  threadId: string,
  texts: ReadonlyMap<string, string>,
  onEvent: (event: AgentEvent) => void,
): Promise<LangGraphResult<QueuedTurn | null>> {
  const seen = new Set<string>();
  const first = await connection.activeRun(threadId);
  if (!first.ok || !first.value) return first.ok ? { ok: true, value: null } : first;
  const id = first.value;
  let current = id;
  const forward = (event: AgentEvent) => {
    if (!isTerminal(event)) onEvent({ ...event, runId: id });
  };
  seen.add(id);
  // The page has shown none of these runs: each is followed from its first event, however far it got meanwhile.
  const joined = await connection.join(threadId, id, forward, "start");
  if (!joined.ok) return joined;

  const end = (event: TerminalEvent): TerminalEvent => {
    const last = { ...event, runId: id };
    onEvent(last);
    return last;
  };
  const failedWith = (error: ErrorInfo): TerminalEvent => ({ type: "error", runId: id, error });

  const done = (async (): Promise<TerminalEvent> => {
    let handle: RunHandle = joined.value;
    let failed: TerminalEvent | undefined;
    for (;;) {
      const ended = await handle.done;
      if (ended.type === "error") failed ??= ended;
      // Paused at an approval: the page shows it; what is queued behind waits for the answer.
      if (ended.type === "done" && ended.status === "interrupted") return end(ended);
      const next = await connection.activeRun(threadId, seen);
      if (!next.ok || !next.value) return end(failed ?? ended);
      current = next.value;
      seen.add(current);
      const text = texts.get(current);
      if (text !== undefined)
        onEvent({ type: "steered", runId: id, ids: [current], messages: [{ role: "user", id: current, content: text }] });
      const following = await connection.join(threadId, current, forward, "start");
      if (!following.ok) return end(failed ?? failedWith(following.error));
      handle = following.value;
    }
  })();
  return { ok: true, value: { runId: id, done, current: () => current } };
}
