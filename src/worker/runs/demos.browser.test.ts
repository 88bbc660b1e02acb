/**
 * Recorded demos in the real agent worker (Chromium, real IndexedDB) against the loopback OpenAI server: a turn with
 * tool calls and a subagent is recorded as it runs, saved as a demo (a new version of the agent), and replayed in a
 * new thread of that version with no request leaving the tab: the same answer, the same files, the turn marked. A
 * changed prompt stops the replay with its reason, and Continue goes on from there with the thread's own model.
 */
import { describe, expect, inject, it } from "vitest";
import { parseDemo } from "../../models/replay/parse.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { AgentClient } from "../../page/client.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { messagesOf, workerPool } from "../../testing/worker-pool.ts";

const db = `deeptab-test-${crypto.randomUUID()}`;
const { spawn } = workerPool(db);

async function runTurn(client: AgentClient, threadId: string, input: Parameters<AgentClient["run"]>[1]) {
  const events: AgentEvent[] = [];
  const started = await client.run(threadId, input, (e) => events.push(e));
  if (!started.ok) throw new Error(started.error.message);
  const done = await started.value.done;
  return { done, events };
}

const shown = async (client: AgentClient, t: string) =>
  (await messagesOf(client, t)).map((m) => `${m.role}:${m.role === "tool" ? m.name : m.content}`);

async function fileText(client: AgentClient, t: string, path: string): Promise<string | undefined> {
  const read = await client.readFile(t, path, 0, 100);
  return read.ok ? read.value.lines.join("\n") : undefined;
}

describe("recorded demos in the worker", () => {
  it("records a turn with a subagent, saves it as a demo, and replays it in a new thread with no request leaving the tab", async () => {
    const server = serverScope(inject("providerServer"));
    await server.script([
      {
        when: { lastUserIncludes: "DEMO-GO", toolResults: 0 },
        toolCalls: [
          { name: "write_file", args: { file_path: "/hello.md", content: "hello from the demo" } },
          { name: "task", args: { description: "SUB-WRITE the second file", subagent_type: "general-purpose" } },
        ],
      },
      {
        when: { lastUserIncludes: "SUB-WRITE", toolResults: 0 },
        toolCalls: [{ name: "write_file", args: { file_path: "/sub.md", content: "sub" } }],
      },
      { when: { lastUserIncludes: "SUB-WRITE", toolResults: 1 }, text: "The subagent wrote /sub.md." },
      { when: { lastUserIncludes: "DEMO-GO", toolResults: 2 }, chunks: ["Both ", "files ", "are ", "written."] },
      { when: { lastUserIncludes: "Something else", toolResults: 0 }, text: "Going on with my own model." },
    ]);
    const client = spawn();
    const t = "t-record";
    await client.setThreadModel(t, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const recorded = await runTurn(client, t, { text: "DEMO-GO: write two files" });
    expect(recorded.done).toMatchObject({ type: "done", status: "complete" });
    const recordedShown = await shown(client, t);
    expect(recordedShown.at(-1)).toBe("assistant:Both files are written.");

    const saved = await client.saveDemo(t, { title: "Write two files", recordedBy: "Tester" });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value.file).toBe("demos/write-two-files.json");
    expect(saved.value.agent.origin).toBe("local");
    expect(saved.value.agent.demos).toEqual([
      expect.objectContaining({
        file: "demos/write-two-files.json",
        title: "Write two files",
        prompt: "DEMO-GO: write two files",
        replies: 4,
        tools: ["write_file", "task"],
        model: "openai-compatible:m",
        recordedBy: "Tester",
        scripted: false,
      }),
    ]);
    const folder = await client.agentFolder(saved.value.agent.id);
    if (!folder.ok) throw new Error(folder.error.message);
    const file = folder.value.files.find((f) => f.path === saved.value.file);
    const demo = parseDemo(file?.text ?? "");
    expect(demo.ok).toBe(true);

    // A new thread of the new version replays it: no provider set, nothing sent to the server or anywhere.
    const before = { requests: (await server.requests()).length, log: (await client.requestLog()).length };
    const r = "t-replay";
    expect(await client.setThreadAgent(r, saved.value.agent.id)).toEqual({ ok: true, value: null });
    const replayed = await runTurn(client, r, { text: "DEMO-GO: write two files", replay: { file: saved.value.file, speed: Infinity } });
    expect(replayed.done).toMatchObject({ type: "done", status: "complete" });
    expect(await shown(client, r)).toEqual(recordedShown);
    expect(await fileText(client, r, "/hello.md")).toContain("hello from the demo");
    expect(await fileText(client, r, "/sub.md")).toContain("sub");
    expect((await server.requests()).length).toBe(before.requests);
    expect((await client.requestLog()).length).toBe(before.log);
    // The turn says where its answers come from, across a fresh read.
    const [user] = await messagesOf(client, r);
    expect(user?.replay).toEqual(
      expect.objectContaining({
        file: saved.value.file,
        title: "Write two files",
        model: "openai-compatible:m",
        recordedBy: "Tester",
        scripted: false,
        // The pace chosen is kept with the turn (a reload mid-replay goes on at it).
        speed: Number.POSITIVE_INFINITY,
      }),
    );

    // A changed prompt stops at once with its reason; Continue goes on with the thread's own model.
    const d = "t-diverge";
    expect(await client.setThreadAgent(d, saved.value.agent.id)).toEqual({ ok: true, value: null });
    await client.setThreadModel(d, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const diverged = await runTurn(client, d, { text: "Something else", replay: { file: saved.value.file, speed: Infinity } });
    const error = diverged.events.find((e) => e.type === "error");
    expect(error).toMatchObject({ error: { code: "demo_diverged" } });
    expect(JSON.stringify(error)).toContain("this message is not one the demo recorded");
    expect((await server.requests()).length).toBe(before.requests);
    const goOn = await client.continueRun(d, () => undefined);
    if (!goOn.ok) throw new Error(goOn.error.message);
    expect(await goOn.value.done).toMatchObject({ status: "complete" });
    expect((await shown(client, d)).at(-1)).toBe("assistant:Going on with my own model.");
  });

  it("refuses to save a thread whose turn was not recorded, and one a run works on", async () => {
    const client = spawn();
    expect(await client.saveDemo("t-empty", {})).toMatchObject({ ok: false, error: { code: "not_recorded" } });
    const server = serverScope(inject("providerServer"));
    await server.script([{ when: { lastUserIncludes: "SLOW-GO" }, text: "slow", delayMs: 3000 }]);
    const t = "t-busy";
    await client.setThreadModel(t, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const started = await client.run(t, { text: "SLOW-GO" }, () => undefined);
    if (!started.ok) throw new Error(started.error.message);
    expect(await client.saveDemo(t, {})).toMatchObject({ ok: false, error: { code: "thread_busy" } });
    await started.value.done;
    // Deleted with the thread: a thread of the same id starts with no record.
    expect((await client.saveDemo(t, {})).ok).toBe(true);
    await client.deleteThread(t);
    expect(await client.saveDemo(t, {})).toMatchObject({ ok: false, error: { code: "not_recorded" } });
  });

  it("refuses to save a demo holding something shaped like a key (the folder's secret check)", async () => {
    const server = serverScope(inject("providerServer"));
    await server.script([{ when: { lastUserIncludes: "KEY-GO" }, text: "Your key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD" }]);
    const client = spawn();
    const t = "t-secret";
    await client.setThreadModel(t, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    await runTurn(client, t, { text: "KEY-GO" });
    const saved = await client.saveDemo(t, {});
    expect(saved).toMatchObject({ ok: false, error: { code: "invalid_agent" } });
    expect(JSON.stringify(saved)).toContain('"code":"secret"');
  });
});
