/**
 * Async subagents (deepagents' `AsyncSubAgent`): an agent as the tab runs it (createDeepAgent in this process, its
 * checkpoints in a MemorySaver standing for the tab's IndexedDB) launches a task on deeptab's graph served by a real
 * `langgraph dev` on loopback, whose model is a scripted OpenAI-compatible server. The task runs on the server while
 * the "tab" is rebuilt from its checkpoints (a reload); the rebuilt agent checks, updates, lists and cancels it
 * through the five tools, talking to the server with the real LangGraph SDK.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { isNote } from "../core/messages.ts";
import { ASYNC_TASK_TOOL_NAMES, type AsyncSubAgent, type AsyncTask } from "../middleware/async-subagents.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";
import {
  contentText as textOf,
  freePort,
  startScriptedLangGraph,
  type LangGraphServer,
  type ScriptedLangGraph,
} from "../testing/langgraph-server.ts";
import type { RecordedRequest, ServerReply } from "../testing/provider-servers.ts";

type Message = { role?: string; content?: unknown };

/** The server-side agent's model: a report task writes a file, then answers (late, so it is seen running); a long task waits. */
function remoteScript(req: RecordedRequest): ServerReply | undefined {
  const messages = (req.body.messages ?? []) as Message[];
  const users = messages.filter((m) => m.role === "user").map((m) => textOf(m.content));
  const step = messages.filter((m) => m.role === "tool").length;
  if (users[0]?.includes("[report]")) {
    if (users.length > 1) return { text: "Focused report: only the second finding holds." };
    return step === 0
      ? { toolCalls: [{ name: "write_file", args: { file_path: "/report.md", content: "# Findings\n1. one\n2. two\n" } }] }
      : // One chunk, 6 s late: long enough that the tab's first check finds it running even on a loaded machine.
        { text: "Report: two findings, written to /report.md.", chunks: ["Report: two findings, written to /report.md."], delayMs: 6_000 };
  }
  if (users[0]?.includes("[long]")) return { text: "Too late.", delayMs: 60_000 };
  return undefined;
}

/** The tab agent's model: each user word maps to one tool call, then a short answer. */
function tabScript(ctx: ScriptContext): ScriptedTurn {
  const last = ctx.messages.at(-1);
  if (last instanceof ToolMessage || ToolMessage.isInstance(last)) return { text: "Done." };
  // The person's last message: a status note (a task that ended since the last run) may follow it.
  const said = textOf(ctx.messages.findLast((m) => HumanMessage.isInstance(m) && !isNote(m))?.content);
  // The task ids the agent was told, in launch order.
  const told = ctx.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => /taskId: (\S+)/.exec(textOf(m.content))?.[1]);
  const ids = [...new Set(told.filter((id): id is string => Boolean(id)))];
  const [command, arg] = said.split(" ");
  switch (command) {
    case "start":
      return { toolCalls: [{ name: "start_async_task", args: { agentName: "researcher", description: `[${arg}] research it` } }] };
    case "check":
      return { toolCalls: [{ name: "check_async_task", args: { taskId: ids[Number(arg)] ?? arg } }] };
    case "update":
      return { toolCalls: [{ name: "update_async_task", args: { taskId: ids[0], message: "focus on the second finding" } }] };
    case "cancel":
      return { toolCalls: [{ name: "cancel_async_task", args: { taskId: ids[Number(arg)] } }] };
    case "list":
      return { toolCalls: [{ name: "list_async_tasks", args: arg ? { statusFilter: arg } : {} }] };
    case "unknown":
      return { toolCalls: [{ name: "start_async_task", args: { agentName: "nobody", description: "x" } }] };
    default:
      return { text: "?" };
  }
}

let lg: ScriptedLangGraph;
let server: LangGraphServer;
beforeAll(async () => {
  lg = await startScriptedLangGraph(remoteScript);
  server = lg.server;
});
afterAll(async () => {
  await lg?.stop();
});

describe("async subagents on a LangGraph server", () => {
  const checkpointer = new MemorySaver();
  const config = { configurable: { thread_id: "tab-thread" } };
  /** The tab's agent, built afresh each time (a reload builds it again over the same checkpoints). */
  const tab = () => {
    const researcher: AsyncSubAgent = { name: "researcher", description: "Researches on the server.", graphId: "deeptab", url: server.url };
    return createDeepAgent({ model: new ScriptedChatModel({ script: tabScript }), subagents: [researcher], checkpointer });
  };
  const say = async (text: string): Promise<{ answer: string; tasks: Record<string, AsyncTask> }> => {
    const out = await tab().invoke({ messages: [new HumanMessage(text)] }, config);
    const messages = out.messages as BaseMessage[];
    const tool = messages.filter((m) => ToolMessage.isInstance(m)).at(-1);
    return { answer: textOf(tool?.content), tasks: ((out as Record<string, unknown>).asyncTasks ?? {}) as Record<string, AsyncTask> };
  };
  const sdk = () => new Client({ apiUrl: server.url, apiKey: null });

  it("offers the five tools, with upstream's names, beside task", async () => {
    const scripted = new ScriptedChatModel({ script: [{ text: "hi" }] });
    const researcher = { name: "r", description: "d", graphId: "deeptab", url: server.url };
    await createDeepAgent({ model: scripted, subagents: [researcher] }).invoke({ messages: [new HumanMessage("hi")] });
    expect(scripted.calls[0]!.tools).toEqual(expect.arrayContaining([...ASYNC_TASK_TOOL_NAMES, "task"]));
  });

  it("launches a task that finishes on the server while the tab reloads, then checks, updates and lists it", async () => {
    const started = await say("start report");
    expect(started.answer).toMatch(/^Launched async subagent\. taskId: \S+$/);
    const [task] = Object.values(started.tasks);
    expect(task).toMatchObject({ agentName: "researcher", status: "running", description: "[report] research it" });
    expect(task!.taskId).toBe(task!.threadId);

    // The task is a thread on the server, running its own agent.
    const remote = sdk();
    const thread = await remote.threads.get(task!.threadId);
    expect(thread.thread_id).toBe(task!.taskId);

    // Checked at once, it is still running (the server's model answers after 6 s).
    const early = JSON.parse((await say("check 0")).answer) as { status: string };
    expect(["pending", "running"]).toContain(early.status);

    // The tab is gone meanwhile (every `say` builds the agent anew from the checkpoints); the server finishes alone.
    await remote.runs.join(task!.threadId, task!.runId);
    const done = await say("check 0");
    // The run began with a note that the task ended (Python deepagents 0.7.27's status updates), once.
    const notes = (await tab().getState(config)).values.messages
      .filter((m: BaseMessage) => isNote(m))
      .map((m: BaseMessage) => textOf(m.content));
    expect(notes).toEqual([
      `Async subagent task ${task!.taskId} (researcher) finished. Call check_async_task with this taskId for its result.`,
    ]);
    expect(JSON.parse(done.answer)).toEqual({
      status: "success",
      threadId: task!.threadId,
      result: "Report: two findings, written to /report.md.",
    });
    expect(done.tasks[task!.taskId]).toMatchObject({ status: "success", checkedAt: expect.any(String) });
    // The work is on the server, in the task's thread (deepagents' files channel).
    const state = await remote.threads.getState<{ files?: Record<string, { content: string }> }>(task!.threadId);
    expect(state.values.files?.["/report.md"]?.content).toContain("two");

    // A follow-up runs on the same thread (same task id, a new run) and sees the history.
    const updated = await say("update");
    expect(updated.answer).toBe(`Updated async subagent. taskId: ${task!.taskId}`);
    const newRun = updated.tasks[task!.taskId]!;
    expect(newRun.runId).not.toBe(task!.runId);
    await remote.runs.join(task!.threadId, newRun.runId);
    expect(JSON.parse((await say("check 0")).answer)).toMatchObject({
      status: "success",
      result: "Focused report: only the second finding holds.",
    });

    expect((await say("list")).answer).toBe(`1 tracked task(s):\n- taskId: ${task!.taskId} agent: researcher status: success`);
    expect((await say("list running")).answer).toBe("No async subagent tasks tracked");
  });

  it("cancels a running task on the server", async () => {
    const started = await say("start long");
    const id = /taskId: (\S+)/.exec(started.answer)![1]!;
    const ids = Object.keys(started.tasks);
    const cancelled = await say(`cancel ${ids.indexOf(id)}`);
    expect(cancelled.answer).toBe(`Cancelled async subagent task: ${id}`);
    expect(cancelled.tasks[id]).toMatchObject({ status: "cancelled" });
    const run = await sdk().runs.get(id, started.tasks[id]!.runId);
    expect(run.status).not.toBe("success");
    // A cancelled task is final: listing does not ask the server again.
    expect((await say("list cancelled")).answer).toBe(`1 tracked task(s):\n- taskId: ${id} agent: researcher status: cancelled`);
  });

  it("answers the model plainly for an unknown type, an unknown task and a server that is not there", async () => {
    expect((await say("unknown")).answer).toBe("Unknown async subagent type `nobody`. Available types: `researcher`");
    expect((await say("check no-such-task")).answer).toBe("No tracked task found for taskId: 'no-such-task'");
    const gone = createDeepAgent({
      model: new ScriptedChatModel({ script: tabScript }),
      subagents: [{ name: "researcher", description: "d", graphId: "deeptab", url: `http://127.0.0.1:${await freePort()}` }],
      checkpointer,
    });
    const out = await gone.invoke({ messages: [new HumanMessage("start report")] }, { configurable: { thread_id: "gone" } });
    const result = (out.messages as BaseMessage[]).filter((m): m is ToolMessage => ToolMessage.isInstance(m)).at(-1);
    expect(textOf(result?.content)).toMatch(/^Failed to launch async subagent 'researcher': /);
    // Upstream's words, marked as a failed call (the page shows it as one).
    expect(result?.status).toBe("error");
  });
});
