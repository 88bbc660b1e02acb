/**
 * Steering in the real agent worker (Chromium, threads in real IndexedDB) against the loopback OpenAI server: a
 * message sent while a tool call runs lands after that call's result and before the next model call (the request
 * carries it), edit and withdraw work until then, and a message still queued when the run ends starts the next turn.
 */
import { describe, expect, inject, it, vi } from "vitest";
import type { ServerReply } from "../../testing/provider-servers.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { WAIT } from "../../testing/wait.ts";
import { messagesOf, workerPool } from "../../testing/worker-pool.ts";
import type { AgentEvent } from "../../protocol/events.ts";

const db = `deeptab-test-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);

/** The chat messages of a recorded request, as `role:text`. */
function said(body: Record<string, unknown>): string[] {
  const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.map((m) => `${m.role}:${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
}

describe("steering in the worker", () => {
  it("lands a queued message after the running task's result, before the next model call; edit and withdraw work until then", async () => {
    const server = serverScope(inject("providerServer"));
    const slowChild: ServerReply = { when: { lastUserIncludes: "DIG-DEEP" }, text: "dug", delayMs: 5000 };
    await server.script([
      {
        when: { lastUserIncludes: "STEER-GO", toolResults: 0 },
        toolCalls: [{ name: "task", args: { description: "DIG-DEEP", subagent_type: "general-purpose" } }],
      },
      // The subagent's call takes a while: the task call is in flight meanwhile. (Twice: under load Chromium may resend.)
      slowChild,
      slowChild,
      { when: { lastUserIncludes: "STEERED edited", toolResults: 1 }, text: "steered done" },
    ]);
    const client = spawn();
    const t = "t-steer";
    await client.setThreadModel(t, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    expect(await client.steer(t, "too early")).toMatchObject({ ok: false, error: { code: "not_running" } });

    // Another tab's worker, started before the run.
    const otherTab = spawn();
    await otherTab.ping();
    const events: AgentEvent[] = [];
    const started = await client.run(t, { text: "STEER-GO" }, (e) => events.push(e));
    if (!started.ok) throw new Error(started.error.message);
    // The task call is running (its subagent waits on the slow reply).
    await vi.waitFor(() => {
      const calls = events.flatMap((e) => (e.type === "messages" && !e.taskId ? e.messages.flatMap((m) => m.toolCalls ?? []) : []));
      expect(calls.map((c) => c.name)).toContain("task");
    }, WAIT);
    // Another tab's worker cannot steer this tab's run.
    expect(await otherTab.steer(t, "from another tab")).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    const first = await client.steer(t, "STEERED first");
    const second = await client.steer(t, "to withdraw");
    if (!first.ok || !second.ok) throw new Error("steer refused");
    expect(await client.editQueued(t, first.value.id, "STEERED edited")).toEqual({
      ok: true,
      value: { id: first.value.id, text: "STEERED edited" },
    });
    expect(await client.withdrawQueued(t, second.value.id)).toEqual({ ok: true, value: null });
    expect(await client.editQueued(t, first.value.id, "  ")).toMatchObject({ ok: false, error: { code: "empty_input" } });

    expect(await started.value.done).toMatchObject({ type: "done", status: "complete" });
    const steered = events.filter((e) => e.type === "steered");
    expect(steered).toEqual([
      {
        type: "steered",
        runId: started.value.runId,
        ids: [first.value.id],
        messages: [expect.objectContaining({ role: "user", content: "STEERED edited" })],
      },
    ]);
    // After the task's result, before the next answer, in the stored thread too.
    const stored = (await messagesOf(client, t)).map((m) => `${m.role}:${m.role === "tool" ? m.name : m.content}`);
    expect(stored).toEqual(["user:STEER-GO", "assistant:", "tool:task", "user:STEERED edited", "assistant:steered done"]);
    // The model's next request carried it last; the subagent never saw it.
    const requests = (await server.requests()).filter((r) => r.path.endsWith("/chat/completions")).map((r) => said(r.body));
    const child = requests.filter((r) => r.some((m) => m.includes("DIG-DEEP")) && !r.some((m) => m.includes("STEER-GO")));
    expect(child.length).toBeGreaterThan(0);
    expect(child.flat().join("\n")).not.toContain("STEERED");
    const next = requests.at(-1)!;
    expect(next.slice(-2)).toEqual([expect.stringMatching(/^tool:/), "user:STEERED edited"]);
    expect(requests.flat().join("\n")).not.toContain("to withdraw");
    // Taken: too late to edit or withdraw.
    expect(await client.editQueued(t, first.value.id, "again")).toMatchObject({ ok: false, error: { code: "already_taken" } });
    expect(await client.withdrawQueued(t, first.value.id)).toMatchObject({ ok: false, error: { code: "already_taken" } });
  }, 120_000);

  it("keeps a message queued during the last model call, and runQueued starts the next turn with it", async () => {
    const server = serverScope(inject("providerServer"));
    const slowAnswer: ServerReply = { when: { lastUserIncludes: "LAST-CALL" }, text: "final answer", delayMs: 2000 };
    await server.script([slowAnswer, slowAnswer, { when: { lastUserIncludes: "AFTER-END" }, text: "next turn answer" }]);
    const client = spawn();
    const t = "t-steer-end";
    await client.setThreadModel(t, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    expect(await client.runQueued(t)).toMatchObject({ ok: false, error: { code: "empty_input" } });
    const events: AgentEvent[] = [];
    const started = await client.run(t, { text: "LAST-CALL" }, (e) => events.push(e));
    if (!started.ok) throw new Error(started.error.message);
    // The model call is under way (sent before it, the message would join this very call).
    await vi.waitFor(() => expect(events.some((e) => e.type === "status" && e.phase === "waiting")).toBe(true), WAIT);
    const queued = await client.steer(t, "AFTER-END please");
    expect(queued.ok).toBe(true);
    expect(await started.value.done).toMatchObject({ type: "done", status: "complete" });
    // The run ended without another model call: still queued, and no longer steerable (nothing runs).
    expect(await client.steer(t, "more")).toMatchObject({ ok: false, error: { code: "not_running" } });
    const next = await client.runQueued(t);
    if (!next.ok) throw new Error(next.error.message);
    expect(await next.value.done).toMatchObject({ type: "done", status: "complete" });
    const stored = (await messagesOf(client, t)).map((m) => `${m.role}:${m.content}`);
    expect(stored).toEqual(["user:LAST-CALL", "assistant:final answer", "user:AFTER-END please", "assistant:next turn answer"]);
    expect(await client.runQueued(t)).toMatchObject({ ok: false, error: { code: "empty_input" } });
  }, 120_000);

  it("records the workspace as a steered message lands: the turn's Changes cover the run, Rewind on it goes back to then", async () => {
    const server = serverScope(inject("providerServer"));
    const slowChild: ServerReply = { when: { lastUserIncludes: "REC-DIG" }, text: "dug", delayMs: 3000 };
    await server.script([
      {
        when: { lastUserIncludes: "REC-GO", toolResults: 0 },
        toolCalls: [
          { id: "wa", name: "write_file", args: { file_path: "/a.txt", content: "a\n" } },
          { id: "dig", name: "task", args: { description: "REC-DIG", subagent_type: "general-purpose" } },
        ],
      },
      slowChild,
      slowChild,
      {
        when: { lastUserIncludes: "REC-STEER", toolResults: 2 },
        toolCalls: [{ id: "wb", name: "write_file", args: { file_path: "/b.txt", content: "b\n" } }],
      },
      { when: { lastUserIncludes: "REC-STEER", toolResults: 3 }, text: "recorded" },
    ]);
    const client = spawn();
    const t = "t-steer-rec";
    await client.setThreadModel(t, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const events: AgentEvent[] = [];
    const started = await client.run(t, { text: "REC-GO" }, (e) => events.push(e));
    if (!started.ok) throw new Error(started.error.message);
    await vi.waitFor(() => {
      const calls = events.flatMap((e) => (e.type === "messages" && !e.taskId ? e.messages.flatMap((m) => m.toolCalls ?? []) : []));
      expect(calls.map((c) => c.name)).toContain("task");
    }, WAIT);
    expect((await client.steer(t, "REC-STEER")).ok).toBe(true);
    expect(await started.value.done).toMatchObject({ type: "done", status: "complete" });

    const shown = (await client.getThread(t)).messages;
    const start = shown.findIndex((m) => m.role === "user" && m.content === "REC-GO");
    const steered = shown.findIndex((m) => m.role === "user" && m.content === "REC-STEER");
    expect(steered).toBeGreaterThan(start);
    const kinds = (r: Awaited<ReturnType<typeof client.turnChanges>>) =>
      r.ok ? r.value.map((c) => `${c.kind} ${c.path}`) : [r.error.code];
    // The turn the run started: every file it wrote, before and after the steer.
    expect(kinds(await client.turnChanges(t, start))).toEqual(["added /a.txt", "added /b.txt"]);
    // From the steered message on: only what came after it landed.
    expect(kinds(await client.turnChanges(t, steered))).toEqual(["added /b.txt"]);
    expect(kinds(await client.rewindPreview(t, steered))).toEqual(["deleted /b.txt"]);
  }, 120_000);
});
