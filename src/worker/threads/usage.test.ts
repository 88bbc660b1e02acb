/**
 * Usage and the context window in the thread view, through the worker API
 * with the OpenAI-compatible provider on the loopback server: the thread's
 * totals count its subagents' model calls (read from their own threads),
 * the last request is counted once (cache reads are part of the prompt),
 * and a server that reports no window gets the window the agent runs with,
 * marked assumed.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { LOCAL_SERVER_WINDOW } from "../../models/providers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import { triggerFor } from "./thread-view.ts";

const serve = serveScripted();

describe("usage in the thread view", () => {
  it("totals the main agent's and its subagent's calls; the meter's window is the one the agent uses", async () => {
    const server = await serve("openai", [
      {
        toolCalls: [{ name: "task", args: { description: "Count the files", subagent_type: "general-purpose" } }],
        usage: { input: 1_000, output: 20 },
      },
      { when: { lastUserIncludes: "Count the files" }, text: "There are none.", usage: { input: 400, output: 10, cacheRead: 300 } },
      { text: "The subagent found no files.", usage: { input: 1_500, output: 25, cacheRead: 1_000 } },
    ]);
    const { api } = openWorkerApi();
    await api.setThreadModel("t", { provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1` });
    const events: AgentEvent[] = [];
    let ended!: () => void;
    const done = new Promise<void>((r) => (ended = r));
    const started = await api.startRun("t", { text: "How many files?" }, (e) => {
      events.push(e);
      if (e.type === "done" || e.type === "error") ended();
    });
    expect(started.ok).toBe(true);
    await done;
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });

    const view = await api.getThread("t");
    // Subagents' calls are part of the thread's usage (the main agent alone: 2,500 in · 45 out · 1,000 cached).
    expect(view.usage).toEqual({ input: 2_900, output: 55, cacheRead: 1_300 });
    // The last request: 1,500 prompt tokens (1,000 of them cached, not counted twice) and the 25 of its answer.
    expect(view.lastRequestTokens).toBe(1_525);
    // The task card carries its subagent's call with that call's usage.
    const task = view.messages.find((m) => m.toolCalls?.some((c) => c.name === "task"))!.toolCalls![0]!;
    expect(task.children?.find((c) => c.role === "assistant")?.usage).toEqual({ input: 400, output: 10, cacheRead: 300 });
    // The loopback server reports no window: the view shows the one the agent assumed, and says it is assumed.
    expect(view).toMatchObject({ window: LOCAL_SERVER_WINDOW, trigger: triggerFor(LOCAL_SERVER_WINDOW), windowAssumed: true });
    // The settings' "model default" stays unknown for it, so they say what is assumed instead.
    expect(await api.defaultWindow({ provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1` })).toBeUndefined();

    await api.setThreadModel("t", {
      provider: "openai-compatible",
      model: "e2e-model",
      baseUrl: `${server.url}/v1`,
      contextWindow: 16_000,
    });
    const set = await api.getThread("t");
    expect(set).toMatchObject({ window: 16_000, trigger: triggerFor(16_000) });
    expect(set.windowAssumed).toBeUndefined();
  });

  it("counts a subagent's summarization calls: they leave no message, its thread's summarization event carries them", async () => {
    // The subagent's first answer is long (about 7,800 tokens as reported): its next request is over the trigger of an
    // 8,192-token window, so its context is summarized first, by a call of its own.
    const long = Array.from({ length: 600 }, (_, i) => `Paragraph ${i + 1} of the long first answer, with words.`).join("\n\n");
    const server = await serve("openai", [
      {
        toolCalls: [{ name: "task", args: { description: "Count the files", subagent_type: "general-purpose" } }],
        usage: { input: 1_000, output: 20 },
      },
      {
        when: { lastUserIncludes: "Count the files" },
        text: long,
        toolCalls: [{ name: "ls", args: {} }],
        usage: { input: 900, output: 7_800 },
      },
      { text: "The subagent listed the files after a long answer.", usage: { input: 6_000, output: 40 } },
      { text: "There are none.", usage: { input: 700, output: 10 } },
      { text: "The subagent found no files.", usage: { input: 1_500, output: 25 } },
    ]);
    const { api } = openWorkerApi();
    await api.setThreadModel("s", { provider: "openai-compatible", model: "e2e-model", baseUrl: `${server.url}/v1`, contextWindow: 8_192 });
    let ended!: (e: AgentEvent) => void;
    const done = new Promise<AgentEvent>((r) => (ended = r));
    await api.startRun("s", { text: "How many files?" }, (e) => {
      if (e.type === "done" || e.type === "error") ended(e);
    });
    expect(await done).toMatchObject({ type: "done", status: "complete" });
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(5);

    const view = await api.getThread("s");
    // Main 2,500 in · 45 out; subagent 1,600 in · 7,810 out; its summarization 6,000 in · 40 out.
    expect(view.usage).toEqual({ input: 10_100, output: 7_895 });
  });
});
