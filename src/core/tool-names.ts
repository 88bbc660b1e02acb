/**
 * The names of deeptab's tools, the one table of them: plain data (importing only core/'s), in core/ because every
 * room that names a tool may import core/ and no other room is below all of them (context/ truncates file tools'
 * arguments, middleware/ builds the tools, agent/ filters them, agent-folders/ checks an agent's `tools`, worker/ and
 * ui/ show and approve calls). Code that names a tool takes it from {@link TOOL}, so a renamed or dropped tool fails
 * to compile wherever it is named; what a file tool does to files is a field of its row ({@link FILE_TOOL_TABLE}),
 * from which the sets the middleware use are derived. A test holds the names equal to the tools createDeepAgent builds.
 */
import { ASYNC_TASK_TOOL_NAMES } from "./async-task-names.ts";

/** What a file tool does, as the middleware and the request view treat it. */
interface FileToolRow {
  /** It writes, edits or deletes a file: two such calls on one path in one AI message conflict; "Ask before changing files" asks for it. */
  changes: boolean;
  /** It caps its own output, so large-result eviction skips it. */
  capsOutput: boolean;
  /** Its arguments carry a file's text, which the request view shortens in old messages (context/truncate-args.ts). */
  carriesText: boolean;
}

/** The file tools, in the order the agent offers them (deepagents' names), and what each does. */
export const FILE_TOOL_TABLE = {
  ls: { changes: false, capsOutput: true, carriesText: false },
  read_file: { changes: false, capsOutput: true, carriesText: false },
  write_file: { changes: true, capsOutput: true, carriesText: true },
  edit_file: { changes: true, capsOutput: true, carriesText: true },
  delete: { changes: true, capsOutput: true, carriesText: false },
  glob: { changes: false, capsOutput: true, carriesText: false },
  grep: { changes: false, capsOutput: true, carriesText: false },
  execute: { changes: false, capsOutput: false, carriesText: false },
} as const satisfies Record<string, FileToolRow>;

export type FileToolName = keyof typeof FILE_TOOL_TABLE;

/** The file tools' names, in the order the agent offers them. */
export const FILE_TOOL_NAMES = Object.keys(FILE_TOOL_TABLE) as readonly FileToolName[];

const fileToolsWhere = (field: keyof FileToolRow): ReadonlySet<string> =>
  new Set(FILE_TOOL_NAMES.filter((name) => FILE_TOOL_TABLE[name][field]));

/** Tools that change a file (`write_file`, `edit_file`, `delete`). */
export const CHANGING_TOOLS = fileToolsWhere("changes");
/** Tools that cap their own output; large-result eviction skips them. */
export const SELF_CAPPED_TOOLS = fileToolsWhere("capsOutput");
/** Tools whose arguments carry a file's text (`write_file`, `edit_file`). */
export const TEXT_CARRYING_TOOLS = fileToolsWhere("carriesText");

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
