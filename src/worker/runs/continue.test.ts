/**
 * Continue after a reload, through the worker API in Node with the
 * OpenAI-compatible provider on the loopback server. The reload is a worker
 * cut off mid-request (cut-fetch.ts: no clean-up runs) and a second worker
 * opened on the same database, as the reloaded page does: its modules are
 * loaded anew (a new page's realm; the cut run's in-memory one-run-per-thread
 * registry stays with the old modules, as it goes with the old worker).
 */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { cuttableFetch } from "../../testing/cut-fetch.ts";
import type { ServerReply } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi, waitUntil } from "../../testing/worker-api.ts";
import { IndexedDBSaver } from "../../storage/indexeddb-saver.ts";
import { createWorkerApi } from "../app.ts";
import { createLayout } from "../layout.ts";
import type { ThreadEvent } from "../../protocol/threads.ts";

const serve = serveScripted();

/** A worker with a cuttable fetch on a fresh database, the thread on the loopback server's scope. */
async function setup(replies: ServerReply[], requireKey?: string) {
  const server = await serve("openai", replies, requireKey ? { requireKey } : {});
  const line = cuttableFetch();
  const first = openWorkerApi(undefined, { fetch: line.fetch });
  await first.api.setThreadModel("t", { provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1` });
  if (requireKey) await first.api.setKey("openai-compatible", requireKey, false, `${server.url}/v1`);
  const chats = () => server.requests.filter((r) => r.path.endsWith("/chat/completions"));
  /** The page reloads: the first worker stops dead; a new one opens the same database. */
  const reload = async () => {
    line.cut();
    vi.resetModules();
    const fresh = await import("../../testing/worker-api.ts");
    return fresh.openWorkerApi(first.db).api;
  };
  return { server, api: first.api, chats, reload };
}

const SLOW_CHILD = Array.from({ length: 40 }, (_, i) => `breed ${i + 1}, `);

describe("Continue after a reload", () => {
  it("during a subagent: the child runs on from its checkpoint, the task gets its answer and the parent answers", async () => {
    const { api, chats, reload } = await setup([
      { toolCalls: [{ id: "call_task", name: "task", args: { description: "Survey the cat breeds", subagent_type: "general-purpose" } }] },
      { when: { lastUserIncludes: "Survey the cat breeds" }, chunks: SLOW_CHILD, delayMs: 150 },
      { when: { lastUserIncludes: "Survey the cat breeds" }, text: "Breeds: tabby, siamese." },
      { when: { lastUserIncludes: "Tell me about cats" }, text: "Cats come in many breeds." },
    ]);
    const run = await collectRun((cb) => api.startRun("t", { text: "Tell me about cats" }, cb));
    await waitUntil(() => run.events.some((e) => e.type === "token" && e.taskId === "call_task"), "the child's first tokens");

    const second = await reload();
    const cut = await second.getThread("t");
    expect(cut.interrupted).toBeDefined();
    expect(chats()).toHaveLength(2);

    const resumed = await collectRun((cb) => second.continueRun("t", cb));
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
    // The child was asked again (from its own checkpoint: its task, not the parent's thread), then the parent.
    expect(chats()).toHaveLength(4);
    const childAgain = JSON.stringify(chats()[2]!.body.messages);
    expect(childAgain).toContain("Survey the cat breeds");
    expect(childAgain).not.toContain("Tell me about cats");
    // The continued child streams under its task card.
    expect(resumed.events.some((e) => e.type === "token" && e.taskId === "call_task")).toBe(true);

    const view = await second.getThread("t");
    expect(view.interrupted).toBeUndefined();
    const result = view.messages.find((m) => m.role === "tool" && m.toolCallId === "call_task");
    expect(result).toMatchObject({ status: "success", content: "Breeds: tabby, siamese." });
    expect(view.messages.filter((m) => m.role === "tool")).toHaveLength(1);
    expect(view.messages.at(-1)).toMatchObject({ role: "assistant", content: "Cats come in many breeds." });
  }, 30_000);

  it("with a key for the session only: Continue asks for the key instead of sending without it, and the partial answer stays", async () => {
    const { api, chats, reload, server } = await setup(
      [{ chunks: SLOW_CHILD, delayMs: 150 }, { text: "The whole answer." }],
      "sk-session-only",
    );
    const run = await collectRun((cb) => api.startRun("t", { text: "List the breeds" }, cb));
    await waitUntil(() => run.events.some((e) => e.type === "token"), "the answer's first tokens");
    // The partial answer is saved about once a second while it streams.
    await new Promise((r) => setTimeout(r, 1_500));

    const second = await reload();
    expect((await second.keyStatus()).find((k) => k.provider === "openai-compatible")).toEqual({
      provider: "openai-compatible",
      set: false,
      remembered: false,
      notKept: true,
    });
    const refused = await second.continueRun("t", () => undefined);
    expect(refused).toMatchObject({ ok: false, error: { code: "key_missing" } });
    expect(!refused.ok && refused.error.message).toMatch(/was for the last session only, so the reload did not keep it\. Enter it again/);
    expect(chats()).toHaveLength(1);
    // Nothing was lost: still interrupted, with its partial answer.
    const cut = await second.getThread("t");
    expect(cut.interrupted?.partial).toMatch(/^breed 1, /);
    expect(await second.startRun("t", { text: "hello?" }, () => undefined)).toMatchObject({ ok: false, error: { code: "key_missing" } });

    await second.setKey("openai-compatible", "sk-session-only", false, `${server.url}/v1`);
    const resumed = await collectRun((cb) => second.continueRun("t", cb));
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
    expect(chats()).toHaveLength(2);
    expect((await second.getThread("t")).messages.at(-1)).toMatchObject({ role: "assistant", content: "The whole answer." });
  }, 30_000);

  it("cut before the run saved its message (a reload just after Send): no Continue, and sending again works", async () => {
    // The first worker's checkpoint writes never finish: the page reloaded between the run's start and its first checkpoint.
    const db = `t-${crypto.randomUUID()}`;
    const stalled = new (class extends IndexedDBSaver {
      override put(): never {
        return new Promise(() => undefined) as never;
      }
      override putWrites(): never {
        return new Promise(() => undefined) as never;
      }
    })(`${db}-checkpoints`);
    const first = createWorkerApi({ storage: { saver: stalled, layout: createLayout(db) }, notify: () => undefined, tokenBatchMs: 0 });
    const started = await first.startRun("t", { text: "Research the history of the web" }, () => undefined);
    expect(started.ok).toBe(true);
    // The run is marked started in the thread's record (as a cut run shows in the list), with no message saved.
    const listed = async () => (await first.listThreads()).find((t) => t.id === "t");
    await expect.poll(async () => (await listed())?.interrupted, { timeout: 20_000 }).toBe(true);

    vi.resetModules();
    const fresh = await import("../../testing/worker-api.ts");
    const updates: ThreadEvent[] = [];
    const second = fresh.openWorkerApi(db, { notify: (e) => updates.push(e) }).api;
    const view = await second.getThread("t");
    expect(view.messages).toEqual([]);
    expect(view.interrupted).toBeUndefined();
    // Marked ended: the lists that showed it interrupted are told to read it again, and no longer show it so.
    expect(updates).toContainEqual({ type: "thread_updated", threadId: "t", running: false });
    expect((await second.listThreads()).find((t) => t.id === "t")?.interrupted).toBeUndefined();
    const refused = await second.continueRun("t", () => undefined);
    expect(refused).toMatchObject({ ok: false, error: { code: "not_interrupted" } });
    // The person sends the message again (the page kept it as the draft): one message, one answer.
    const again = await collectRun((cb) => second.startRun("t", { text: "Research the history of the web" }, cb));
    expect(await again.done).toMatchObject({ type: "done", status: "complete" });
    const after = await second.getThread("t");
    expect(after.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Research the history of the web"]);
    expect(after.interrupted).toBeUndefined();
  }, 30_000);
});
