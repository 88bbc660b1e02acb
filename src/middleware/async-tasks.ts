/**
 * The async subagents' shapes and their state field (`asyncTasks`), apart from their tools, so what every agent's
 * startup needs (the field, the discriminant) does not carry the tools' code: async-subagents.ts builds the tools,
 * async-task-runs.ts runs them (loaded on the first call).
 */
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware } from "../harness/types.ts";

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
  /**
   * `"isolated"` (the default): the remote thread starts from the task description alone. `"fork"` (Python deepagents
   * 0.7.24): it starts from a copy of this agent's conversation as its model last saw it, then the task.
   */
  mode?: "isolated" | "fork";
}

/**
 * How a task ended, as the agent that launched it is told (Python deepagents' `TaskEvent`, 0.7.27): carried by the
 * status note's `additional_kwargs.deepagents_notification`, so apps tell these notes from the person's messages.
 */
export interface TaskEvent {
  /** The task's id (the remote thread's). */
  task_id: string;
  agent_name: string;
  status: AsyncTaskStatus;
  /** The remote run that ended. */
  run_id: string;
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
  /** deeptab's: the server and graph the task runs on, so the page can open its thread (never the headers). */
  url?: string;
  graphId?: string;
}

export { ASYNC_TASK_TOOL_NAMES } from "../core/async-task-names.ts";

/** Statuses that never change: listing does not ask the server about them. */
export const TERMINAL_STATUSES: ReadonlySet<AsyncTaskStatus> = new Set(["cancelled", "success", "error", "timeout", "interrupted"]);

/** The tasks, keyed by id; an update replaces only the tasks it names. Private: subagents neither see nor set them. */
export const ASYNC_TASKS = defineStateField<Record<string, AsyncTask>>("asyncTasks", {
  default: () => ({}),
  reducer: (current, update) => ({ ...(current ?? {}), ...(update ?? {}) }),
  private: true,
});

/**
 * The `asyncTasks` channel alone, for a graph that reads and edits threads without running async subagents (the
 * worker's reader agent): an edit of a thread that launched tasks keeps them.
 */
export const ASYNC_TASKS_READER: AgentMiddleware = { name: "AsyncTasksReader", stateSchema: stateSchema(ASYNC_TASKS) };

/** Is `sub` an async subagent (it names a graph on a server)? Upstream's discriminant: the `graphId` field. */
export function isAsyncSubAgent(sub: object): sub is AsyncSubAgent {
  return "graphId" in sub;
}
