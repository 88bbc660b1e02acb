/**
 * Stop in the middle of a step, through the worker API in Node with the
 * OpenAI-compatible provider on the loopback server: a subagent stopped
 * while it streams, calls of the step that had finished, and the next
 * message after them.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { cancelledToolCallContent } from "../../middleware/patch-tool-calls.ts";
import type { ServerReply } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi, waitUntil } from "../../testing/worker-api.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";

const serve = serveScripted();

async function setup(replies: ServerReply[]) {
  const server = await serve("openai", replies);
  const { api } = openWorkerApi();
  await api.setThreadModel("t", { provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1` });
  const chats = () => server.requests.filter((r) => r.path.endsWith("/chat/completions"));
  return { api, chats };
}

const start = (api: AgentWorkerApi, text: string) => collectRun((cb) => api.startRun("t", { text }, cb));

const SLOW_CHILD = Array.from({ length: 40 }, (_, i) => `breed ${i + 1}, `);

describe("Stop in the middle of a step", () => {
  it("inside a subagent: the task is stopped once, its streamed text kept; the model-facing note stays with the model", async () => {
    const { api, chats } = await setup([
      {
        toolCalls: [
          { id: "call_task", name: "task", args: { description: "Survey the cat breeds", subagent_type: "general-purpose" } },
          { id: "call_ls", name: "ls", args: { path: "/" } },
        ],
      },
      { when: { lastUserIncludes: "Survey the cat breeds" }, chunks: SLOW_CHILD, delayMs: 150 },
      { when: { lastUserIncludes: "And dogs?" }, text: "Dogs too." },
    ]);
    const run = await start(api, "Tell me about cats");
    await waitUntil(
      () => run.events.some((e) => e.type === "token" && e.taskId === "call_task" && e.text.includes("breed 2")),
      "the child",
    );
    expect(await api.cancel(run.runId)).toBe(true);
    expect(await run.done).toMatchObject({ type: "done", status: "cancelled" });

    const check = async () => {
      const view = await api.getThread("t");
      const results = view.messages.filter((m) => m.role === "tool");
      // One result per call: `ls` had finished (its result kept), the task was stopped.
      expect(results.map((m) => [m.toolCallId, m.stopped ?? false])).toEqual([
        ["call_task", true],
        ["call_ls", false],
      ]);
      expect(results[1]).toMatchObject({ status: "success", content: "['/memories/', '/skills/']" });
      // What the subagent had written stays under its card, marked stopped.
      const task = view.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === "call_task")!;
      expect(task.children?.at(-1)).toMatchObject({ role: "assistant", stopped: true });
      expect(task.children?.at(-1)?.content).toMatch(/^breed 1, breed 2, /);
      return view;
    };
    await check();

    const next = await start(api, "And dogs?");
    expect(await next.done).toMatchObject({ type: "done", status: "complete" });
    const view = await check();
    expect(view.messages.at(-1)).toMatchObject({ role: "assistant", content: "Dogs too." });
    // The model reads deepagents' note for the stopped call, once.
    const sent = JSON.stringify(chats().at(-1)!.body.messages);
    expect(sent.split(cancelledToolCallContent("task", "call_task")).length - 1).toBe(1);
  }, 30_000);
});
