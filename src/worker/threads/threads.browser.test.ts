/**
 * Thread management in the real agent worker (Chromium, real IndexedDB):
 * the registry, delete (checkpoints and files gone), export → import (crafted
 * imports with broken messages refused), and the per-thread Web Lock across
 * two workers on one database.
 */
import { describe, expect, it } from "vitest";
import { CRAFTED_EXPORTS, craftExport } from "../../testing/crafted-exports.ts";
import { filesOf, messagesOf, pendingOf, workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import { THREADS_CHANNEL, type ThreadEvent, type ThreadExport } from "../../protocol/threads.ts";

const db = `deeptab-test-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);

async function turn(client: AgentClient, threadId: string, text: string) {
  const start = await client.run(threadId, { text: text });
  if (!start.ok) throw new Error(start.error.message);
  return start.value.done;
}

function keys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keys(v, out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keys(v, out);
    }
  return out;
}

describe("threads in the worker", () => {
  it("lists threads newest first with title and message count, renames and deletes", async () => {
    const client = spawn();
    await turn(client, "t-a", "  First thread about   cats and a very long sentence that goes on and on and on  ");
    await turn(client, "t-b", "Second");
    const list = await client.listThreads();
    expect(list.map((t) => t.id)).toEqual(["t-b", "t-a"]);
    expect(list[1]!.title.length).toBeLessThanOrEqual(60);
    expect(list[1]!.title.startsWith("First thread about cats")).toBe(true);
    // Counts what people wrote (user messages and answers with text), not tool traffic: 2 after one turn.
    expect(list[0]).toMatchObject({ title: "Second", messageCount: 2 });
    // While a turn runs, the row already counts the message just sent (not the count of the last end).
    let during: ReturnType<AgentClient["listThreads"]> | undefined;
    const next = await client.run("t-b", { text: "Again" }, (e) => {
      if (e.type === "token") during ??= client.listThreads();
    });
    if (!next.ok) throw new Error(next.error.message);
    await next.value.done;
    expect((await during!).find((t) => t.id === "t-b")).toMatchObject({ messageCount: 3, running: true });
    expect((await client.listThreads()).find((t) => t.id === "t-b")).toMatchObject({ messageCount: 4 });
    expect((await client.listThreads()).find((t) => t.id === "t-b")!.running).toBeUndefined();

    expect(await client.renameThread("t-a", "Cats")).toMatchObject({ ok: true, value: { title: "Cats" } });
    expect((await client.listThreads()).find((t) => t.id === "t-a")?.title).toBe("Cats");
    expect(await client.renameThread("nope", "x")).toMatchObject({ ok: false, error: { code: "not_found" } });

    expect(Object.keys(await filesOf(client, "t-a"))).toEqual(["/hello.md"]);
    expect(await client.deleteThread("t-a")).toEqual({ ok: true, value: null });
    expect((await client.listThreads()).map((t) => t.id)).toEqual(["t-b"]);
    expect(await messagesOf(client, "t-a")).toEqual([]);
    expect(await filesOf(client, "t-a")).toEqual({});
    expect((await messagesOf(client, "t-b")).length).toBe(8);
  });

  it("deletes a thread's subagent threads too", async () => {
    const client = spawn();
    await turn(client, "t-sub", "research dogs");
    const exported = await client.exportThread("t-sub");
    if (!exported.ok) throw new Error(exported.error.message);
    expect(exported.value.checkpoints.some((c) => (c.threadSuffix ?? "").startsWith("::task::"))).toBe(true);
    await client.deleteThread("t-sub");
    const again = await client.exportThread("t-sub");
    expect(again).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("exports and imports a thread: same messages, files and pending approval; no secrets", async () => {
    const client = spawn();
    await turn(client, "t-x", "write a note");
    await turn(client, "t-x", "research birds");
    await turn(client, "t-x", "now delete it");
    const exported = await client.exportThread("t-x");
    if (!exported.ok) throw new Error(exported.error.message);
    const json: ThreadExport = JSON.parse(JSON.stringify(exported.value));
    expect(json).toMatchObject({ format: "deeptab-thread", version: 2, thread: { id: "t-x", title: "write a note" } });
    expect(keys(json).filter((k) => /api[_-]?key|secret|token$/i.test(k))).toEqual([]);

    const imported = await client.importThread(json);
    if (!imported.ok) throw new Error(imported.error.message);
    const id = imported.value;
    expect(id).not.toBe("t-x");
    expect(await messagesOf(client, id)).toEqual(await messagesOf(client, "t-x"));
    expect(await filesOf(client, id)).toEqual(await filesOf(client, "t-x"));
    expect(await pendingOf(client, id)).toEqual(await pendingOf(client, "t-x"));
    expect((await client.listThreads()).find((t) => t.id === id)?.title).toBe("write a note");
    // The imported thread runs on: approve the pending delete.
    const resumed = await client.resume(id, [{ type: "approve" }]);
    if (!resumed.ok) throw new Error(resumed.error.message);
    expect(await resumed.value.done).toMatchObject({ type: "done", status: "complete" });
    expect(Object.keys(await filesOf(client, id))).toEqual(["/research.md"]);
    expect(Object.keys(await filesOf(client, "t-x")).sort()).toEqual(["/hello.md", "/research.md"]);
  });

  it("skills are every thread's: an export leaves them out, and an import carrying one is refused naming it", async () => {
    const client = spawn();
    await turn(client, "t-skill", "hello");
    expect(await client.writeFile("t-skill", "/skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nbody")).toEqual({
      ok: true,
      value: null,
    });
    const exported = await client.exportThread("t-skill");
    if (!exported.ok) throw new Error(exported.error.message);
    expect(Object.keys(exported.value.files)).toEqual(["/hello.md"]);
    const before = await client.listThreads();
    const crafted = { ...exported.value, files: { ...exported.value.files, "/skills/x/SKILL.md": exported.value.files["/hello.md"] } };
    const refused = await client.importThread(JSON.parse(JSON.stringify(crafted)));
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "invalid_export", message: expect.stringContaining("'/skills/x/SKILL.md' is under /skills/") },
    });
    expect(await client.listThreads()).toHaveLength(before.length);
  }, 60_000);

  it("rejects bad imports with invalid_export and writes nothing", async () => {
    const client = spawn();
    const before = await client.listThreads();
    for (const bad of [null, "x", { format: "other" }, { format: "deeptab-thread", version: 1, thread: {}, checkpoints: [], files: {} }]) {
      expect(await client.importThread(bad)).toMatchObject({ ok: false, error: { code: "invalid_export" } });
    }
    await turn(client, "t-bad", "hello");
    const good = await client.exportThread("t-bad");
    if (!good.ok) throw new Error(good.error.message);
    // A checkpoint the serde cannot read ("not json" in a type it does not know).
    const unreadable = { type: "msgpack", base64: "bm90IGpzb24=" };
    const broken = { ...good.value, checkpoints: good.value.checkpoints.map((c, i) => (i === 1 ? { ...c, checkpoint: unreadable } : c)) };
    expect(await client.importThread(broken)).toMatchObject({ ok: false, error: { code: "invalid_export" } });
    expect((await client.listThreads()).length).toBe(before.length + 1);
  });

  it("refuses crafted imports with broken messages (tool calls, ids, arguments, content), naming the problem; stores nothing", async () => {
    const client = spawn();
    await turn(client, "t-craft", "hello");
    const good = await client.exportThread("t-craft");
    if (!good.ok) throw new Error(good.error.message);
    const before = await client.listThreads();
    for (const crafted of CRAFTED_EXPORTS) {
      const out = await client.importThread(craftExport(good.value, crafted.craft));
      expect(out, crafted.name).toMatchObject({ ok: false, error: { code: "invalid_export" } });
      expect(out.ok ? "" : out.error.message, crafted.name).toMatch(crafted.problem);
    }
    expect(await client.listThreads()).toEqual(before);
  });

  it("two workers on one thread: the second gets thread_busy while the first runs, and sees the broadcast", async () => {
    const first = spawn();
    const second = spawn();
    await second.ping();
    const events: ThreadEvent[] = [];
    const channel = new BroadcastChannel(THREADS_CHANNEL);
    channel.onmessage = (e: MessageEvent<ThreadEvent>) => events.push(e.data);
    try {
      const start = await first.run("t-lock", { text: "hello" });
      if (!start.ok) throw new Error(start.error.message);
      expect(await second.run("t-lock", { text: "me too" })).toMatchObject({ ok: false, error: { code: "thread_busy" } });
      expect(await second.getThreadStatus("t-lock")).toEqual({ busy: true });
      expect(await first.getThreadStatus("t-lock")).toEqual({ busy: false });
      expect(await second.deleteThread("t-lock")).toMatchObject({ ok: false, error: { code: "thread_busy" } });
      await start.value.done;
      await expect.poll(() => events.filter((e) => e.threadId === "t-lock").map((e) => e.running)).toEqual([true, false]);
      expect(await second.getThreadStatus("t-lock")).toEqual({ busy: false });
      await turn(second, "t-lock", "my turn");
      expect((await messagesOf(first, "t-lock")).filter((m) => m.role === "user").map((m) => m.content)).toEqual(["hello", "my turn"]);
    } finally {
      channel.close();
    }
  });
});
