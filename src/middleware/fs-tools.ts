/**
 * The filesystem tools, with deepagents' names, parameters and outputs.
 * Each tool talks only to `runtime.backend`; backend failures (values) become
 * error results the model can act on.
 */
import { TRUNCATED_NOTE } from "../backends/output-cap.ts";
import { normalizePath } from "../backends/paths.ts";
import { canExecute, isBackendError, type BackendError, type ExecuteResult, type SandboxBackendProtocol } from "../backends/protocol.ts";
import { TOOL } from "../core/tool-names.ts";
import type { AgentTool, ToolOutput, ToolRuntime } from "../harness/types.ts";
import type { ToolProfile } from "../context/budget.ts";
import {
  DEFAULT_READ_LIMIT,
  LIST_OUTPUT_CHAR_LIMIT,
  READ_OUTPUT_CHAR_LIMIT,
  formatGlob,
  formatGrep,
  formatLs,
  formatRead,
  type GrepOutputMode,
} from "./fs-format.ts";
import { describeTools, type ToolTexts } from "./fs-descriptions.ts";
import { readHeaderDescription, type ReadFormat } from "./fs-read-header.ts";

const MAX_EXECUTE_TIMEOUT = 3_600;
/** The `type` of the custom stream events carrying a running command's output. */
export const EXECUTE_OUTPUT = "deeptab:execute_output";
/** The `delete` tool's answer for `/`. */
const ROOT_DELETE = "Error: Cannot delete '/': that would remove every file. Delete the files or directories inside it instead.";

/** What a set of file tools is built for: how much output one result may hold, and which descriptions. */
export interface FileToolsOptions {
  /** Characters one read_file, ls, glob or grep result may hold (80,000 = 20,000 tokens by default). */
  outputChars?: number;
  profile?: ToolProfile;
  /** How read_file shows a file: numbered lines (the default, as deepagents) or deepagentsjs 1.13.5's `@@ … @@` header. */
  readFormat?: ReadFormat;
}

function fail(err: BackendError): ToolOutput {
  return { content: err.message, status: "error" };
}

/** Models that send `path` for `file_path` are understood (deepagentsjs #659). */
const FILE_PATH_ALIASES = { path: "file_path" } as const;

function str(args: Record<string, unknown>, key: string): string {
  return args[key] as string;
}

const string = (description: string) => ({ type: "string", description });
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

function lsTool(t: ToolTexts, chars: number): AgentTool {
  return {
    name: TOOL.ls,
    description: t.ls.description,
    schema: object({ path: string("Absolute path to the directory to list. Must be absolute, not relative.") }, ["path"]),
    async run(args, rt) {
      const res = await rt.backend.ls(str(args, "path"));
      return isBackendError(res) ? fail(res) : formatLs(res, chars);
    },
  };
}

function readFileTool(t: ToolTexts, chars: number, format: ReadFormat): AgentTool {
  return {
    name: TOOL.read_file,
    description: format === "header" ? readHeaderDescription(t.read_file.description) : t.read_file.description,
    argAliases: FILE_PATH_ALIASES,
    schema: object(
      {
        file_path: string("Absolute path to the file to read. Must be absolute, not relative."),
        offset: {
          type: "integer",
          description: "Line number to start reading from (0-indexed). Use for pagination of large files.",
          default: 0,
        },
        limit: {
          type: "integer",
          description: "Maximum number of lines to read. Use for pagination of large files.",
          default: DEFAULT_READ_LIMIT,
        },
      },
      ["file_path"],
    ),
    async run(args, rt) {
      const offset = (args.offset as number | undefined) ?? 0;
      const limit = (args.limit as number | undefined) ?? DEFAULT_READ_LIMIT;
      const path = str(args, "file_path");
      const res = await rt.backend.read(path, offset, limit);
      if (isBackendError(res)) return fail(res);
      const text =
        format === "header" && res.lines.length
          ? (await import("./fs-read-header-format.ts")).formatReadHeader(path, res, chars)
          : formatRead(path, res, chars);
      return text.startsWith("Error:") ? { content: text, status: "error" } : text;
    },
  };
}

function writeFileTool(t: ToolTexts): AgentTool {
  return {
    name: TOOL.write_file,
    description: t.write_file.description,
    argAliases: FILE_PATH_ALIASES,
    schema: object(
      {
        file_path: string("Absolute path where the file should be written. Must be absolute, not relative."),
        content: string("The text content to write to the file. This parameter is required."),
      },
      ["file_path", "content"],
    ),
    async run(args, rt) {
      const res = await rt.backend.write(str(args, "file_path"), str(args, "content"));
      return isBackendError(res) ? fail(res) : `Updated file ${res.path}`;
    },
  };
}

function editFileTool(t: ToolTexts): AgentTool {
  return {
    name: TOOL.edit_file,
    description: t.edit_file.description,
    argAliases: FILE_PATH_ALIASES,
    schema: object(
      {
        file_path: string("Absolute path to the file to edit. Must be absolute, not relative."),
        old_string: string("The exact text to find and replace. Must be unique in the file unless replace_all is True."),
        new_string: string("The text to replace old_string with. Must be different from old_string."),
        replace_all: {
          type: "boolean",
          description: "If True, replace all occurrences of old_string. If False (default), old_string must be unique.",
          default: false,
        },
      },
      ["file_path", "old_string", "new_string"],
    ),
    async run(args, rt) {
      const res = await rt.backend.edit(
        str(args, "file_path"),
        str(args, "old_string"),
        str(args, "new_string"),
        (args.replace_all as boolean | undefined) ?? false,
      );
      return isBackendError(res) ? fail(res) : `Successfully replaced ${res.occurrences} instance(s) of the string in '${res.path}'`;
    },
  };
}

function deleteTool(t: ToolTexts): AgentTool {
  return {
    name: TOOL.delete,
    description: t.delete.description,
    argAliases: FILE_PATH_ALIASES,
    schema: object({ file_path: string("Absolute path to the file to delete. Must be absolute, not relative.") }, ["file_path"]),
    async run(args, rt) {
      if (!rt.backend.delete) return { content: "Error: this backend does not support deleting files.", status: "error" };
      // deeptab's own rule (upstream deletes everything): the root is never deleted in one call.
      if (normalizePath(str(args, "file_path")) === "/") return { content: ROOT_DELETE, status: "error" };
      const res = await rt.backend.delete(str(args, "file_path"));
      return isBackendError(res) ? fail(res) : `Deleted ${res.path}`;
    },
  };
}

function globTool(t: ToolTexts, chars: number): AgentTool {
  return {
    name: TOOL.glob,
    description: t.glob.description,
    schema: object(
      {
        pattern: string("Glob pattern to match files (e.g., '**/*.py', '*.txt', '/subdir/**/*.md')."),
        path: { type: "string", description: "Base directory to search from. Defaults to root '/'.", default: "/" },
      },
      ["pattern"],
    ),
    async run(args, rt) {
      const res = await rt.backend.glob(str(args, "pattern"), (args.path as string | undefined) ?? "/");
      if (isBackendError(res)) return fail(res);
      return res.length === 0 ? `No files found matching pattern '${str(args, "pattern")}'` : formatGlob(res, chars);
    },
  };
}

function grepTool(t: ToolTexts, chars: number): AgentTool {
  return {
    name: TOOL.grep,
    description: t.grep.description,
    schema: object(
      {
        pattern: string("Text pattern to search for (literal string, not regex)."),
        path: { type: "string", description: "Directory to search in. Defaults to current working directory." },
        glob: { type: "string", description: "Glob pattern to filter which files to search (e.g., '*.py')." },
        output_mode: {
          type: "string",
          enum: ["files_with_matches", "content", "count"],
          description:
            "Output format: 'files_with_matches' (file paths only, default), 'content' (matching lines with context), " +
            "'count' (match counts per file).",
          default: "files_with_matches",
        },
      },
      ["pattern"],
    ),
    async run(args, rt) {
      const res = await rt.backend.grep(str(args, "pattern"), (args.path as string | undefined) ?? "/", args.glob as string | undefined);
      if (isBackendError(res)) return fail(res);
      return formatGrep(res, (args.output_mode as GrepOutputMode | undefined) ?? "files_with_matches", chars);
    },
  };
}

function executeTool(t: ToolTexts): AgentTool {
  return {
    name: TOOL.execute,
    description: t.execute.description,
    schema: object(
      {
        command: string("Shell command to execute in the sandbox environment."),
        timeout: {
          type: "integer",
          description:
            "Optional timeout in seconds for this command. Overrides the default timeout. " +
            "Use 0 for no-timeout execution on backends that support it.",
        },
      },
      ["command"],
    ),
    async run(args, rt: ToolRuntime) {
      if (!canExecute(rt.backend)) {
        return {
          content:
            "Error: Execution not available. This agent's backend does not support command execution (SandboxBackendProtocol). " +
            "To use the execute tool, provide a backend that implements SandboxBackendProtocol.",
          status: "error",
        };
      }
      return runCommand(rt.backend, str(args, "command"), args.timeout as number | undefined, rt);
    },
  };
}

/**
 * Runs `command` in `sandbox` as a tool call does (`execute`, and the python tool): a timeout outside 0..max is an
 * error the model can act on; output streams to the page as custom stream events while the command runs (when the
 * sandbox can stream); the result is deepagents' text. A non-zero exit is still a successful tool invocation: the exit
 * code is in the text.
 */
export async function runCommand(
  sandbox: SandboxBackendProtocol,
  command: string,
  timeout: number | undefined,
  rt: ToolRuntime,
): Promise<ToolOutput> {
  if (timeout !== undefined && (timeout < 0 || timeout > MAX_EXECUTE_TIMEOUT)) {
    return { content: `Error: timeout must be between 0 and ${MAX_EXECUTE_TIMEOUT} seconds, got ${timeout}.`, status: "error" };
  }
  const writer = rt.config.writer;
  const id = rt.toolCall.id;
  const res = await sandbox.execute(
    command,
    timeout,
    writer ? { onOutput: (chunk) => writer({ type: EXECUTE_OUTPUT, toolCallId: id, chunk }) } : {},
  );
  return formatExecuteResult(res);
}

/** deepagents' text of an `execute` result: the output, then its exit code (or a timeout) and a truncation note. */
function formatExecuteResult(res: ExecuteResult): string {
  const parts = [res.output];
  if (res.exitCode !== null) {
    parts.push(`\n[Command ${res.exitCode === 0 ? "succeeded" : "failed"} with exit code ${res.exitCode}]`);
  } else {
    parts.push("\n[Command timed out]");
  }
  if (res.truncated) parts.push(`\n${TRUNCATED_NOTE}`);
  return parts.join("");
}

/**
 * The file tools for one agent. `outputChars` caps what read_file, ls, glob
 * and grep return (the window's result budget); the compact profile has
 * one-line descriptions for small context windows.
 */
export function createFilesystemTools(options: FileToolsOptions = {}): AgentTool[] {
  const profile = options.profile ?? "default";
  const t = describeTools(profile);
  const read = Math.min(options.outputChars ?? READ_OUTPUT_CHAR_LIMIT, READ_OUTPUT_CHAR_LIMIT);
  const list = Math.min(options.outputChars ?? LIST_OUTPUT_CHAR_LIMIT, LIST_OUTPUT_CHAR_LIMIT);
  const tools = [
    lsTool(t, list),
    readFileTool(t, read, options.readFormat ?? "numbered"),
    writeFileTool(t),
    editFileTool(t),
    deleteTool(t),
    globTool(t, list),
    grepTool(t, list),
    executeTool(t),
  ];
  return profile === "compact"
    ? tools.map((tool) => ({ ...tool, schema: withParamTexts(tool.schema, t[tool.name]?.params ?? {}) }))
    : tools;
}

/** A schema with its property descriptions replaced (compact profile); properties without a text lose theirs. */
function withParamTexts(schema: AgentTool["schema"], texts: Readonly<Record<string, string>>): AgentTool["schema"] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const next: Record<string, Record<string, unknown>> = {};
  for (const [key, prop] of Object.entries(props)) {
    const { description: _long, default: _default, ...rest } = prop;
    next[key] = texts[key] ? { ...rest, description: texts[key] } : rest;
  }
  return { ...schema, properties: next };
}

/** The default file tools (deepagents' texts and limits). */
export const filesystemTools: readonly AgentTool[] = createFilesystemTools();

/** One of the default tools by name (tests). */
export function fileTool(name: string): AgentTool {
  const found = filesystemTools.find((tool) => tool.name === name);
  if (!found) throw new Error(`no file tool ${name}`);
  return found;
}
