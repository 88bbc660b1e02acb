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
import type { AgentEvent } from "../protocol/events.ts";
import { routeClient, type ServerRoute } from "./langgraph-runtime.ts";

function fakeConnection(started: Set<string>) {
  const calls: string[] = [];
  const dropped = new Set<string>();
  let next = 0;
  const connection = {
    url: "http://127.0.0.1:2024",
    enqueue: async (threadId: string, assistantId: string, text: string) => {
      calls.push(`enqueue ${threadId} ${assistantId} ${text}`);
      return ok(`run-${++next}`);
    },
    dropQueued: async (_threadId: string, runId: string) => {
      calls.push(`drop ${runId}`);
      if (started.has(runId)) return ok(false);
      dropped.add(runId);
      return ok(true);
    },
    // The server's runs in progress in the order it runs them (each ends as soon as it is joined).
    activeRun: async (_threadId: string, except?: ReadonlySet<string>) =>
      ok([...started, "run-1", "run-2", "run-3"].find((id) => !except?.has(id) && !dropped.has(id)) ?? null),
    join: async (_threadId: string, runId: string, onEvent: (e: AgentEvent) => void) => {
      calls.push(`join ${runId}`);
      onEvent({ type: "token", runId, text: `answer of ${runId}`, chunks: 1 });
      const end = { type: "done", runId, status: "complete" } as const;
      onEvent(end);
      return ok({ runId, done: Promise.resolve(end) } satisfies RunHandle);
    },
    cancel: async (_threadId: string, runId: string) => {
      calls.push(`cancel ${runId}`);
      return ok(null);
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
    expect(next.ok && (await next.value.done)).toEqual({ type: "done", runId: "run-3", status: "complete" });
    expect(calls).toEqual([
      "enqueue t deeptab use tabs",
      "enqueue t deeptab never mind",
      "drop run-1",
      "enqueue t deeptab use tabs, width 4",
      "drop run-2",
      "drop run-3",
      "drop run-3",
      "join run-3",
    ]);
  });

  it("follows each queued run in turn as one run: its message shown as it starts, its events under the first id, one end", async () => {
    const { connection, calls } = fakeConnection(new Set());
    const route: ServerRoute = { connection, assistantId: "deeptab", assistantName: "deeptab" };
    const client = routeClient({ onThreadEvent: () => () => undefined } as unknown as AgentClient, () => route);
    expect(await client.steer("t", "first")).toMatchObject({ ok: true, value: { id: "run-1" } });
    expect(await client.steer("t", "second")).toMatchObject({ ok: true, value: { id: "run-2" } });
    expect(await client.steer("t", "third")).toMatchObject({ ok: true, value: { id: "run-3" } });

    const events: AgentEvent[] = [];
    const turn = await client.runQueued("t", (e) => events.push(e));
    expect(turn.ok && (await turn.value.done)).toEqual({ type: "done", runId: "run-1", status: "complete" });
    expect(events).toEqual([
      { type: "token", runId: "run-1", text: "answer of run-1", chunks: 1 },
      { type: "steered", runId: "run-1", ids: ["run-2"], messages: [{ role: "user", id: "run-2", content: "second" }] },
      { type: "token", runId: "run-1", text: "answer of run-2", chunks: 1 },
      { type: "steered", runId: "run-1", ids: ["run-3"], messages: [{ role: "user", id: "run-3", content: "third" }] },
      { type: "token", runId: "run-1", text: "answer of run-3", chunks: 1 },
      { type: "done", runId: "run-1", status: "complete" },
    ]);
    expect(calls.filter((c) => c.startsWith("join"))).toEqual(["join run-1", "join run-2", "join run-3"]);
  });
});
