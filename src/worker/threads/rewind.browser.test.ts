/**
 * Rewind and review a turn's changes against the real worker in Chromium (real IndexedDB) with the model served
 * by the loopback OpenAI-compatible server: a turn writes, edits and deletes files; its Changes list every one; a
 * file reverted is back and the model's next request carries the note; a rewind restores the workspace (files
 * only, undone by rewinding to before its note; files and conversation, a new branch with the old one kept); and
 * both are refused while a run is in progress.
 */
import { describe, expect, inject, it } from "vitest";
import type { AgentClient } from "../../page/client.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";

const { spawn } = workerPool();

async function run(api: AgentClient, thread: string, text: string): Promise<void> {
  const started = await api.run(thread, { text });
  if (!started.ok) throw new Error(started.error.message);
  expect(await started.value.done).toMatchObject({ type: "done", status: "complete" });
}

async function text(api: AgentClient, thread: string, path: string): Promise<string | undefined> {
  const page = await api.readFile(thread, path, 0, 100);
  return page.ok ? page.value.lines.join("\n") : undefined;
}

const paths = async (api: AgentClient, thread: string) => (await api.listFiles(thread)).filter((f) => !f.isDir).map((f) => f.path);

describe("rewind and a turn's changes", () => {
  it("lists a turn's changes, reverts one file telling the agent, rewinds files only (undoable) and with the conversation", async () => {
    const server = serverScope(inject("providerServer"));
    const api = spawn();
    const thread = `t-${crypto.randomUUID()}`;
    await api.updateSettings({ approveExecute: false });
    await api.setThreadModel(thread, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    await api.writeFile(thread, "/plan.md", "old plan\n");
    await api.writeFile(thread, "/keep.txt", "keep me\n");
    await server.script([
      {
        toolCalls: [
          { id: "w", name: "write_file", args: { file_path: "/new.txt", content: "brand new\n" } },
          { id: "e", name: "edit_file", args: { file_path: "/plan.md", old_string: "old plan", new_string: "new plan" } },
          { id: "x", name: "execute", args: { command: "rm /keep.txt" } },
        ],
      },
      { text: "Done." },
      { text: "Noted." },
    ]);
    await run(api, thread, "Change the files");
    expect(await paths(api, thread)).toEqual(["/new.txt", "/plan.md"]);

    const changes = await api.turnChanges(thread, 0);
    if (!changes.ok) throw new Error(changes.error.message);
    expect(changes.value).toEqual([
      { path: "/keep.txt", kind: "deleted", before: "keep me\n", after: "" },
      { path: "/new.txt", kind: "added", before: "", after: "brand new\n" },
      { path: "/plan.md", kind: "changed", before: "old plan\n", after: "new plan\n" },
    ]);

    // Revert one file: it is back, the others stay, and a note joins the conversation.
    const reverted = await api.revertTurn(thread, 0, ["/plan.md"]);
    if (!reverted.ok) throw new Error(reverted.error.message);
    expect(await text(api, thread, "/plan.md")).toBe("old plan");
    expect(await paths(api, thread)).toEqual(["/new.txt", "/plan.md"]);
    const note = reverted.value.messages.at(-1)!;
    expect(note).toMatchObject({ role: "user", note: true });
    expect(note.content).toBe(
      '[Workspace note] The person reverted these files to how they were before their message "Change the files": ' +
        "/plan.md (restored). Read a file again before relying on it.",
    );
    // The model's next request carries it, before the person's next message.
    await run(api, thread, "Carry on");
    const sent = (await server.requests()).filter((r) => r.path.endsWith("/chat/completions"));
    const last = sent.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    const users = last.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    expect(users.at(-2)).toContain("/plan.md (restored)");
    expect(users.at(-1)).toContain("Carry on");

    // Rewind to before the first message, files only: the preview says what changes; the workspace is as it was.
    const preview = await api.rewindPreview(thread, 0);
    if (!preview.ok) throw new Error(preview.error.message);
    expect(preview.value.map((c) => [c.path, c.kind])).toEqual([
      ["/keep.txt", "added"],
      ["/new.txt", "deleted"],
    ]);
    const rewound = await api.rewind(thread, 0, "files");
    if (!rewound.ok) throw new Error(rewound.error.message);
    expect(await paths(api, thread)).toEqual(["/keep.txt", "/plan.md"]);
    const rewindNote = rewound.value.messages.length - 1;
    expect(rewound.value.messages[rewindNote]).toMatchObject({ note: true });
    expect(rewound.value.messages[rewindNote]!.content).toContain("restored the workspace to how it was before their message");
    // Undo: rewind to before the note.
    const undone = await api.rewind(thread, rewindNote, "files");
    if (!undone.ok) throw new Error(undone.error.message);
    expect(await paths(api, thread)).toEqual(["/new.txt", "/plan.md"]);

    // Files and conversation: a new branch from before the first message; the old branch keeps everything.
    const forked = await api.rewind(thread, 0, "conversation");
    if (!forked.ok) throw new Error(forked.error.message);
    expect(await paths(api, thread)).toEqual(["/keep.txt", "/plan.md"]);
    expect(forked.value.messages.map((m) => m.note ?? false)).toEqual([true]);
    const branch = forked.value.branches.find((b) => b.messageIndex === 0)!;
    expect([branch.current, branch.count]).toEqual([2, 2]);
    const old = await api.switchBranch(thread, branch.heads[0]!);
    expect(old.messages[0]).toMatchObject({ role: "user", content: "Change the files" });
    expect(old.messages.filter((m) => m.note)).toHaveLength(3);
  }, 120_000);

  it("refuses to rewind or revert while a run is in progress", async () => {
    const server = serverScope(inject("providerServer"));
    const api = spawn();
    const thread = `t-${crypto.randomUUID()}`;
    await api.setThreadModel(thread, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    await server.script([{ text: "first" }, { text: "slow", delayMs: 4_000 }]);
    await run(api, thread, "one");
    const started = await api.run(thread, { text: "two" });
    if (!started.ok) throw new Error(started.error.message);
    expect(await api.rewind(thread, 0, "files")).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    expect(await api.revertTurn(thread, 0, ["/x"])).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    await started.value.done;
    // No file changed in that turn: nothing to restore.
    expect(await api.rewind(thread, 0, "files")).toMatchObject({ ok: false, error: { code: "unchanged" } });
  }, 60_000);
});
