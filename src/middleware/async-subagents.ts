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
 * A subagent with `mode: "fork"` (Python deepagents 0.7.24) starts its remote thread from this agent's conversation.
 * Each run starts by asking about the tasks last seen running and notes each that ended for the model (0.7.27's
 * status updates; in Python the subagent wakes the parent's server thread, which a tab does not have).
 *
 * Unlike upstream, the launch does not send `callbackThreadId`: upstream's completion callback posts back to the
 * parent's thread on the same server, and a tab's thread is not on any server.
 *
 * The LangGraph SDK is loaded on the first call (the worker's startup code does not carry it); requests go through
 * the given `fetch` (the worker's request log). Failures are tool answers the model can act on, as upstream's.
 */
import { stateSchema } from "../harness/state.ts";
import type { AgentMiddleware, AgentTool } from "../harness/types.ts";
import type * as Runs from "./async-task-runs.ts";
import { ASYNC_TASKS, TERMINAL_STATUSES, type AsyncSubAgent } from "./async-tasks.ts";

export {
  ASYNC_TASK_TOOL_NAMES,
  ASYNC_TASKS_READER,
  isAsyncSubAgent,
  type AsyncSubAgent,
  type AsyncTask,
  type AsyncTaskStatus,
  type TaskEvent,
} from "./async-tasks.ts";

const ASYNC_SUBAGENTS = "AsyncSubAgentMiddleware";

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

export interface AsyncSubagentMiddlewareOptions {
  asyncSubAgents: readonly AsyncSubAgent[];
  /** Appended to the system prompt with the list of async subagent types; unset, the tool descriptions guide alone. */
  systemPrompt?: string | null;
  /** The fetch every request goes through (the worker's logged fetch); the global one by default. */
  fetch?: typeof fetch;
}

const taskIdSchema = { type: "string", description: TASK_ID_DESCRIPTION };

/** Builds the middleware; throws on no subagents or a repeated name (a broken setup). */
export function asyncSubagentMiddleware(options: AsyncSubagentMiddlewareOptions): AgentMiddleware {
  const { asyncSubAgents, systemPrompt = null } = options;
  if (!asyncSubAgents.length) throw new Error("At least one async subagent must be specified");
  const names = asyncSubAgents.map((a) => a.name);
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length) throw new Error(`Duplicate async subagent names: ${repeated.join(", ")}`);
  for (const a of asyncSubAgents)
    if (a.mode !== undefined && a.mode !== "isolated" && a.mode !== "fork")
      throw new Error(`Async subagent '${a.name}': mode must be "isolated" or "fork", not "${String(a.mode)}"`);
  const agents = new Map(asyncSubAgents.map((a) => [a.name, a]));
  // The tools' code (and the SDK after it) loads on the first call; one context, so clients are made once.
  let loading: Promise<{ runs: typeof Runs; ctx: Runs.AsyncTaskContext }> | undefined;
  const load = () =>
    (loading ??= import("./async-task-runs.ts").then((runs) => ({
      runs,
      ctx: { agents, clientFor: runs.clientCache(agents, options.fetch) },
    })));
  const listed = asyncSubAgents.map((a) => `- ${a.name}: ${a.description}`).join("\n");

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
    async run(args, runtime) {
      const { runs, ctx } = await load();
      return runs.start(ctx, args, runtime);
    },
  };

  const check: AgentTool = {
    name: "check_async_task",
    description: CHECK_DESCRIPTION,
    schema: { type: "object", properties: { taskId: taskIdSchema }, required: ["taskId"] },
    async run(args, runtime) {
      const { runs, ctx } = await load();
      return runs.check(ctx, args, runtime);
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
      const { runs, ctx } = await load();
      return runs.update(ctx, args, runtime);
    },
  };

  const cancel: AgentTool = {
    name: "cancel_async_task",
    description: CANCEL_DESCRIPTION,
    schema: { type: "object", properties: { taskId: taskIdSchema }, required: ["taskId"] },
    async run(args, runtime) {
      const { runs, ctx } = await load();
      return runs.cancel(ctx, args, runtime);
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
      const { runs, ctx } = await load();
      return runs.list(ctx, args, runtime);
    },
  };

  const prompt = systemPrompt ? `${systemPrompt}\n\nAvailable async subagent types:\n${listed}` : null;
  return {
    name: ASYNC_SUBAGENTS,
    tools: [start, check, update, cancel, list],
    stateSchema: stateSchema(ASYNC_TASKS),
    // Python deepagents 0.7.27: the agent is told of its tasks' status changes. A tab's thread is not on the server, so
    // nothing can wake it; each run starts by asking about the tasks last seen running (the SDK loads only then).
    async beforeAgent(state) {
      if (!Object.values(ASYNC_TASKS.get(state)).some((t) => !TERMINAL_STATUSES.has(t.status))) return;
      const { runs, ctx } = await load();
      return runs.statusNotes(ctx, state);
    },
    async wrapModelCall(request, next) {
      if (prompt === null) return next(request);
      return next({ ...request, systemPrompt: [request.systemPrompt, prompt].filter(Boolean).join("\n\n") });
    },
  };
}
