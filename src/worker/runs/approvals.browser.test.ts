/**
 * Approvals and subagents in the real agent worker (Chromium), with threads in
 * real IndexedDB: a pending approval survives terminating the worker (a page
 * reload) and is answered by the next worker.
 */
import { describe, expect, inject, it } from "vitest";
import { PARALLEL_PROMPT, parallelApprovalReplies } from "../../testing/parallel-approvals.ts";
import type { ServerReply } from "../../testing/provider-servers.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { filesOf, messagesOf, pendingOf, workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import type { AgentEvent } from "../../protocol/events.ts";

const db = `deeptab-test-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);

async function finish(start: Awaited<ReturnType<AgentClient["run"]>>, events: AgentEvent[] = []) {
  if (!start.ok) throw new Error(start.error.message);
  return { end: await start.value.done, events };
}

describe("approvals and subagents in the worker", () => {
  it("stores threads in IndexedDB", async () => {
    expect((await spawn().ping()).storage).toBe("indexeddb");
  });

  it("pauses for approval, survives a reload while pending, and resumes in the next worker", async () => {
    const first = spawn();
    await finish(await first.run("t-approve", { text: "write a note" }));
    expect(Object.keys(await filesOf(first, "t-approve"))).toEqual(["/hello.md"]);

    const events: AgentEvent[] = [];
    const { end } = await finish(await first.run("t-approve", { text: "now delete it" }, (e) => events.push(e)), events);
    expect(end).toMatchObject({ type: "done", status: "interrupted" });
    const interrupt = events.find((e) => e.type === "interrupt");
    expect(interrupt).toBeDefined();
    const pending = await pendingOf(first, "t-approve");
    expect(pending).toMatchObject({
      actions: [{ name: "delete", args: { file_path: "/hello.md" }, allowedDecisions: ["approve", "edit", "reject", "respond"] }],
    });
    expect(Object.keys(await filesOf(first, "t-approve"))).toEqual(["/hello.md"]);

    // Reload: the worker goes away; a new one finds the pending approval in IndexedDB.
    first.close();
    const second = spawn();
    const restored = await pendingOf(second, "t-approve");
    expect(restored).toEqual(pending);
    const resumed: AgentEvent[] = [];
    const done = await finish(await second.resume("t-approve", [{ type: "approve" }], (e) => resumed.push(e)), resumed);
    expect(done.end).toMatchObject({ type: "done", status: "complete" });
    const results = resumed.flatMap((e) => (e.type === "messages" ? e.messages : [])).filter((m) => m.role === "tool");
    expect(results[0]).toMatchObject({ name: "delete", status: "success", content: "Deleted /hello.md" });
    expect(await pendingOf(second, "t-approve")).toBeNull();
    expect(await filesOf(second, "t-approve")).toEqual({});
    const history = await messagesOf(second, "t-approve");
    expect(history.filter((m) => m.role === "tool").map((m) => m.name)).toEqual(["write_file", "delete"]);
    // A thread that is not paused cannot be resumed.
    const again = await second.resume("t-approve", [{ type: "approve" }]);
    expect(again).toMatchObject({ ok: false, error: { code: "not_paused" } });
  });

  it("rejects in the worker: the model sees the rejection and nothing is deleted", async () => {
    const client = spawn();
    await finish(await client.run("t-reject", { text: "write" }));
    await finish(await client.run("t-reject", { text: "delete please" }));
    const events: AgentEvent[] = [];
    await finish(await client.resume("t-reject", [{ type: "reject", message: "keep it" }], (e) => events.push(e)), events);
    expect(Object.keys(await filesOf(client, "t-reject"))).toEqual(["/hello.md"]);
    const history = await messagesOf(client, "t-reject");
    expect(history.find((m) => m.role === "tool" && m.name === "delete")).toMatchObject({ content: "keep it", status: "error" });
  });

  it("runs a subagent: its tokens are tagged and its file reaches the parent", async () => {
    const client = spawn();
    const events: AgentEvent[] = [];
    const { end } = await finish(await client.run("t-sub", { text: "research cats" }, (e) => events.push(e)), events);
    expect(end).toMatchObject({ status: "complete" });
    const top = events.flatMap((e) => (e.type === "messages" && !e.taskId ? e.messages : []));
    const task = top.flatMap((m) => m.toolCalls ?? []).find((c) => c.name === "task");
    expect(task).toMatchObject({ name: "task", args: { subagent_type: "general-purpose" } });
    const childTokens = events.filter((e) => e.type === "token" && e.taskId === task!.id);
    expect(childTokens.map((e) => (e.type === "token" ? e.text : "")).join("")).toBe("Research saved to /research.md.");
    expect(top.find((m) => m.role === "tool")).toMatchObject({ name: "task", content: "Research saved to /research.md." });
    const files = await filesOf(client, "t-sub");
    expect(files["/research.md"]!.content).toContain("Research: research cats");
  });

  it("write_file overwrites an existing file (deepagentsjs #674): the approval shows the diff and approving writes it", async () => {
    const server = serverScope(inject("providerServer"));
    const write = (text: string, content: string): ServerReply[] => {
      const call: ServerReply = {
        when: { lastUserIncludes: text, toolResults: text === "OVERWRITE-1" ? 0 : 1 },
        toolCalls: [{ name: "write_file", args: { file_path: "/over.md", content } }],
      };
      // Queued twice: under load Chromium may resend a request whose connection dropped (see parallel-approvals.ts).
      return [call, call, { when: { lastUserIncludes: text, toolResults: text === "OVERWRITE-1" ? 1 : 2 }, text: `done ${text}` }];
    };
    await server.script([...write("OVERWRITE-1", "one"), ...write("OVERWRITE-2", "two")]);
    const client = spawn();
    await client.updateSettings({ approveWrites: true });
    await client.setThreadModel("t-over", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    await finish(await client.run("t-over", { text: "OVERWRITE-1" }));
    await finish(await client.resume("t-over", [{ type: "approve" }]));
    expect((await filesOf(client, "t-over"))["/over.md"]!.content).toBe("one");

    const { end } = await finish(await client.run("t-over", { text: "OVERWRITE-2" }));
    expect(end).toMatchObject({ status: "interrupted" });
    const pending = (await pendingOf(client, "t-over"))!;
    expect(pending.actions[0]).toMatchObject({ name: "write_file", change: { path: "/over.md", before: "one", after: "two" } });
    const resumed: AgentEvent[] = [];
    const done = await finish(await client.resume("t-over", [{ type: "approve" }], (e) => resumed.push(e)), resumed);
    expect(done.end).toMatchObject({ status: "complete" });
    const results = resumed.flatMap((e) => (e.type === "messages" ? e.messages : [])).filter((m) => m.role === "tool");
    expect(results[0]).toMatchObject({ name: "write_file", status: "success", content: "Updated file /over.md" });
    expect((await filesOf(client, "t-over"))["/over.md"]!.content).toBe("two");
  }, 120_000);

  it("parallel subagents both ask: the first is shown with the other waiting, and each decision answers only its request", async () => {
    const server = serverScope(inject("providerServer"));
    await server.script(parallelApprovalReplies());
    const client = spawn();
    await client.updateSettings({ approveWrites: true });
    await client.setThreadModel("t-par", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const events: AgentEvent[] = [];
    const { end } = await finish(await client.run("t-par", { text: PARALLEL_PROMPT }, (e) => events.push(e)), events);
    expect(end).toMatchObject({ status: "interrupted" });
    const first = (await pendingOf(client, "t-par"))!;
    // What the children said, should one of them not have paused (shown if the next line fails).
    const said = JSON.stringify(events.flatMap((e) => (e.type === "messages" && e.taskId ? e.messages.map((m) => m.content) : [])));
    expect([first.subagent?.taskId, first.actions[0]?.args.file_path], said).toEqual(["tA", "/shown.md"]);
    expect(first.waiting).toEqual([{ subagent: { type: "general-purpose", taskId: "tB" }, tools: ["write_file"] }]);
    expect(await client.resume("t-par", [{ type: "approve" }])).toMatchObject({ ok: false, error: { code: "invalid_decision" } });

    await finish(await client.resume("t-par", [{ type: "approve" }], undefined, first.id));
    expect(Object.keys(await filesOf(client, "t-par"))).toEqual(["/shown.md"]);
    const second = (await pendingOf(client, "t-par"))!;
    expect([second.subagent?.taskId, second.actions[0]?.args.file_path, second.waiting]).toEqual(["tB", "/other.md", undefined]);
    expect(await client.resume("t-par", [{ type: "approve" }], undefined, first.id)).toMatchObject({
      ok: false,
      error: { code: "approval_changed" },
    });

    const last = await finish(await client.resume("t-par", [{ type: "reject" }], undefined, second.id));
    expect(last.end).toMatchObject({ status: "complete" });
    expect(Object.keys(await filesOf(client, "t-par"))).toEqual(["/shown.md"]);
  }, 120_000);
});
