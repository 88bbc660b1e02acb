/**
 * AsyncSubAgentMiddleware: deepagents' async subagents. The agent launches a long task on a remote LangGraph (Agent
 * Protocol) server and gets a task id at once; the task runs there as its own thread while this agent goes on, and
 * the tab may close. Five tools, as upstream (deepagentsjs `createAsyncSubAgentMiddleware`, same names, arguments and
 * answers): `start_async_task`, `check_async_task`, `update_async_task`, `cancel_async_task`, `list_async_tasks`.
 *
 * Tasks are kept in the state field `asyncTasks` (task id → record, merged per task), so they live in the thread's
 * checkpoints: a reloaded page, or the thread continued later, checks the same tasks. The task id is the remote
 * thread's id.
 *
 * Unlike upstream, the launch does not send `callbackThreadId`: upstream's completion callback posts back to the
 * parent's thread on the same server, and a tab's thread is not on any server.
 *
 * The LangGraph SDK is loaded on the first call (the worker's startup code does not carry it); requests go through
 * the given `fetch` (the worker's request log). Failures are tool answers the model can act on, as upstream's.
 */
import type * as Sdk from "@langchain/langgraph-sdk";
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware, AgentTool, ToolRuntime } from "../harness/types.ts";

export const ASYNC_SUBAGENTS = "AsyncSubAgentMiddleware";

/** A subagent that runs on a remote Agent Protocol server (LangGraph's), as deepagents' `AsyncSubAgent`. */
export interface AsyncSubAgent {
  /** Unique identifier for the async subagent. */
  name: string;
  /** What this subagent does: the main agent reads it to decide when to delegate. */
  description: string;
  /** The graph name or assistant id on the server. */
  graphId: string;
  /** The server's URL (the SDK's default, `http://localhost:8123`, when unset). */
  url?: string;
  /** Headers sent with every request to the server (e.g. `x-api-key`). Kept out of the agent's state. */
  headers?: Record<string, string>;
}

/** Statuses the tools set (`running`, `success`, `error`, `cancelled`) and ones the server may return. */
export type AsyncTaskStatus = "pending" | "running" | "success" | "error" | "cancelled" | "timeout" | "interrupted";

/** A launched task, as kept in the agent's state. `taskId` is the remote thread's id. */
export interface AsyncTask {
  taskId: string;
  agentName: string;
  threadId: string;
  /** The current run on the remote thread (an update starts a new one). */
  runId: string;
  status: AsyncTaskStatus;
  createdAt: string;
  /** The instructions the task was launched (or last updated) with. */
  description?: string;
  /** When the status changed or a follow-up was sent. */
  updatedAt?: string;
  /** When the check tool last asked the server. */
  checkedAt?: string;
}

/** The tools' names (a user tool may not take one; agent/tool-names.ts lists them too, a test holds both equal). */
export const ASYNC_TASK_TOOL_NAMES = [
  "start_async_task",
  "check_async_task",
  "update_async_task",
  "cancel_async_task",
  "list_async_tasks",
] as const;

/** Statuses that never change: listing does not ask the server about them. */
export const TERMINAL_STATUSES: ReadonlySet<AsyncTaskStatus> = new Set(["cancelled", "success", "error", "timeout", "interrupted"]);

/** The tasks, keyed by id; an update replaces only the tasks it names. Private: subagents neither see nor set them. */
export const ASYNC_TASKS = defineStateField<Record<string, AsyncTask>>("asyncTasks", {
  default: () => ({}),
  reducer: (current, update) => ({ ...(current ?? {}), ...(update ?? {}) }),
  private: true,
});

const TASK_ID_DESCRIPTION = "The exact taskId string returned by start_async_task. Pass it verbatim.";

const START_DESCRIPTION = [
  "Launch an async subagent on a remote server. The subagent runs in the background and returns a task ID immediately.",
  "",
  "Available async agent types:",
  "{available_agents}",
  "",
  "## Usage notes:",
  "1. This tool launches a background task and returns immediately with a task ID. " +
    "Report the task ID to the user and stop — do NOT immediately check status.",
  "2. Use `check_async_task` only when the user asks for a status update or result.",
  "3. Use `update_async_task` to send new instructions to a running task.",
  "4. Multiple async subagents can run concurrently — launch several and let them run in the background.",
  "5. The subagent runs on a remote server, so it has its own tools and capabilities.",
].join("\n");

/** Statuses shown earlier are stale: upstream's sentence, in two tools' descriptions. */
const STALE = "Statuses shown earlier in the conversation are always stale, so call this to ";
const CHECK_DESCRIPTION =
  "Check the status of an async subagent task. Returns the current status and, if complete, the result. " +
  STALE +
  "get the current status rather than reporting a status from a previous tool result.";
const UPDATE_DESCRIPTION =
  "send updated instructions to an async subagent. Interrupts the current run and starts a new one on the same thread " +
  "so the subagent sees the full conversation history plus your new message. The taskId remains the same.";
const CANCEL_DESCRIPTION = "Cancel a running async subagent task. Use this to stop a task that is no longer needed.";
const LIST_DESCRIPTION =
  "List tracked async subagent tasks with their current live statuses. By default shows all tasks. " +
  "Use `statusFilter` to narrow by status (e.g., 'running', 'success', 'error', 'cancelled'). " +
  "Use `check_async_task` to get the full result of a specific completed task. " +
  STALE +
  "read current statuses rather than reporting one from a previous tool result.";

/** What the tools use of a LangGraph SDK client. */
export type AsyncTaskClient = Pick<Sdk.Client, "threads" | "runs">;

export interface AsyncSubagentMiddlewareOptions {
  asyncSubAgents: readonly AsyncSubAgent[];
  /** Appended to the system prompt with the list of async subagent types; unset, the tool descriptions guide alone. */
  systemPrompt?: string | null;
  /** The fetch every request goes through (the worker's logged fetch); the global one by default. */
  fetch?: typeof fetch;
}

/** Text of an error for the model (the agent's redaction hides keys in it before it is kept). */
const text = (error: unknown) =>
  error instanceof Error ? `${error.name === "Error" ? "Error" : error.name}: ${error.message}` : String(error);

/** One SDK client per (url, headers), made on first use. */
function clientCache(agents: ReadonlyMap<string, AsyncSubAgent>, fetchImpl: typeof fetch | undefined) {
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

const taskIdSchema = { type: "string", description: TASK_ID_DESCRIPTION };

/** Builds the middleware; throws on no subagents or a repeated name (a broken setup). */
export function asyncSubagentMiddleware(options: AsyncSubagentMiddlewareOptions): AgentMiddleware {
  const { asyncSubAgents, systemPrompt = null } = options;
  if (!asyncSubAgents.length) throw new Error("At least one async subagent must be specified");
  const names = asyncSubAgents.map((a) => a.name);
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length) throw new Error(`Duplicate async subagent names: ${repeated.join(", ")}`);
  const agents = new Map(asyncSubAgents.map((a) => [a.name, a]));
  const clientFor = clientCache(agents, options.fetch);
  const listed = asyncSubAgents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  const now = () => new Date().toISOString();

  const start: AgentTool = {
    name: "start_async_task",
    description: START_DESCRIPTION.replace("{available_agents}", listed),
    schema: {
      type: "object",
      properties: {
        description: { type: "string", description: "A detailed description of the task for the async subagent to perform." },
        agentName: {
          type: "string",
          description: "The type of async subagent to use. Must be one of the available types listed in the tool description.",
        },
      },
      required: ["description", "agentName"],
    },
    async run(args) {
      const description = String(args.description);
      const agentName = String(args.agentName);
      const spec = agents.get(agentName);
      if (!spec) return `Unknown async subagent type \`${agentName}\`. Available types: ${names.map((n) => `\`${n}\``).join(", ")}`;
      try {
        const client = await clientFor(agentName);
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
        };
        return { content: `Launched async subagent. taskId: ${task.taskId}`, update: ASYNC_TASKS.set({ [task.taskId]: task }) };
      } catch (error) {
        return `Failed to launch async subagent '${agentName}': ${text(error)}`;
      }
    },
  };

  const check: AgentTool = {
    name: "check_async_task",
    description: CHECK_DESCRIPTION,
    schema: { type: "object", properties: { taskId: taskIdSchema }, required: ["taskId"] },
    async run(args, runtime) {
      const task = tracked(String(args.taskId), runtime);
      if (typeof task === "string") return task;
      let run;
      let client;
      try {
        client = await clientFor(task.agentName);
        run = await client.runs.get(task.threadId, task.runId);
      } catch (error) {
        return `Failed to get run status: ${text(error)}`;
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
      const updated: AsyncTask = {
        taskId: task.taskId,
        agentName: task.agentName,
        threadId: task.threadId,
        runId: task.runId,
        status,
        createdAt: task.createdAt,
        updatedAt: status !== task.status ? now() : task.updatedAt,
        checkedAt: now(),
      };
      return { content: JSON.stringify(result), update: ASYNC_TASKS.set({ [task.taskId]: updated }) };
    },
  };

  const update: AgentTool = {
    name: "update_async_task",
    description: UPDATE_DESCRIPTION,
    schema: {
      type: "object",
      properties: {
        taskId: taskIdSchema,
        message: { type: "string", description: "Follow-up instructions or context to send to the subagent" },
      },
      required: ["taskId", "message"],
    },
    async run(args, runtime) {
      const task = tracked(String(args.taskId), runtime);
      if (typeof task === "string") return task;
      const spec = agents.get(task.agentName);
      if (!spec) return `Failed to update async subagent: the async subagent type '${task.agentName}' is no longer configured.`;
      const message = String(args.message);
      try {
        const client = await clientFor(task.agentName);
        const run = await client.runs.create(task.threadId, spec.graphId, {
          input: { messages: [{ role: "user", content: message }] },
          multitaskStrategy: "interrupt",
        });
        const updated: AsyncTask = { ...task, runId: run.run_id, status: "running", description: message, updatedAt: now() };
        return { content: `Updated async subagent. taskId: ${task.taskId}`, update: ASYNC_TASKS.set({ [task.taskId]: updated }) };
      } catch (error) {
        return `Failed to update async subagent: ${text(error)}`;
      }
    },
  };

  const cancel: AgentTool = {
    name: "cancel_async_task",
    description: CANCEL_DESCRIPTION,
    schema: { type: "object", properties: { taskId: taskIdSchema }, required: ["taskId"] },
    async run(args, runtime) {
      const task = tracked(String(args.taskId), runtime);
      if (typeof task === "string") return task;
      try {
        await (await clientFor(task.agentName)).runs.cancel(task.threadId, task.runId);
      } catch (error) {
        return `Failed to cancel run: ${text(error)}`;
      }
      const updated: AsyncTask = { ...task, status: "cancelled", updatedAt: now() };
      delete updated.description;
      return { content: `Cancelled async subagent task: ${task.taskId}`, update: ASYNC_TASKS.set({ [task.taskId]: updated }) };
    },
  };

  const list: AgentTool = {
    name: "list_async_tasks",
    description: LIST_DESCRIPTION,
    schema: {
      type: "object",
      properties: {
        statusFilter: {
          type: ["string", "null"],
          description: "Filter tasks by status. One of: 'running', 'success', 'error', 'cancelled', 'all'. Defaults to 'all'.",
        },
      },
    },
    async run(args, runtime) {
      const filter = typeof args.statusFilter === "string" ? args.statusFilter : undefined;
      const tasks = Object.values(ASYNC_TASKS.get(runtime.state)).filter((t) => !filter || filter === "all" || t.status === filter);
      if (!tasks.length) return "No async subagent tasks tracked";
      const live = async (task: AsyncTask): Promise<AsyncTaskStatus> => {
        if (TERMINAL_STATUSES.has(task.status)) return task.status;
        try {
          return (await (await clientFor(task.agentName)).runs.get(task.threadId, task.runId)).status as AsyncTaskStatus;
        } catch {
          return task.status;
        }
      };
      const statuses = await Promise.all(tasks.map(live));
      const updated: Record<string, AsyncTask> = {};
      const lines = tasks.map((task, i) => {
        const status = statuses[i]!;
        updated[task.taskId] = {
          taskId: task.taskId,
          agentName: task.agentName,
          threadId: task.threadId,
          runId: task.runId,
          status,
          createdAt: task.createdAt,
          updatedAt: status !== task.status ? now() : task.updatedAt,
          checkedAt: task.checkedAt,
        };
        return `- taskId: ${task.taskId} agent: ${task.agentName} status: ${status}`;
      });
      return { content: `${lines.length} tracked task(s):\n${lines.join("\n")}`, update: ASYNC_TASKS.set(updated) };
    },
  };

  const prompt = systemPrompt ? `${systemPrompt}\n\nAvailable async subagent types:\n${listed}` : null;
  return {
    name: ASYNC_SUBAGENTS,
    tools: [start, check, update, cancel, list],
    stateSchema: stateSchema(ASYNC_TASKS),
    async wrapModelCall(request, next) {
      if (prompt === null) return next(request);
      return next({ ...request, systemPrompt: [request.systemPrompt, prompt].filter(Boolean).join("\n\n") });
    },
  };
}

/**
 * The `asyncTasks` channel alone, for a graph that reads and edits threads without running async subagents (the
 * worker's reader agent): an edit of a thread that launched tasks keeps them.
 */
export const ASYNC_TASKS_READER: AgentMiddleware = { name: "AsyncTasksReader", stateSchema: stateSchema(ASYNC_TASKS) };

/** Is `sub` an async subagent (it names a graph on a server)? Upstream's discriminant: the `graphId` field. */
export function isAsyncSubAgent(sub: object): sub is AsyncSubAgent {
  return "graphId" in sub;
}
