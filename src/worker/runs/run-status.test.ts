/**
 * What a run says while no answer streams (bug 5: nothing showed between
 * Send and the first token), through the worker API with the
 * OpenAI-compatible provider on the loopback server: each main-agent model
 * call reports `waiting` before its first token, in order with the rest of
 * the run's events; a subagent's calls and the demo's instant answers
 * report nothing. The in-tab model's phases (loading, reading the prompt)
 * are tested with real llama.cpp in worker/models/wllama-agent.browser.test.ts.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentEvent } from "../../protocol/events.ts";

const serve = serveScripted();

async function run(api: ReturnType<typeof openWorkerApi>["api"], threadId: string, text: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const started = await api.startRun(threadId, { text }, (e) => {
    events.push(e);
    if (e.type === "done" || e.type === "error") ended();
  });
  if (!started.ok) throw new Error(started.error.message);
  await done;
  expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({ type: "done", status: "complete" });
  return events;
}

/** The run's events as a short trace: "status:waiting", "token", "messages:assistant", "done", … (todos left out). */
const trace = (events: readonly AgentEvent[]) =>
  events
    .filter((e) => e.type !== "todos")
    .map((e) =>
      e.type === "status"
        ? `status:${e.phase}`
        : e.type === "messages"
          ? `messages:${e.messages.map((m) => m.role).join("+")}${e.taskId ? " (subagent)" : ""}`
          : e.type === "token" && e.taskId
            ? "token (subagent)"
            : e.type,
    )
    // Consecutive tokens are one step, and so is a tool result sent as its call ends and again with its step.
    .filter((step, i, all) => !((step.startsWith("token") || step === "messages:tool") && all[i - 1] === step));

describe("run status events", () => {
  it("a provider turn says it waits for the provider before each model call's first token, never after it", async () => {
    const server = await serve("openai", [
      { toolCalls: [{ name: "write_file", args: { file_path: "/a.md", content: "a" } }] },
      { chunks: ["Wrote", " it", "."] },
    ]);
    const { api } = openWorkerApi();
    await api.setThreadModel("t", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl(), contextWindow: 32_768 });
    const events = await run(api, "t", "write a");
    expect(trace(events)).toEqual([
      "status:waiting",
      "messages:assistant",
      "messages:tool",
      "status:waiting",
      "token",
      "messages:assistant",
      "done",
    ]);
    expect(events.filter((e) => e.type === "status").every((e) => e.runId === events.at(-1)!.runId)).toBe(true);
  });

  it("a subagent's model calls say nothing (its activity shows under its task card); the main agent's do", async () => {
    const server = await serve("openai", [
      { toolCalls: [{ name: "task", args: { description: "Count the files", subagent_type: "general-purpose" } }] },
      { when: { lastUserIncludes: "Count the files" }, chunks: ["None", "."] },
      { chunks: ["The subagent", " found none."] },
    ]);
    const { api } = openWorkerApi();
    await api.setThreadModel("t", { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl(), contextWindow: 32_768 });
    const steps = trace(await run(api, "t", "how many files?"));
    expect(steps.filter((s) => s.startsWith("status"))).toEqual(["status:waiting", "status:waiting"]);
    expect(steps.indexOf("token (subagent)")).toBeGreaterThan(steps.indexOf("status:waiting"));
    expect(steps.lastIndexOf("status:waiting")).toBeGreaterThan(steps.indexOf("messages:assistant (subagent)"));
    expect(steps.lastIndexOf("status:waiting")).toBe(steps.lastIndexOf("token") - 1);
  });

  it("the demo answers at once: no status", async () => {
    const { api } = openWorkerApi();
    const events = await run(api, "demo", "hello");
    expect(events.some((e) => e.type === "token")).toBe(true);
    expect(events.filter((e) => e.type === "status")).toEqual([]);
  });
});
