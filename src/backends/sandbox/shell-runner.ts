/**
 * One offline-shell command: a fresh just-bash interpreter over a filesystem,
 * with the shell's commands (the missing-sandbox answers, grep's path fix) and
 * limits. It runs wherever it is called: in the shell's own thread (see
 * shell-thread.ts, with the filesystem reached over a port) or, where no
 * thread can be started, on the caller's thread.
 */
import { Bash, type Command, type IFileSystem } from "just-bash/browser";
import { fixGrepPaths } from "./grep-paths.ts";
import { missingCommands } from "./missing-commands.ts";

/** What a command needs besides its filesystem: plain data, so it can cross to another thread. */
export interface ShellRequest {
  command: string;
  /** Extra environment variables. */
  env: Record<string, string>;
  /** The interpreter's own deadline, in ms (a thread is also killed from outside at the timeout). */
  deadlineMs: number;
  /** See PYTHON_LOAD_MS. */
  pythonLoadMs?: number;
  /** The host packages come from when the person chose a source (python-packages.ts); python3 then asks for them. */
  pythonPackages?: string;
}

/** What the interpreter answered. */
export interface ShellRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Runs one command. A redirect whose file the filesystem refuses (below a
 * file, an invalid name, over a size cap) fails as in bash: `bash: <file>:
 * <why>`, status 1, the script goes on and keeps its output (just-bash 3.4.2
 * threw it out of `exec`, losing the output; patches/just-bash+3.4.2.patch,
 * applied by `npm ci`, fixes that). Anything else the interpreter throws is
 * the command's: exit code 1 with the message.
 *
 * @throws a `StorageError` from the filesystem (storage stopped working),
 *   and nothing else.
 */
export async function runShellCommand(
  fs: IFileSystem,
  request: ShellRequest,
  signal?: AbortSignal,
  extra: { commands: Command[]; ms: number } = { commands: [], ms: 0 },
): Promise<ShellRunResult> {
  const names = new Set(extra.commands.map((c) => c.name));
  const bash = new Bash({
    fs,
    cwd: "/",
    env: { HOME: "/", USER: "agent", SHELL: "/bin/bash", TERM: "dumb", ...request.env },
    customCommands: [...missingCommands().filter((c) => !names.has(c.name)), ...extra.commands],
    // The timeout is the limit that matters: counts high enough that long loops end by it, not by a count.
    // Sizes: one string or pipe at most 64 MiB and 256 MiB alive, so a runaway pipeline ends with an error.
    executionLimits: {
      maxExecutionTimeMs: request.deadlineMs + extra.ms,
      maxOutputSize: 64 * 1024 * 1024,
      maxStringLength: 64 * 1024 * 1024,
      maxLiveBytes: 256 * 1024 * 1024,
      maxCommandCount: 1_000_000_000,
      maxLoopIterations: 1_000_000_000,
    },
    // Node only: its sandboxing of timers would break stores that use them (IndexedDB shims); a no-op in browsers.
    defenseInDepth: false,
  });
  fixGrepPaths(bash);
  try {
    const result = await bash.exec(request.command, signal ? { signal } : {});
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
  } catch (err) {
    if (err instanceof Error && err.name === "StorageError") throw err;
    return { stdout: "", stderr: `bash: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 1 };
  }
}
