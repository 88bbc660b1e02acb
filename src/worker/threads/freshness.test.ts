/**
 * The agent sees a user's file change on its next step: skills and memory
 * the user writes through the worker's files service (what the files panel
 * calls) are in the very next model request, in a thread that already ran
 * (its skills were loaded) and in the middle of a run. The loopback
 * OpenAI-compatible server records every request the agent makes.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";

const serve = serveScripted();

const SKILL = "---\nname: release-notes\ndescription: Write release notes from the changelog.\n---\n\nSteps.\n";

/** The system text the model got in a recorded chat request. */
function systemOf(req: RecordedRequest): string {
  const messages = (req.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

async function setup() {
  const server = await serve("openai");
  const { api } = openWorkerApi();
  await api.setThreadModel("t", { provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1` });
  const chats = async () => server.requests.filter((r) => r.path.endsWith("/chat/completions"));
  return { server, api, chats };
}

/** Starts a run; resolves with its terminal event. */
async function run(api: AgentWorkerApi, text: string): Promise<AgentEvent> {
  let ended!: (e: AgentEvent) => void;
  const done = new Promise<AgentEvent>((r) => (ended = r));
  const started = await api.startRun("t", { text }, (e) => {
    if (e.type === "done" || e.type === "error") ended(e);
  });
  if (!started.ok) throw new Error(started.error.message);
  return done;
}

describe("a user's file change reaches the agent's next model call", () => {
  it("between runs: a skill created and AGENTS.md edited after the thread ran are in the next request", async () => {
    const { server, api, chats } = await setup();
    expect(await api.writeFile("t", "/memories/AGENTS.md", "The user likes tea.")).toEqual({ ok: true, value: null });
    server.script([{ text: "Noted." }]);
    expect(await run(api, "hello")).toMatchObject({ type: "done", status: "complete" });
    const first = systemOf((await chats())[0]!);
    expect(first).toContain("The user likes tea.");
    expect(first).not.toContain("release-notes");

    // The user, in the files panel: a new skill, and an edit of the memory.
    expect((await api.writeFile("t", "/skills/release-notes/SKILL.md", SKILL)).ok).toBe(true);
    expect((await api.writeFile("t", "/memories/AGENTS.md", "The user likes coffee now.")).ok).toBe(true);
    server.script([{ text: "Sure." }]);
    expect(await run(api, "again")).toMatchObject({ type: "done", status: "complete" });
    const second = systemOf((await chats())[1]!);
    expect(second).toContain("- release-notes: Write release notes from the changelog. (/skills/release-notes/SKILL.md)");
    expect(second).toContain("The user likes coffee now.");
    expect(second).not.toContain("The user likes tea.");
  });

  it("during a run: changes made while the model's first answer is on its way are in the run's next request", async () => {
    const { server, api, chats } = await setup();
    server.script([{ text: "warm-up" }]);
    await run(api, "warm up"); // The thread has run: its skills index was read (empty).
    server.script([{ toolCalls: [{ name: "ls", args: { path: "/" } }], delayMs: 1_500 }, { text: "Done." }]);
    const finished = run(api, "look around");
    for (let i = 0; i < 200 && (await chats()).length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await chats()).length).toBe(2);
    // The first request of this run is out; its answer is delayed. The user edits now.
    expect((await api.writeFile("t", "/skills/release-notes/SKILL.md", SKILL)).ok).toBe(true);
    expect((await api.writeFile("t", "/memories/AGENTS.md", "Written mid-run.")).ok).toBe(true);
    expect(await finished).toMatchObject({ type: "done", status: "complete" });
    const requests = await chats();
    expect(requests).toHaveLength(3);
    expect(systemOf(requests[1]!)).not.toContain("release-notes");
    expect(systemOf(requests[1]!)).not.toContain("Written mid-run.");
    expect(systemOf(requests[2]!)).toContain("- release-notes: Write release notes from the changelog.");
    expect(systemOf(requests[2]!)).toContain("Written mid-run.");
  });
});
