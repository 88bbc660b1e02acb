/**
 * The names of the tools deeptab's built-in middleware may offer, as plain data (importing only core/'s), so code
 * that only needs the names (the agent-folder loader, which the page may run) does not load the tools. A test holds
 * the list equal to the tools createDeepAgent builds.
 */
import { ASYNC_TASK_TOOL_NAMES } from "../core/async-task-names.ts";

/** The file tools, in the order the agent offers them (deepagents' names). */
export const FILE_TOOL_NAMES = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"] as const;

/**
 * Every built-in tool name: the file tools, `write_todos`, `task`, `compact_conversation` and the async subagents'
 * tools. Whether an agent has one depends on its options (todos, a sandbox, the tool profile, async subagents, being
 * a subagent).
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = [
  ...FILE_TOOL_NAMES,
  "write_todos",
  "task",
  "compact_conversation",
  ...ASYNC_TASK_TOOL_NAMES,
];

/**
 * Tools the app gives its agents besides the built-in ones (`fetch_url`, tools/fetch-url.ts; `js_eval`,
 * tools/js-eval.ts; `python`, tools/python.ts, where the sandbox has no python3): an agent folder may name them in
 * `tools` (to keep or drop them) and in `interrupt_on`.
 */
export const APP_TOOL_NAMES: readonly string[] = ["fetch_url", "js_eval", "python"];
