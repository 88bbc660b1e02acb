/**
 * An agent folder's `async_subagents` in the tab's worker (Node, fake-indexeddb, the real worker API): the folder
 * names deeptab's graph on a real `langgraph dev` on loopback; the thread's model (a scripted OpenAI-compatible
 * server) starts a task there; the worker is replaced by a new one over the same database (a reload) while the task
 * runs on the server; the new worker's agent checks it and reads its answer. Every request to the LangGraph server
 * is in the worker's request log.
 */
import "fake-indexeddb/auto";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contentText as textOf,
  startScriptedLangGraph,
  type LangGraphServer,
  type ScriptedLangGraph,
} from "../testing/langgraph-server.ts";
import type { RecordedRequest, ServerReply } from "../testing/provider-servers.ts";
import { collectRun, openWorkerApi, storeFolderAgent } from "../testing/worker-api.ts";
import type { AgentWorkerApi } from "../protocol/worker-api.ts";

type Message = { role?: string; content?: unknown; tool_call_id?: string };

/**
 * One scripted server plays both models, told apart by their first user message: the server-side agent (a "[survey]"
 * task: it answers late, so it is still running when the tab reloads) and the tab's agent ("start" launches the
 * task, "check" checks the task id it was told).
 */
function script(req: RecordedRequest): ServerReply | undefined {
  const messages = (req.body.messages ?? []) as Message[];
  const users = messages.filter((m) => m.role === "user").map((m) => textOf(m.content));
  const last = messages.at(-1);
  if (users[0]?.includes("[survey]")) return { text: "Survey done: 42 answers.", chunks: ["Survey done: 42 answers."], delayMs: 4_000 };
  if (last?.role === "tool") return { text: "Noted." };
  // The person's last message: a status note (the task ended since the last run) may follow it on the wire.
  const said = users.filter((u) => !u.startsWith("Async subagent task ")).at(-1) ?? "";
  if (said === "start")
    return { toolCalls: [{ name: "start_async_task", args: { agentName: "surveyor", description: "[survey] count them" } }] };
  if (said === "check") {
    const told = messages.map((m) => /taskId: (\S+)/.exec(textOf(m.content))?.[1]).find(Boolean);
    return { toolCalls: [{ name: "check_async_task", args: { taskId: told } }] };
  }
  return undefined;
}

let lg: ScriptedLangGraph;
let server: LangGraphServer;
beforeAll(async () => {
  lg = await startScriptedLangGraph(script);
  server = lg.server;
});
afterAll(async () => {
  await lg?.stop();
});

async function send(api: AgentWorkerApi, thread: string, text: string) {
  const run = await collectRun((cb) => api.startRun(thread, { text }, cb));
  const done = await run.done;
  if (done.type !== "done") throw new Error(`the run ended with ${JSON.stringify(done)}`);
  return api.getThread(thread);
}

describe("an agent folder's async subagents in the worker", () => {
  it("starts a task on the server, which finishes while the tab reloads; the reloaded tab checks it", async () => {
    const yaml = [
      "async_subagents:",
      "  surveyor:",
      "    description: Runs long surveys on the team's server.",
      `    url: "${server.url}"`,
      "    graph_id: deeptab",
      "",
    ].join("\n");
    const first = openWorkerApi();
    const agentId = await storeFolderAgent(first.api, { "AGENTS.md": "Delegate surveys.", "agent.yaml": yaml });
    const review = await first.api.reviewAgent(agentId);
    if (!review.ok) throw new Error(review.error.message);
    expect(review.value.asyncSubagents).toEqual([
      { name: "surveyor", description: "Runs long surveys on the team's server.", url: server.url, graphId: "deeptab" },
    ]);
    expect(review.value.hosts).toContainEqual({ origin: new URL(server.url).origin, by: ["agent.yaml async_subagents surveyor"] });
    const set = await first.api.setThreadAgent("t", agentId);
    if (!set.ok) throw new Error(set.error.message);
    await first.api.setThreadModel("t", { provider: "openai-compatible", model: "m", baseUrl: lg.model.baseUrl(), contextWindow: 128_000 });

    const started = await send(first.api, "t", "start");
    const launched = JSON.stringify(started.messages);
    const taskId = /Launched async subagent\. taskId: ([\w-]+)/.exec(launched)?.[1];
    expect(taskId, launched).toBeDefined();
    // The thread's view names the task's server and graph: its card opens the task's thread there.
    expect(started.remoteTasks?.[taskId!]).toEqual({
      taskId,
      agentName: "surveyor",
      url: server.url,
      graphId: "deeptab",
      status: "running",
    });
    const log = await first.api.requestLog();
    expect(log.some((e) => e.host === new URL(server.url).host && e.path.startsWith("/threads"))).toBe(true);

    // A reload: a new worker over the same database; the task goes on on the server meanwhile.
    const second = openWorkerApi(first.db);
    const remote = new Client({ apiUrl: server.url, apiKey: null });
    const [run] = await remote.runs.list(taskId!);
    expect(run?.status).toMatch(/pending|running/);
    await remote.runs.join(taskId!, run!.run_id);

    const checked = await send(second.api, "t", "check");
    const answer = JSON.stringify(checked.messages);
    expect(answer).toContain("Survey done: 42 answers.");
    expect(answer).toContain('\\"status\\":\\"success\\"');
    expect(checked.remoteTasks?.[taskId!]?.status).toBe("success");
  });
});
