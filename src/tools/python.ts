/**
 * `python`: Python 3 (CPython through Pyodide, standard library only, no network) for an agent whose sandbox has no
 * `python3`: with no sandbox chosen (no `execute`), and in WebContainer (Node.js, no Python). The code runs exactly as
 * the offline shell's `python3 -c CODE` does: on the shell's own thread, over the same workspace files at the same
 * paths, under the shell's timeout and output cap (a runaway loop is stopped, the page never freezes), loaded from the
 * site's own files on first use. Its result reads as `execute`'s (output, then the exit code), and its output streams
 * to the page as `execute`'s does. Only the code runs: no other command is reachable through it.
 */
import { canExecute } from "../backends/protocol.ts";
import { resolveBackend, type BackendFactory } from "../backends/runtime.ts";
import type { AgentTool, ToolOutput } from "../harness/types.ts";
import { runCommand } from "../middleware/fs-tools.ts";
import { TOOL } from "../core/tool-names.ts";

export const PYTHON_TOOL_NAME = TOOL.python;

/** The description, with the package source's packages when there is one (its host). */
export function pythonDescription(packages?: string): string {
  const libraries = packages
    ? `standard library, and packages such as numpy, pandas and matplotlib, installed from ${packages} on import; no network`
    : "standard library only: no pip packages, no network";
  return [`Run Python 3 code (CPython in the browser, ${libraries}).`, ...DESCRIPTION_REST].join("\n");
}

const DESCRIPTION_REST = [
  "The workspace files are at the same paths as for the file tools: open('/data.csv') reads a file, and files you",
  "write (a CSV, a PNG made with the standard library) are saved and visible to the other tools and the user.",
  "Each call is a fresh interpreter: nothing survives to the next call. Print what you want to see; the output and",
  "the exit code come back as for a shell command.",
];

export const PYTHON_DESCRIPTION = pythonDescription();

/** The code as one shell word: single-quoted, each `'` closed, escaped and reopened. */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export interface PythonToolOptions {
  /** The offline shell over the agent's workspace (the sandbox service's `shell` route); its `python3` runs the code. */
  shell: BackendFactory;
  /** The host of the shell's package source (ShellBackendOptions.pythonPackages), when there is one: the description says so. */
  packages?: string | undefined;
}

export function createPythonTool(options: PythonToolOptions): AgentTool {
  return {
    name: PYTHON_TOOL_NAME,
    description: pythonDescription(options.packages),
    schema: {
      type: "object",
      properties: {
        code: { type: "string", description: "Python 3 source code to run." },
        timeout: {
          type: "integer",
          description: "Optional timeout in seconds (as execute's). Use it for long computations.",
        },
      },
      required: ["code"],
      additionalProperties: false,
    },
    async run(args, rt): Promise<ToolOutput> {
      const shell = resolveBackend(options.shell, rt.backendRuntime);
      if (!canExecute(shell)) return { content: "Error: Python is not available in this tab.", status: "error" };
      return runCommand(shell, `python3 -c ${shellWord(String(args.code))}`, args.timeout as number | undefined, rt);
    },
  };
}
