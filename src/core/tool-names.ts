/**
 * The names of deeptab's tools, the one table of them: plain data (importing only core/'s), in core/ because every
 * room that names a tool may import core/ and no other room is below all of them (context/ truncates file tools'
 * arguments, middleware/ builds the tools, agent/ filters them, agent-folders/ checks an agent's `tools`, worker/ and
 * ui/ show and approve calls). Code that names a tool takes it from {@link TOOL}, so a renamed or dropped tool fails
 * to compile wherever it is named; what a file tool does to files is a set of names typed against the list. A test
 * holds the names equal to the tools createDeepAgent builds.
 */
import { ASYNC_TASK_TOOL_NAMES } from "./async-task-names.ts";

/** The file tools, in the order the agent offers them (deepagents' names). */
export const FILE_TOOL_NAMES = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"] as const;

export type FileToolName = (typeof FILE_TOOL_NAMES)[number];

/** What the file tools do, as sets of their names (typed: a name not in the list does not compile). */
const fileTools = (...names: FileToolName[]): ReadonlySet<string> => new Set(names);

/** Tools that change a file: two such calls on one path in one AI message conflict; "Ask before changing files" asks for them. */
export const CHANGING_TOOLS = fileTools("write_file", "edit_file", "delete");
/** Tools that cap their own output (every file tool but `execute`); large-result eviction skips them. */
export const SELF_CAPPED_TOOLS = fileTools(...FILE_TOOL_NAMES.filter((name) => name !== "execute"));
/** Tools whose arguments carry a file's text, which the request view shortens in old messages (context/truncate-args.ts). */
export const TEXT_CARRYING_TOOLS = fileTools("write_file", "edit_file");

const OTHER_BUILTIN_NAMES = ["write_todos", "task", "compact_conversation", ...ASYNC_TASK_TOOL_NAMES] as const;
const APP_NAMES = ["fetch_url", "js_eval", "python"] as const;

/** A built-in tool's name or an app tool's. */
export type ToolName = FileToolName | (typeof OTHER_BUILTIN_NAMES)[number] | (typeof APP_NAMES)[number];

/**
 * Every built-in tool name: the file tools, `write_todos`, `task`, `compact_conversation` and the async subagents'
 * tools. Whether an agent has one depends on its options (todos, a sandbox, the tool profile, async subagents, being
 * a subagent).
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = [...FILE_TOOL_NAMES, ...OTHER_BUILTIN_NAMES];

/**
 * Tools the app gives its agents besides the built-in ones (`fetch_url`, tools/fetch-url.ts; `js_eval`,
 * tools/js-eval.ts; `python`, tools/python.ts, where the sandbox has no python3): an agent folder may name them in
 * `tools` (to keep or drop them) and in `interrupt_on`.
 */
export const APP_TOOL_NAMES: readonly string[] = APP_NAMES;

/** Each tool's name by itself (`TOOL.edit_file` is `"edit_file"`): what code that names one tool writes. */
export const TOOL = Object.fromEntries([...BUILTIN_TOOL_NAMES, ...APP_TOOL_NAMES].map((name) => [name, name])) as {
  readonly [N in ToolName]: N;
};
