/**
 * The page's LangGraph client (page/langgraph-client.ts) against a real `langgraph dev` serving deeptab's graph on
 * loopback, with a scripted OpenAI-compatible model as `DEEPTAB_MODEL`: assistants, a streamed multi-step run, the
 * thread's files and todos from its state, Stop, rejoining a running run from a second connection, answering an
 * approval, following messages queued during a run one run after another (the runtime's runQueued), and the
 * expected failures (unreachable, 401, a run that fails on the server, a URL that is not one).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLangGraph, type LangGraphConnection } from "./langgraph-client.ts";
import { routeClient } from "./langgraph-runtime.ts";
import type { AgentClient } from "./client.ts";
import type { TerminalEvent } from "../protocol/events.ts";
import {
  contentText,
  expectOk,
  freePort,
  recorder,
  scenarioScript,
  startScriptedLangGraph,
  type LangGraphServer,
  type ScriptedLangGraph,
} from "../testing/langgraph-server.ts";
import type { RecordedRequest, ServerReply } from "../testing/provider-servers.ts";

const SLOW = Array.from({ length: 24 }, (_, i) => `word${i} `);

/** Each scenario's model turn by step (tool results so far), chosen by the thread's first user message. */
const SCENARIOS: Record<string, ServerReply[]> = {
  notes: [
    { toolCalls: [{ name: "write_file", args: { file_path: "/notes/a.txt", content: "alpha\nbeta\ngamma\n" } }] },
    { toolCalls: [{ name: "write_todos", args: { todos: [{ content: "count the notes", status: "in_progress" }] } }] },
    { chunks: ["Three ", "notes ", "written."] },
  ],
  approval: [{ toolCalls: [{ name: "execute", args: { command: "echo ran > /ran.txt" } }] }, { text: "Finished." }],
  // 24 chunks 400 ms apart: about 10 s, long enough to stop or rejoin on a loaded machine.
  slow: [{ chunks: SLOW, delayMs: 400 }],
  broken: [{ status: 400, body: { error: { message: "scripted: this model cannot answer", type: "invalid_request_error" } } }],
};

/**
 * `[queue]` threads: the first message's answer stops after two chunks until the test has queued more (`releaseQueue`:
 * a paced answer could end first on a loaded machine); each later one is answered by name.
 */
function queueScript(req: RecordedRequest): ServerReply | undefined {
  const users = ((req.body.messages ?? []) as Array<{ role?: string; content?: unknown }>).filter((m) => m.role === "user");
  if (!contentText(users[0]?.content).includes("[queue]")) return undefined;
  return users.length === 1
    ? { chunks: SLOW.slice(0, 12), delayMs: 400, hold: { after: 2, until: queueHeld } }
    : { chunks: ["Answer to ", `${contentText(users.at(-1)!.content)}.`], delayMs: 500 };
}

let releaseQueue = () => {};
const queueHeld = new Promise<void>((resolve) => (releaseQueue = resolve));

let scripted: ScriptedLangGraph;
let server: LangGraphServer;
let lg: LangGraphConnection;
let assistant = "";

beforeAll(async () => {
  const scenarios = scenarioScript(SCENARIOS);
  scripted = await startScriptedLangGraph((req, n) => queueScript(req) ?? scenarios(req, n), "execute");
  server = scripted.server;
  lg = await expectOk(connectLangGraph({ url: server.url }));
  const assistants = await expectOk(lg.assistants());
  assistant = assistants.find((a) => a.graphId === "deeptab")!.id;
});
afterAll(async () => {
  await scripted?.stop();
});

describe("the page's LangGraph client on `langgraph dev`", () => {
  it("lists the server's assistants", async () => {
    const assistants = await expectOk(lg.assistants());
    expect(assistants).toContainEqual({ id: assistant, graphId: "deeptab", name: expect.any(String) });
  });

  it("streams a multi-step run as the page's events, then shows the thread's messages, files and todos from its state", async () => {
    const threadId = crypto.randomUUID();
    const { events, onEvent } = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[notes] write notes" }, onEvent));
    expect(await run.done).toEqual({ type: "done", runId: run.runId, status: "complete" });

    const tokens = events.filter((e) => e.type === "token").map((e) => e.text);
    expect(tokens.join("")).toBe("Three notes written.");
    const streamed = events.flatMap((e) => (e.type === "messages" ? e.messages : []));
    expect(streamed.find((m) => m.toolCalls?.[0]?.name === "write_file")?.toolCalls?.[0]?.args).toMatchObject({
      file_path: "/notes/a.txt",
    });
    expect(streamed.find((m) => m.role === "tool" && m.name === "write_todos")).toBeDefined();
    expect(events.find((e) => e.type === "todos")).toMatchObject({ todos: [{ content: "count the notes", status: "in_progress" }] });
    expect(events.at(-1)?.type).toBe("done");

    const thread = await expectOk(lg.thread(threadId));
    expect(thread.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    expect(thread.messages.at(-1)!.content).toBe("Three notes written.");
    expect(thread.todos).toEqual([{ content: "count the notes", status: "in_progress" }]);
    expect(thread.files).toEqual([
      { path: "/notes", isDir: true, size: 0 },
      { path: "/notes/a.txt", isDir: false, size: 17, modifiedAt: expect.any(String) },
    ]);
    expect(thread.approval).toBeNull();
    const page = await expectOk(lg.readFile(threadId, "/notes/a.txt", 1, 10));
    expect(page).toMatchObject({ lines: ["beta", "gamma"], totalLines: 3, offset: 1, binary: false });
    expect(await lg.readFile(threadId, "/nope.txt", 0, 10)).toMatchObject({ ok: false, error: { code: "not_found" } });

    const listed = await expectOk(lg.threads());
    expect(listed.find((t) => t.id === threadId)).toMatchObject({ title: "[notes] write notes", messageCount: 2 });
  });

  it("pauses at an approval, shows it as the page's pending approval, and approves it", async () => {
    const threadId = crypto.randomUUID();
    const first = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[approval] run it" }, first.onEvent));
    expect(await run.done).toMatchObject({ type: "done", status: "interrupted" });
    const shown = first.events.find((e) => e.type === "interrupt");
    const expected = {
      actions: [
        {
          name: "execute",
          args: { command: "echo ran > /ran.txt" },
          description: expect.stringContaining("execute"),
          allowedDecisions: ["approve", "edit", "reject", "respond"],
        },
      ],
    };
    expect(shown).toMatchObject({ approval: expected });

    const paused = await expectOk(lg.thread(threadId));
    expect(paused.approval).toMatchObject(expected);
    expect(paused.files.map((f) => f.path)).not.toContain("/ran.txt");

    // Decisions for a request that no longer waits are refused, and nothing runs.
    const stale = await lg.run(
      threadId,
      assistant,
      { decisions: [{ type: "approve" }], approvalId: "answered-elsewhere" },
      () => undefined,
    );
    expect(stale).toMatchObject({ ok: false, error: { code: "approval_changed" } });

    const second = recorder();
    const decisions = [{ type: "approve" as const }];
    const resumed = await expectOk(lg.run(threadId, assistant, { decisions, approvalId: paused.approval!.id }, second.onEvent));
    expect(await resumed.done).toMatchObject({ type: "done", status: "complete" });
    const done = await expectOk(lg.thread(threadId));
    expect(done.approval).toBeNull();
    expect(done.files.map((f) => f.path)).toContain("/ran.txt");
    expect(done.messages.find((m) => m.role === "tool" && m.name === "execute")?.content).toMatch(/exit code 0/);
    expect(done.messages.at(-1)!.content).toBe("Finished.");
  });

  it("stops a run: the server's run ends cancelled long before the model would have finished", async () => {
    const threadId = crypto.randomUUID();
    const { events, onEvent } = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[slow] talk" }, onEvent));
    await expect.poll(() => events.some((e) => e.type === "token"), { timeout: 60_000 }).toBe(true);
    expect(await lg.cancel(threadId, run.runId)).toEqual({ ok: true, value: null });
    const end: TerminalEvent = await run.done;
    expect(end).toEqual({ type: "done", runId: run.runId, status: "cancelled" });
    const streamed = events
      .filter((e) => e.type === "token")
      .map((e) => e.text)
      .join("");
    expect(streamed.length).toBeLessThan(SLOW.join("").length);
    expect(await expectOk(lg.activeRun(threadId))).toBeNull();
    const thread = await expectOk(lg.thread(threadId));
    expect(thread.running).toBe(false);
    // The API forgets a stopped thread's values; its checkpoint still has the user's message, and the answer as far as
    // it had streamed is kept in the thread, marked stopped, as the tab keeps it.
    expect(thread.messages).toEqual([
      expect.objectContaining({ role: "user", content: "[slow] talk" }),
      expect.objectContaining({ role: "assistant", content: streamed, stopped: true }),
    ]);
    expect((await expectOk(lg.threads())).find((t) => t.id === threadId)).toMatchObject({ title: "[slow] talk", messageCount: 2 });
  });

  it("steers with LangGraph's enqueue strategy: a message sent during a run runs after it; a pending one can be dropped", async () => {
    const threadId = crypto.randomUUID();
    const first = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[slow] steer me" }, first.onEvent));
    await expect.poll(() => first.events.some((e) => e.type === "token"), { timeout: 60_000 }).toBe(true);
    const kept = await expectOk(lg.enqueue(threadId, assistant, "queued: keep me"));
    const dropped = await expectOk(lg.enqueue(threadId, assistant, "queued: drop me"));
    expect(await expectOk(lg.dropQueued(threadId, dropped))).toBe(true);
    // The current run is not disturbed: it ends complete, and then the queued one runs (the page follows it).
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });
    await expect.poll(async () => expectOk(lg.activeRun(threadId)), { timeout: 60_000 }).toBe(kept);
    const next = recorder();
    const joined = await expectOk(lg.join(threadId, kept, next.onEvent));
    expect(await joined.done).toMatchObject({ type: "done", status: "complete" });
    expect(await expectOk(lg.dropQueued(threadId, kept))).toBe(false);
    const thread = await expectOk(lg.thread(threadId));
    expect(thread.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["[slow] steer me", "queued: keep me"]);
    expect(thread.messages.at(-1)).toMatchObject({ role: "assistant", content: SLOW.join("") });
  }, 180_000);

  it("follows two messages queued during a run in turn (the runtime's runQueued): both answers, in order, as one turn", async () => {
    const threadId = crypto.randomUUID();
    const client = routeClient({ onThreadEvent: () => () => undefined } as unknown as AgentClient, () => ({
      connection: lg,
      assistantId: assistant,
      assistantName: "deeptab",
    }));
    const first = recorder();
    const run = await expectOk(client.run(threadId, { text: "[queue] start" }, first.onEvent));
    await expect.poll(() => first.events.some((e) => e.type === "token"), { timeout: 60_000 }).toBe(true);
    const one = await expectOk(client.steer(threadId, "queued one"));
    const two = await expectOk(client.steer(threadId, "queued two"));
    releaseQueue();
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });

    const next = recorder();
    const turn = await expectOk(client.runQueued(threadId, next.onEvent));
    expect(turn.runId).toBe(one.id);
    expect(await turn.done).toEqual({ type: "done", runId: one.id, status: "complete" });
    // Every event under the turn's id; the second run's message announced as it starts, between the two answers.
    expect(next.events.every((e) => e.runId === one.id)).toBe(true);
    const story = next.events.flatMap((e) =>
      e.type === "token" ? [e.text] : e.type === "steered" ? [`<${e.messages.map((m) => m.content).join()}>`] : [],
    );
    expect(story.join("")).toBe("Answer to queued one.<queued two>Answer to queued two.");
    expect(next.events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
    expect(next.events.find((e) => e.type === "steered")).toMatchObject({ ids: [two.id] });
    expect(await expectOk(lg.activeRun(threadId))).toBeNull();

    const thread = await expectOk(lg.thread(threadId));
    expect(thread.messages.map((m) => `${m.role}: ${m.content}`)).toEqual([
      "user: [queue] start",
      `assistant: ${SLOW.slice(0, 12).join("")}`,
      "user: queued one",
      "assistant: Answer to queued one.",
      "user: queued two",
      "assistant: Answer to queued two.",
    ]);
  }, 180_000);

  it("rejoins a running run from another connection (a reload) and sees it to its end", async () => {
    const threadId = crypto.randomUUID();
    const first = recorder();
    const run = await expectOk(lg.run(threadId, assistant, { text: "[slow] talk on" }, first.onEvent));
    await expect.poll(() => first.events.some((e) => e.type === "token"), { timeout: 60_000 }).toBe(true);

    const reloaded = await expectOk(connectLangGraph({ url: server.url }));
    expect(await expectOk(reloaded.thread(threadId))).toMatchObject({ running: true });
    const active = await expectOk(reloaded.activeRun(threadId));
    expect(active).toBe(run.runId);
    const second = recorder();
    const joined = await expectOk(reloaded.join(threadId, active!, second.onEvent));
    expect(await joined.done).toEqual({ type: "done", runId: run.runId, status: "complete" });
    expect(second.events.some((e) => e.type === "token")).toBe(true);
    expect(await run.done).toMatchObject({ type: "done", status: "complete" });
    const thread = await expectOk(reloaded.thread(threadId));
    expect(thread.messages.at(-1)!.content).toBe(SLOW.join(""));
  });

  it("reports a run that fails on the server as the run's error, with the server's reason", async () => {
    const { events, onEvent } = recorder();
    const run = await expectOk(lg.run(crypto.randomUUID(), assistant, { text: "[broken] answer" }, onEvent));
    const end = await run.done;
    expect(end).toMatchObject({
      type: "error",
      error: { code: "run_failed", message: expect.stringMatching(/^The run failed on the server/) },
    });
    expect(events.at(-1)).toEqual(end);
  });
});

describe("the client's expected failures", () => {
  let refusing: Server;
  beforeAll(async () => {
    refusing = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: "Invalid API key" }));
    });
    await new Promise<void>((done) => refusing.listen(0, "127.0.0.1", done));
  });
  afterAll(async () => {
    await new Promise((done) => refusing.close(done));
  });

  it("says the server is unreachable, naming how to start one", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const conn = await expectOk(connectLangGraph({ url }));
    const listed = await conn.assistants();
    expect(listed).toMatchObject({ ok: false, error: { code: "unreachable", message: expect.stringContaining(url) } });
    expect(!listed.ok && listed.error.message).toContain("npm run serve");
  });

  it("says the key was refused on a 401, never echoing the key", async () => {
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    const conn = await expectOk(connectLangGraph({ url, apiKey: "lg-secret-key-123" }));
    const listed = await conn.threads();
    expect(listed).toMatchObject({ ok: false, error: { code: "unauthorized", status: 401, message: expect.stringContaining("API key") } });
    expect(JSON.stringify(listed)).not.toContain("lg-secret-key-123");
  });

  it("refuses a URL that is not http(s) before any request", async () => {
    expect(await connectLangGraph({ url: "localhost:2024" })).toMatchObject({ ok: false, error: { code: "invalid_url" } });
    expect(await connectLangGraph({ url: "not a url" })).toMatchObject({ ok: false, error: { code: "invalid_url" } });
  });
});
