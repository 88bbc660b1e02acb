/**
 * Steering on the LangGraph server runtime (langgraph-runtime.ts), over a recording connection: a message sent during
 * a run is a run queued with the enqueue strategy (its id is the queued message's), Edit replaces a run that has not
 * started, Withdraw cancels it, one that started is `already_taken`, and the next turn follows the queued run.
 * langgraph-client.server.test.ts runs enqueue and dropQueued against a real `langgraph dev`.
 */
import { describe, expect, it } from "vitest";
import { ok } from "../core/result.ts";
import type { AgentClient, RunHandle } from "./client.ts";
import type { LangGraphConnection } from "./langgraph-client.ts";
import { routeClient, type ServerRoute } from "./langgraph-runtime.ts";

function fakeConnection(started: Set<string>) {
  const calls: string[] = [];
  let next = 0;
  const connection = {
    url: "http://127.0.0.1:2024",
    enqueue: async (threadId: string, assistantId: string, text: string) => {
      calls.push(`enqueue ${threadId} ${assistantId} ${text}`);
      return ok(`run-${++next}`);
    },
    dropQueued: async (_threadId: string, runId: string) => {
      calls.push(`drop ${runId}`);
      return ok(!started.has(runId));
    },
    activeRun: async () => ok("run-1"),
    join: async (_threadId: string, runId: string) => {
      calls.push(`join ${runId}`);
      const done = Promise.resolve({ type: "done", runId, status: "complete" } as const);
      return ok({ runId, done } satisfies RunHandle);
    },
  } as unknown as LangGraphConnection;
  return { connection, calls };
}

describe("steering on a LangGraph server", () => {
  it("queues runs with enqueue, edits and withdraws them while pending, and follows the queued run as the next turn", async () => {
    const started = new Set<string>();
    const { connection, calls } = fakeConnection(started);
    const route: ServerRoute = { connection, assistantId: "deeptab", assistantName: "deeptab" };
    const client = routeClient({ onThreadEvent: () => () => undefined } as unknown as AgentClient, () => route);

    expect(await client.steer("t", "  ")).toMatchObject({ ok: false, error: { code: "empty_input" } });
    expect(await client.steer("t", " use tabs ")).toEqual({ ok: true, value: { id: "run-1", text: "use tabs" } });
    expect(await client.steer("t", "never mind")).toEqual({ ok: true, value: { id: "run-2", text: "never mind" } });
    // Edit: the pending run is replaced by a new one (a new id).
    expect(await client.editQueued("t", "run-1", "use tabs, width 4")).toEqual({
      ok: true,
      value: { id: "run-3", text: "use tabs, width 4" },
    });
    expect(await client.withdrawQueued("t", "run-2")).toEqual({ ok: true, value: null });
    started.add("run-3");
    expect(await client.withdrawQueued("t", "run-3")).toMatchObject({ ok: false, error: { code: "already_taken" } });
    expect(await client.editQueued("t", "run-3", "too late")).toMatchObject({ ok: false, error: { code: "already_taken" } });
    const next = await client.runQueued("t");
    expect(next.ok && (await next.value.done)).toEqual({ type: "done", runId: "run-1", status: "complete" });
    expect(calls).toEqual([
      "enqueue t deeptab use tabs",
      "enqueue t deeptab never mind",
      "drop run-1",
      "enqueue t deeptab use tabs, width 4",
      "drop run-2",
      "drop run-3",
      "drop run-3",
      "join run-1",
    ]);
  });
});
