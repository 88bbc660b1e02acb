/**
 * What the async subagents' tools do (async-subagents.ts describes them; this module loads on the first call, with
 * the LangGraph SDK after it). Answers are upstream's (deepagentsjs `async_subagents.ts`), word for word.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type * as Sdk from "@langchain/langgraph-sdk";
import { ASYNC_SUBAGENT_SOURCE } from "../core/messages.ts";
import type { AgentState, StateUpdate, ToolOutput, ToolRuntime } from "../harness/types.ts";
import { ASYNC_TASKS, TERMINAL_STATUSES, type AsyncSubAgent, type AsyncTask, type AsyncTaskStatus, type TaskEvent } from "./async-tasks.ts";
import { forkMessages } from "./subagents.ts";

/** What the tools use of a LangGraph SDK client. */
export type AsyncTaskClient = Pick<Sdk.Client, "threads" | "runs">;

/** What every run needs: the subagents by name and their clients (one per server and headers, made on first use). */
export interface AsyncTaskContext {
  agents: ReadonlyMap<string, AsyncSubAgent>;
  clientFor(name: string): Promise<AsyncTaskClient>;
}

const now = () => new Date().toISOString();

/** The task's record with a status just read from the server (its description dropped, as upstream's). */
function withStatus(task: AsyncTask, status: AsyncTaskStatus, checkedAt: string | undefined): AsyncTask {
  const updatedAt = status !== task.status ? now() : task.updatedAt;
  return {
    taskId: task.taskId,
    agentName: task.agentName,
    threadId: task.threadId,
    runId: task.runId,
    status,
    createdAt: task.createdAt,
    ...(updatedAt === undefined ? {} : { updatedAt }),
    ...(checkedAt === undefined ? {} : { checkedAt }),
    // deeptab's: where the task runs, kept for the page.
    ...(task.url === undefined ? {} : { url: task.url }),
    ...(task.graphId === undefined ? {} : { graphId: task.graphId }),
  };
}

/**
 * Text of an error for the model (the agent's redaction hides keys in it before it is kept). A request a browser
 * could not make at all (`Failed to fetch`) is, from a page, most often a server that does not allow the page's
 * origin: say so, and which setting allows it.
 */
function text(error: unknown): string {
  const said = error instanceof Error ? `${error.name === "Error" ? "Error" : error.name}: ${error.message}` : String(error);
  if (!/Failed to fetch/.test(said) || typeof location === "undefined") return said;
  return (
    `${said} (the server is not running, or it does not allow requests from ${location.origin}: ` +
    "its langgraph.json must list that origin in http.cors.allow_origins)"
  );
}

/** A failure the model can act on: upstream's text, marked as an error (the page shows the call as failed). */
const failed = (content: string): ToolOutput => ({ content, status: "error" });

/** One SDK client per (url, headers), made on first use. */
export function clientCache(agents: ReadonlyMap<string, AsyncSubAgent>, fetchImpl: typeof fetch | undefined) {
  const clients = new Map<string, Promise<AsyncTaskClient>>();
  let sdk: Promise<typeof Sdk> | undefined;
  return (name: string): Promise<AsyncTaskClient> => {
    const spec = agents.get(name);
    if (!spec) return Promise.reject(new Error(`Unknown async subagent type '${name}'.`));
    // Upstream's default: LangGraph Platform reads it; self-hosted servers ignore it.
    const headers = { "x-auth-scheme": "langsmith", ...spec.headers };
    const key = `${spec.url ?? ""}|${Object.entries(headers).sort().flat().join(":")}`;
    let client = clients.get(key);
    if (!client) {
      client = (sdk ??= import("@langchain/langgraph-sdk")).then(
        ({ Client }) =>
          new Client({
            apiUrl: spec.url,
            apiKey: null,
            defaultHeaders: headers,
            callerOptions: { maxRetries: 1, ...(fetchImpl ? { fetch: fetchImpl } : {}) },
          }),
      );
      clients.set(key, client);
    }
    return client;
  };
}

function tracked(taskId: string, runtime: ToolRuntime): AsyncTask | string {
  const task = ASYNC_TASKS.get(runtime.state)[taskId.trim()];
  return task ?? `No tracked task found for taskId: '${taskId}'`;
}

/** The last message's text of a finished remote thread. */
function resultOf(values: unknown): string {
  const messages = values && typeof values === "object" && !Array.isArray(values) ? (values as { messages?: unknown }).messages : undefined;
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (last === undefined) return "Completed with no output messages.";
  const content = typeof last === "object" && last !== null && "content" in last ? (last as { content: unknown }).content : last;
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** A message as the server's input takes it (`{ type, content, … }`, LangGraph's message dict). */
function wireMessage(m: BaseMessage): Record<string, unknown> {
  const wire: Record<string, unknown> = { type: m.getType(), content: m.content };
  if (m.id) wire.id = m.id;
  if (AIMessage.isInstance(m) && m.tool_calls?.length) wire.tool_calls = m.tool_calls;
  if (ToolMessage.isInstance(m)) {
    wire.tool_call_id = m.tool_call_id;
    if (m.name) wire.name = m.name;
  }
  return wire;
}

/**
 * What a new remote thread starts from: the task alone, or (a `mode: "fork"` subagent, as Python deepagents 0.7.24's)
 * this agent's conversation as its model last saw it, without the AI message holding this call, then the task.
 */
function launchMessages(spec: AsyncSubAgent, description: string, runtime: ToolRuntime): Record<string, unknown>[] {
  if (spec.mode !== "fork") return [{ role: "user", content: description }];
  return forkMessages(runtime.state, description, "").map(wireMessage);
}

/** The `start_async_task` tool. @lazy (async-subagents.ts loads this module with `import()` on the first call) */
export async function start(ctx: AsyncTaskContext, args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
  const description = String(args.description);
  const agentName = String(args.agentName);
  const spec = ctx.agents.get(agentName);
  if (!spec)
    return failed(
      `Unknown async subagent type \`${agentName}\`. Available types: ${[...ctx.agents.keys()].map((n) => `\`${n}\``).join(", ")}`,
    );
  try {
    const client = await ctx.clientFor(agentName);
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, spec.graphId, {
      input: { messages: launchMessages(spec, description, runtime) },
    });
    const task: AsyncTask = {
      taskId: thread.thread_id,
      agentName,
      threadId: thread.thread_id,
      runId: run.run_id,
      status: "running",
      createdAt: now(),
      description,
      graphId: spec.graphId,
      ...(spec.url ? { url: spec.url } : {}),
    };
    return { content: `Launched async subagent. taskId: ${task.taskId}`, update: ASYNC_TASKS.set({ [task.taskId]: task }) };
  } catch (error) {
    return failed(`Failed to launch async subagent '${agentName}': ${text(error)}`);
  }
}

/** The `check_async_task` tool. @lazy (async-subagents.ts loads this module with `import()` on the first call) */
export async function check(ctx: AsyncTaskContext, args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
  const task = tracked(String(args.taskId), runtime);
  if (typeof task === "string") return failed(task);
  let run;
  let client;
  try {
    client = await ctx.clientFor(task.agentName);
    run = await client.runs.get(task.threadId, task.runId);
  } catch (error) {
    return failed(`Failed to get run status: ${text(error)}`);
  }
  const status = run.status as AsyncTaskStatus;
  const result: { status: AsyncTaskStatus; threadId: string; result?: string; error?: string } = { status, threadId: task.threadId };
  if (status === "success") {
    try {
      result.result = resultOf((await client.threads.getState(task.threadId)).values);
    } catch {
      // The run succeeded: say so, without its output.
      result.result = resultOf(undefined);
    }
  } else if (status === "error") result.error = "The async subagent encountered an error.";
  const updated = withStatus(task, status, now());
  return { content: JSON.stringify(result), update: ASYNC_TASKS.set({ [task.taskId]: updated }) };
}

/** The `update_async_task` tool. @lazy (async-subagents.ts loads this module with `import()` on the first call) */
export async function update(ctx: AsyncTaskContext, args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
  const task = tracked(String(args.taskId), runtime);
  if (typeof task === "string") return failed(task);
  const spec = ctx.agents.get(task.agentName);
  if (!spec) return failed(`Failed to update async subagent: the async subagent type '${task.agentName}' is no longer configured.`);
  const message = String(args.message);
  try {
    const client = await ctx.clientFor(task.agentName);
    const run = await client.runs.create(task.threadId, spec.graphId, {
      input: { messages: [{ role: "user", content: message }] },
      multitaskStrategy: "interrupt",
    });
    const updated: AsyncTask = { ...task, runId: run.run_id, status: "running", description: message, updatedAt: now() };
    return { content: `Updated async subagent. taskId: ${task.taskId}`, update: ASYNC_TASKS.set({ [task.taskId]: updated }) };
  } catch (error) {
    return failed(`Failed to update async subagent: ${text(error)}`);
  }
}

/** The `cancel_async_task` tool. @lazy (async-subagents.ts loads this module with `import()` on the first call) */
export async function cancel(ctx: AsyncTaskContext, args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
  const task = tracked(String(args.taskId), runtime);
  if (typeof task === "string") return failed(task);
  try {
    await (await ctx.clientFor(task.agentName)).runs.cancel(task.threadId, task.runId);
  } catch (error) {
    return failed(`Failed to cancel run: ${text(error)}`);
  }
  const updated: AsyncTask = { ...task, status: "cancelled", updatedAt: now() };
  delete updated.description;
  return { content: `Cancelled async subagent task: ${task.taskId}`, update: ASYNC_TASKS.set({ [task.taskId]: updated }) };
}

/** The `list_async_tasks` tool. @lazy (async-subagents.ts loads this module with `import()` on the first call) */
export async function list(ctx: AsyncTaskContext, args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
  const filter = typeof args.statusFilter === "string" ? args.statusFilter : undefined;
  const tasks = Object.values(ASYNC_TASKS.get(runtime.state)).filter((t) => !filter || filter === "all" || t.status === filter);
  if (!tasks.length) return "No async subagent tasks tracked";
  const live = async (task: AsyncTask): Promise<AsyncTaskStatus> => {
    if (TERMINAL_STATUSES.has(task.status)) return task.status;
    try {
      return (await (await ctx.clientFor(task.agentName)).runs.get(task.threadId, task.runId)).status as AsyncTaskStatus;
    } catch {
      return task.status;
    }
  };
  const statuses = await Promise.all(tasks.map(live));
  const updated: Record<string, AsyncTask> = {};
  const lines = tasks.map((task, i) => {
    const status = statuses[i]!;
    updated[task.taskId] = withStatus(task, status, task.checkedAt);
    return `- taskId: ${task.taskId} agent: ${task.agentName} status: ${status}`;
  });
  return { content: `${lines.length} tracked task(s):\n${lines.join("\n")}`, update: ASYNC_TASKS.set(updated) };
}

/** The note's text: what ended, and where its result is. */
function noteText(task: AsyncTask, status: AsyncTaskStatus): string {
  const what = `Async subagent task ${task.taskId} (${task.agentName}) `;
  if (status === "success") return `${what}finished. Call check_async_task with this taskId for its result.`;
  if (status === "error") return `${what}failed. Call check_async_task with this taskId for details.`;
  return `${what}ended: ${status}.`;
}

/**
 * Status notes before a run (Python deepagents 0.7.27 tells the main agent of its async subagents' status changes):
 * the tasks last seen running are asked about, and each that ended since gets a note (a user message tagged
 * `async_subagent`, its `TaskEvent` in `additional_kwargs.deepagents_notification`) and its new status. A task the
 * server cannot be asked about keeps its status, for the next run. @lazy (loaded only when a task is running)
 */
export async function statusNotes(ctx: AsyncTaskContext, state: Readonly<AgentState>): Promise<StateUpdate | undefined> {
  const running = Object.values(ASYNC_TASKS.get(state)).filter((t) => !TERMINAL_STATUSES.has(t.status));
  const seen = await Promise.all(
    running.map(async (task) => {
      try {
        return (await (await ctx.clientFor(task.agentName)).runs.get(task.threadId, task.runId)).status as AsyncTaskStatus;
      } catch {
        return task.status;
      }
    }),
  );
  const ended = running.flatMap((task, i) => (TERMINAL_STATUSES.has(seen[i]!) ? [{ task, status: seen[i]! }] : []));
  if (!ended.length) return undefined;
  const messages = ended.map(({ task, status }) => {
    const event: TaskEvent = { task_id: task.taskId, agent_name: task.agentName, status, run_id: task.runId };
    return new HumanMessage({
      content: noteText(task, status),
      additional_kwargs: { lc_source: ASYNC_SUBAGENT_SOURCE, deepagents_notification: event },
    });
  });
  const checked = now();
  return {
    messages,
    ...ASYNC_TASKS.set(Object.fromEntries(ended.map(({ task, status }) => [task.taskId, withStatus(task, status, checked)]))),
  };
}
