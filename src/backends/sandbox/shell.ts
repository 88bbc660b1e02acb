/**
 * ShellBackend: a sandbox backend whose commands run in just-bash (a bash
 * interpreter written in TypeScript) over the backend's own files. It works
 * everywhere (Node, a page, a Web Worker) with no server and no network.
 *
 * - Files: a {@link FileBackend} over a {@link FileStore} (an in-memory one by
 *   default; in the app, the thread's IndexedDB workspace). The shell sees the
 *   same store at `/` (see shell-fs.ts), so a file a command writes is at once
 *   visible to `read_file`, `ls`, `grep` and `glob`, and the other way round.
 * - `execute(command, timeout)`: combined output (stdout, then stderr: the
 *   interpreter returns them separately, so their interleaving is lost), the
 *   exit code, and `truncated` when the output was cut at `maxOutputBytes`.
 *   A command is stopped at its timeout (default 120 s, at most
 *   `maxTimeout`); then `exitCode` is null and the output says so. A command
 *   that writes into a missing sandbox (`node`, `npm`, `git`, `python`)
 *   answers exit code 127 naming the sandbox that has it.
 *
 * Limits worth knowing: output arrives when a command ends (no streaming);
 * a command that times out loses its output; the interpreter runs on the
 * calling thread, and a CPU-bound loop holds it until the deadline.
 */
import { Bash } from "just-bash/browser";
import { FileBackend } from "../file-backend.ts";
import type { FileStore } from "../file-store.ts";
import { MemoryFileStore } from "../memory-store.ts";
import type { ExecuteOptions, ExecuteResult, SandboxBackendProtocol } from "../protocol.ts";
import { missingCommands } from "./missing-commands.ts";
import { newShellSession, ShellFs, type ShellSession } from "./shell-fs.ts";

export const DEFAULT_EXECUTE_TIMEOUT = 120;
export const DEFAULT_MAX_EXECUTE_TIMEOUT = 3_600;
/** Output returned by one command; beyond it the result says `truncated` (large results are offloaded by the harness anyway). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_000_000;

export interface ShellBackendOptions {
  /** The files: a FileStore, or a FileBackend whose store the shell shares. Default: a new in-memory store. */
  files?: FileStore | FileBackend;
  /** The clock for file timestamps. */
  now?: () => string;
  /** Seconds a command may run when the caller gives no timeout. Default 120. */
  defaultTimeout?: number;
  /** The longest timeout honoured, in seconds (a larger one, or 0, is cut to it). Default 3,600. */
  maxTimeout?: number;
  /** Bytes of output returned. Default 1,000,000. */
  maxOutputBytes?: number;
  /** Aborts running commands (the run's signal). */
  signal?: AbortSignal;
  /** /tmp and empty directories kept between commands (share one per thread). Default: this backend's own. */
  session?: ShellSession;
  /** Extra environment variables for every command. */
  env?: Record<string, string>;
  /** Stable id of this sandbox (SandboxBackendProtocol.id). Default "offline-shell". */
  id?: string;
}

const DEADLINE = /^bash: execution (?:aborted|exceeded execution deadline)/;

function isStore(files: FileStore | FileBackend): files is FileStore {
  return !(files instanceof FileBackend);
}

/** Cuts text to at most `max` UTF-8 bytes, on a character boundary. */
function capBytes(text: string, max: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return { text, truncated: false };
  return { text: new TextDecoder().decode(bytes.subarray(0, max)).replace(/\uFFFD$/, ""), truncated: true };
}

export class ShellBackend extends FileBackend implements SandboxBackendProtocol {
  readonly id: string;
  readonly #fs: ShellFs;
  readonly #options: ShellBackendOptions;

  constructor(options: ShellBackendOptions = {}) {
    const files = options.files ?? new MemoryFileStore();
    const store = isStore(files) ? files : files.store;
    const now = options.now ?? (() => new Date().toISOString());
    super(store, now);
    this.id = options.id ?? "offline-shell";
    this.#options = options;
    this.#fs = new ShellFs(store, options.session ?? newShellSession(), now);
  }

  /** Seconds a call may run: the given timeout (0 or missing: the default / the maximum), capped. */
  #seconds(timeout: number | undefined): number {
    const max = this.#options.maxTimeout ?? DEFAULT_MAX_EXECUTE_TIMEOUT;
    if (timeout === undefined) return Math.min(this.#options.defaultTimeout ?? DEFAULT_EXECUTE_TIMEOUT, max);
    if (!(timeout > 0)) return max;
    return Math.min(timeout, max);
  }

  async execute(command: string, timeout?: number, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const seconds = this.#seconds(timeout);
    const signal = this.#options.signal;
    // A fresh interpreter per command (about 0.1 ms): its deadline is this command's.
    const bash = new Bash({
      fs: this.#fs,
      cwd: "/",
      env: { HOME: "/", USER: "agent", SHELL: "/bin/bash", TERM: "dumb", ...this.#options.env },
      customCommands: missingCommands(),
      // The timeout is the limit that matters: counts high enough that long loops end by it, not by a count.
      executionLimits: {
        maxExecutionTimeMs: seconds * 1000,
        maxOutputSize: 256 * 1024 * 1024,
        maxCommandCount: 1_000_000_000,
        maxLoopIterations: 1_000_000_000,
      },
      // Node only: its sandboxing of timers would break stores that use them (IndexedDB shims); a no-op in browsers.
      defenseInDepth: false,
    });
    const started = performance.now();
    let result: { stdout: string; stderr: string; exitCode: number };
    try {
      result = await bash.exec(command, signal ? { signal } : {});
    } catch (err) {
      // A storage failure ends the run; any other failure (a write the store refused) is the command's.
      if (err instanceof Error && err.name === "StorageError") throw err;
      result = { stdout: "", stderr: `bash: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 1 };
    }
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException("The run was cancelled.", "AbortError");
    const timedOut = result.exitCode === 124 && DEADLINE.test(result.stderr) && performance.now() - started >= seconds * 1000 - 50;
    if (timedOut) {
      return {
        output:
          `Command timed out after ${seconds} seconds and was stopped ` +
          "(the offline shell returns output only when a command ends, so its output was lost). " +
          "Use a larger timeout, or split the work into shorter commands.",
        exitCode: null,
        truncated: false,
      };
    }
    const combined = result.stdout + (result.stderr && result.stdout && !result.stdout.endsWith("\n") ? "\n" : "") + result.stderr;
    const { text, truncated } = capBytes(combined, this.#options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
    if (text) options.onOutput?.(text);
    return { output: text, exitCode: result.exitCode, truncated };
  }
}
