/**
 * What the async subagents' tools do (async-subagents.ts describes them; this module loads on the first call, with
 * the LangGraph SDK after it). Answers are upstream's (deepagentsjs `async_subagents.ts`), word for word.
 */
import type * as Sdk from "@langchain/langgraph-sdk";
import type { ToolOutput, ToolRuntime } from "../harness/types.ts";
import { ASYNC_TASKS, TERMINAL_STATUSES, type AsyncSubAgent, type AsyncTask, type AsyncTaskStatus } from "./async-tasks.ts";

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

/** The `start_async_task` tool. @lazy (async-subagents.ts loads this module with `import()` on the first call) */
export async function start(ctx: AsyncTaskContext, args: Record<string, unknown>): Promise<ToolOutput> {
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
      input: { messages: [{ role: "user", content: description }] },
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
