/** The async subagents' tools, by name (deepagents' `ASYNC_TASK_TOOL_NAMES`): plain data, for the tools and the name lists. */
export const ASYNC_TASK_TOOL_NAMES = [
  "start_async_task",
  "check_async_task",
  "update_async_task",
  "cancel_async_task",
  "list_async_tasks",
] as const;
