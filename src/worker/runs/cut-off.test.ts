/**
 * A provider connection that drops in the middle of an answer, through the
 * worker API in Node with the OpenAI-compatible provider on the loopback
 * server: the part that was streamed stays in the thread, marked cut off,
 * and the run's error says the connection dropped after the server
 * answered, without the CORS advice meant for a server never reached.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentEvent, TerminalEvent } from "../../protocol/events.ts";

const serve = serveScripted();

describe("a connection dropped mid-answer", () => {
  it("keeps the streamed part marked cut off; the error says what happened; the next message goes on from it", async () => {
    const server = await serve("openai", [
      { chunks: ["The first part ", "of the answer, ", "and the rest ", "never comes."], delayMs: 50, disconnectAfter: 2 },
      // The server is gone for every retry.
      { disconnect: true },
      { disconnect: true },
      { disconnect: true },
      { text: "Here it is again." },
    ]);
    const { api } = openWorkerApi();
    await api.setThreadModel("t", { provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1` });
    const events: AgentEvent[] = [];
    let finish!: (e: TerminalEvent) => void;
    const done = new Promise<TerminalEvent>((r) => (finish = r));
    const started = await api.startRun("t", { text: "Tell me" }, (e) => {
      events.push(e);
      if (e.type === "done" || e.type === "error") finish(e);
    });
    expect(started.ok).toBe(true);
    const end = await done;
    expect(end.type).toBe("error");
    const message = end.type === "error" ? end.error.message : "";
    expect(message).toContain(`The connection to 127.0.0.1:${server.port} dropped in the middle of the answer`);
    expect(message).not.toMatch(/CORS|Could not reach/);
    expect(events.filter((e) => e.type === "retry").map((e) => e.type === "retry" && e.kind)).toEqual(["dropped", "network", "network"]);

    const view = await api.getThread("t");
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(view.messages[1]).toMatchObject({ content: "The first part of the answer, ", cutOff: true });

    let next!: (e: TerminalEvent) => void;
    const again = new Promise<TerminalEvent>((r) => (next = r));
    await api.startRun("t", { text: "Go on" }, (e) => {
      if (e.type === "done" || e.type === "error") next(e);
    });
    expect(await again).toMatchObject({ type: "done", status: "complete" });
    const last = server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    expect(last.filter((m) => m.role !== "system").map((m) => [m.role, m.content])).toEqual([
      ["user", "Tell me"],
      ["assistant", "The first part of the answer, "],
      ["user", "Go on"],
    ]);
  }, 60_000);
});
