/**
 * The worker API in Node over fake-indexeddb, with the demo model: turns and
 * their events, the thread view, Stop keeping the partial answer, an
 * interrupted run continued by another worker, edit-and-rerun with branches,
 * approvals honouring allowed decisions, files and attachments, subagent
 * activity, the registry's message count. (Chromium runs the same API in
 * a real worker: worker.browser.test.ts.)
 */
import "fake-indexeddb/auto";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { collectRun, openWorkerApi } from "../testing/worker-api.ts";
import { createLayout } from "./layout.ts";
import type { AgentWorkerApi, UserInput } from "../protocol/worker-api.ts";
import type { MessageInfo } from "../protocol/messages.ts";

const openApi = openWorkerApi;

const send = async (api: AgentWorkerApi, threadId: string, input: UserInput | string) => {
  const run = await collectRun((cb) => api.startRun(threadId, typeof input === "string" ? { text: input } : input, cb));
  return { ...run, terminal: await run.done };
};

const texts = (messages: MessageInfo[]) => messages.map((m) => `${m.role}:${m.content}`);

describe("the worker API (demo model)", () => {
  it("runs a turn: events in order, a consistent view, a registry entry counting what people wrote", async () => {
    const { api } = openApi();
    const { events, terminal } = await send(api, "a", "hello");
    expect(terminal).toMatchObject({ type: "done", status: "complete" });
    const kinds = events.map((e) => e.type);
    expect(kinds[0]).toBe("messages");
    expect(kinds).toContain("token");
    expect(kinds.at(-1)).toBe("done");
    const view = await api.getThread("a");
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(view.messages[1]!.toolCalls?.[0]).toMatchObject({ name: "write_file", args: { file_path: "/hello.md" } });
    expect(view.messages[2]).toMatchObject({ name: "write_file", status: "success" });
    expect(typeof view.messages[2]!.durationMs).toBe("number");
    expect(view.model).toEqual({ provider: "demo", model: "scripted" });
    expect(view.interrupted).toBeUndefined();
    await send(api, "a", "hi again");
    const [thread] = await api.listThreads();
    expect(thread).toMatchObject({ id: "a", title: "hello", messageCount: 4 });
    expect(thread!.running).toBeUndefined();
    expect(thread!.interrupted).toBeUndefined();
  });

  it("keeps the partial answer on Stop, marked stopped, and the thread goes on", async () => {
    const { api } = openApi();
    const run = await collectRun((cb) => api.startRun("s", { text: "hello" }, cb));
    // Wait for the answer to start streaming, then stop.
    for (let i = 0; i < 200 && !run.events.some((e) => e.type === "token"); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await api.cancel(run.runId)).toBe(true);
    expect(await run.done).toMatchObject({ type: "done", status: "cancelled" });
    const view = await api.getThread("s");
    const last = view.messages.at(-1)!;
    expect(last).toMatchObject({ role: "assistant", stopped: true });
    expect(last.content.length).toBeGreaterThan(0);
    expect("I saved your message to /hello.md. This answer was streamed".startsWith(last.content.trimEnd().slice(0, 10))).toBe(true);
    expect(view.interrupted).toBeUndefined();
    const next = await send(api, "s", "and now?");
    expect(next.terminal).toMatchObject({ status: "complete" });
    expect((await api.getThread("s")).messages.filter((m) => m.role === "user")).toHaveLength(2);
  });

  it("shows a run cut off by a worker that went away as interrupted, with its partial text, and continues it", async () => {
    const db = `t-${crypto.randomUUID()}`;
    const first = openApi(db).api;
    const run = await collectRun((cb) => first.startRun("r", { text: "hello" }, cb));
    await run.done;
    // Simulate the cut: the registry says a run started (its worker died), a partial answer was saved, the graph stopped before the answer.
    const layout = createLayout(db);
    const entry = (await layout.store.get(["threads"], "r"))!.value as Record<string, unknown>;
    // Its count is the one kept before the run started (stale): the list counts what the thread holds.
    await layout.store.put(["threads"], "r", { ...entry, wasRunning: true, messageCount: 0 });
    await layout.store.put(["partials"], "r", { text: "Half an ans" });
    const second = openApi(db).api;
    const view = await second.getThread("r");
    expect(view.interrupted).toEqual({ partial: "Half an ans" });
    expect((await second.listThreads())[0]).toMatchObject({ interrupted: true, messageCount: 2 });
    const resumed = await collectRun((cb) => second.continueRun("r", cb));
    expect(await resumed.done).toMatchObject({ type: "done" });
    const after = await second.getThread("r");
    expect(after.interrupted).toBeUndefined();
    expect((await second.listThreads())[0]!.interrupted).toBeUndefined();
    expect((await second.continueRun("r", () => undefined)).ok).toBe(false);
  });

  it("edits an earlier message into a new branch; the old branch stays reachable", async () => {
    const { api } = openApi();
    await send(api, "e", "first");
    await send(api, "e", "second");
    const before = await api.getThread("e");
    const index = before.messages.findLastIndex((m) => m.role === "user");
    const edit = await collectRun((cb) => api.editAndRerun("e", index, "second, edited", cb));
    await edit.done;
    const edited = await api.getThread("e");
    expect(texts(edited.messages).filter((t) => t.startsWith("user:"))).toEqual(["user:first", "user:second, edited"]);
    expect(edited.branches).toHaveLength(1);
    const branch = edited.branches[0]!;
    expect(branch).toMatchObject({ messageIndex: index, count: 2, current: 2 });
    const old = await api.switchBranch("e", branch.heads[0]!);
    expect(texts(old.messages).filter((t) => t.startsWith("user:"))).toEqual(["user:first", "user:second"]);
    expect(old.branches[0]).toMatchObject({ current: 1, count: 2 });
    // Sending on the old branch continues it.
    await send(api, "e", "third");
    const continued = await api.getThread("e");
    expect(texts(continued.messages).filter((t) => t.startsWith("user:"))).toEqual(["user:first", "user:second", "user:third"]);
    // Retry reruns the last user message as a new branch.
    await (
      await collectRun((cb) => api.retry("e", cb))
    ).done;
    const retried = await api.getThread("e");
    expect(retried.branches.at(-1)).toMatchObject({ count: 2, current: 2 });
  });

  it("edits and retries of one message are siblings: every branch stays reachable, and retry reruns the branch shown", async () => {
    const { api } = openApi();
    await send(api, "b", "first");
    await send(api, "b", "colour");
    const index = (await api.getThread("b")).messages.findLastIndex((m) => m.role === "user");
    await (
      await collectRun((cb) => api.editAndRerun("b", index, "fruit", cb))
    ).done;
    // Retry on the new (newest) branch, then an edit of the same message again.
    await (
      await collectRun((cb) => api.retry("b", cb))
    ).done;
    await (
      await collectRun((cb) => api.editAndRerun("b", index, "animal", cb))
    ).done;
    const view = await api.getThread("b");
    const userTexts = (v: typeof view) => texts(v.messages).filter((t) => t.startsWith("user:"));
    expect(view.branches).toHaveLength(1);
    expect(view.branches[0]).toMatchObject({ messageIndex: index, count: 4, current: 4 });
    const shown: string[] = [];
    for (const head of view.branches[0]!.heads) shown.push(userTexts(await api.switchBranch("b", head)).at(-1)!);
    expect(shown).toEqual(["user:colour", "user:fruit", "user:fruit", "user:animal"]);
    // Retry on the first branch reruns its message ("colour"), not the newest branch's.
    await api.switchBranch("b", view.branches[0]!.heads[0]!);
    await (
      await collectRun((cb) => api.retry("b", cb))
    ).done;
    const retried = await api.getThread("b");
    expect(userTexts(retried).at(-1)).toBe("user:colour");
    expect(retried.branches[0]).toMatchObject({ count: 5, current: 5 });
  });

  it("the first message retried and edited: three sibling branches, not a nested pair", async () => {
    const { api } = openApi();
    await send(api, "f", "colour");
    await (
      await collectRun((cb) => api.retry("f", cb))
    ).done;
    await (
      await collectRun((cb) => api.editAndRerun("f", 0, "fruit", cb))
    ).done;
    const view = await api.getThread("f");
    expect(view.branches).toEqual([expect.objectContaining({ messageIndex: 0, count: 3, current: 3 })]);
    const firsts: string[] = [];
    for (const head of view.branches[0]!.heads) firsts.push(texts((await api.switchBranch("f", head)).messages)[0]!);
    expect(firsts).toEqual(["user:colour", "user:colour", "user:fruit"]);
  });

  it("pauses for approval, refuses a decision the rule does not allow, and refuses new text until answered", async () => {
    const { api } = openApi();
    await send(api, "p", "hello");
    const paused = await send(api, "p", "please delete it");
    expect(paused.terminal).toMatchObject({ status: "interrupted" });
    const interrupt = paused.events.find((e) => e.type === "interrupt");
    expect(interrupt && interrupt.type === "interrupt" && interrupt.approval.actions[0]).toMatchObject({
      name: "delete",
      args: { file_path: "/hello.md" },
    });
    const view = await api.getThread("p");
    expect(view.approval?.actions[0]?.allowedDecisions).toEqual(["approve", "edit", "reject", "respond"]);
    const blocked = await api.startRun("p", { text: "are you there?" }, () => undefined);
    expect(blocked).toMatchObject({ ok: false, error: { code: "awaiting_approval" } });
    const wrongCount = await api.resume("p", [], () => undefined);
    expect(wrongCount).toMatchObject({ ok: false, error: { code: "invalid_decision" } });
    const rejected = await collectRun((cb) => api.resume("p", [{ type: "reject", message: "keep it" }], cb));
    expect(await rejected.done).toMatchObject({ type: "done", status: "complete" });
    expect((await api.listFiles("p")).map((f) => f.path)).toContain("/hello.md");
  });

  it("shows files, pages a file, takes the user's edits and attachments, and zips the workspace", async () => {
    const { api } = openApi();
    await send(api, "f", "hello");
    expect((await api.listFiles("f")).map((f) => f.path)).toEqual(["/hello.md"]);
    const big = Array.from({ length: 1200 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(await api.writeFile("f", "/big.txt", big)).toEqual({ ok: true, value: null });
    const page = await api.readFile("f", "/big.txt", 500, 100);
    expect(page).toMatchObject({ ok: true, value: { offset: 500, totalLines: 1200, binary: false } });
    expect(page.ok && page.value.lines[0]).toBe("line 501");
    expect(await api.writeFile("f", "/memories/AGENTS.md", "# Memory\nThe user likes cats.\n")).toEqual({ ok: true, value: null });
    const attached = await send(api, "f", {
      text: "see attached",
      attachments: [{ name: "notes.txt", content: new TextEncoder().encode("n") }],
    });
    expect(attached.terminal).toMatchObject({ status: "complete" });
    const view = await api.getThread("f");
    expect(view.messages.filter((m) => m.role === "user").at(-1)!.content).toContain("/uploads/notes.txt");
    const paths = (await api.listFiles("f")).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["/uploads/notes.txt", "/memories/AGENTS.md", "/big.txt"]));
    const zip = unzipSync(await api.workspaceZip("f"));
    expect(Object.keys(zip).sort()).toEqual(expect.arrayContaining(["big.txt", "hello.md", "uploads/notes.txt"]));
    expect(Object.keys(zip).some((p) => p.startsWith("memories/"))).toBe(false);
    expect(await api.deleteFile("f", "/big.txt")).toEqual({ ok: true, value: null });
    // Expected failures cross the protocol as coded ErrorInfo values.
    const gone = { name: "FileError", code: "file_not_found", message: "/big.txt does not exist." };
    expect(await api.readFile("f", "/big.txt", 0, 10)).toEqual({ ok: false, error: gone });
    expect(await api.fileBytes("f", "/big.txt")).toEqual({ ok: false, error: gone });
    expect(await api.readFile("f", "/uploads", 0, 10)).toEqual({
      ok: false,
      error: { name: "FileError", code: "is_directory", message: "/uploads is a folder." },
    });
    expect(await api.deleteFile("f", "/big.txt")).toMatchObject({ ok: false, error: { name: "FileError", code: "file_not_found" } });
    expect(await api.writeFile("f", "/a/../b.txt", "x")).toMatchObject({ ok: false, error: { name: "FileError", code: "invalid_path" } });
  });

  it("streams a subagent's activity under its task call, and nests it in the view", async () => {
    const { api } = openApi();
    const { events } = await send(api, "sub", "research cats");
    const taskCall = events
      .flatMap((e) => (e.type === "messages" && !e.taskId ? e.messages : []))
      .flatMap((m) => m.toolCalls ?? [])
      .find((c) => c.name === "task");
    expect(taskCall).toBeDefined();
    const child = events.filter((e) => (e.type === "messages" || e.type === "token") && e.taskId === taskCall!.id);
    expect(child.some((e) => e.type === "messages" && e.messages.some((m) => m.toolCalls?.[0]?.name === "write_file"))).toBe(true);
    expect(child.some((e) => e.type === "messages" && e.messages.some((m) => m.role === "tool"))).toBe(true);
    const view = await api.getThread("sub");
    const nested = view.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.name === "task")!;
    expect(nested.children?.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
  });
});
