/**
 * ShellBackend: a sandbox backend whose commands run in just-bash (a bash
 * interpreter written in TypeScript) over the backend's own files. It works
 * everywhere (Node, a page, a Web Worker) with no server and no network.
 *
 * - Files: a {@link FileBackend} over a {@link FileStore} (an in-memory one by
 *   default; in the app, the thread's IndexedDB workspace). The shell sees the
 *   same store at `/` (see shell-fs.ts), so a file a command writes is at once
 *   visible to `read_file`, `ls`, `grep` and `glob`, and the other way round.
 * - Where commands run: on the shell's own thread where one can be started (a
 *   dedicated Web Worker in browsers; in Node, threads the caller passes), so a
 *   CPU-bound command never holds the caller's thread, and Stop (the run's
 *   `signal`) or the timeout terminates it at once; the next command gets a
 *   fresh thread. Its files are reached through the caller (shell-thread.ts
 *   says what a killed command leaves: the file operations it completed, each
 *   whole). Without threads (`threads: "inline"`, or Node by default) commands
 *   run on the caller's thread and stop at the next statement.
 * - `execute(command, timeout)`: combined output (stdout, then stderr: the
 *   interpreter returns them separately, so their interleaving is lost), the
 *   exit code, and `truncated` when the output was cut at `maxOutputBytes`.
 *   A command is stopped at its timeout (default 120 s; 0 or more than
 *   `maxTimeout`, default 300 s, means `maxTimeout`); then `exitCode` is null
 *   and the output says so in deepagents' words. A command that needs a
 *   missing sandbox (`node`, `npm`, `git`, `python`) answers exit code 127
 *   naming the sandbox that has it.
 * - Limits: a file the shell writes holds at most `maxFileBytes` (10 MiB;
 *   `EFBIG` beyond, nothing written); `/tmp` holds at most 64 MiB per session
 *   (`ENOSPC`); see shell-fs.ts.
 *
 * Limits worth knowing: output arrives when a command ends (no streaming), so
 * a command that times out or is stopped loses its output.
 */
import { FileBackend } from "../file-backend.ts";
import { capBytes, DEFAULT_MAX_OUTPUT_BYTES } from "../output-cap.ts";
import { MAX_FILE_WRITE_BYTES } from "../file-ops.ts";
import type { FileStore } from "../file-store.ts";
import { MemoryFileStore } from "../memory-store.ts";
import { sortByPath } from "../file-ops.ts";
import { dirPrefix, isWithin, normalizePath } from "../paths.ts";
import {
  isBackendError,
  type DeleteOptions,
  type ExecuteOptions,
  type ExecuteResult,
  type FileInfo,
  type Outcome,
  type SandboxBackendProtocol,
} from "../protocol.ts";
import { ShellFileStore } from "./shell-files.ts";
import type { ShellFs } from "./shell-fs.ts";
import type * as Runner from "./shell-runner.ts";
import type { ShellRequest, ShellRunResult } from "./shell-runner.ts";

/**
 * The interpreter's module, for the path without a shell thread (Node): beside this one, as a source (`.ts`, run by
 * tsx or Vitest) or as the npm package's compiled `.js` (the package build rewrites only literal `new URL` names).
 */
const RUNNER_MODULE = import.meta.url.endsWith(".ts") ? "./shell-runner.ts" : "./shell-runner.js";
import { newShellSession, type ShellSession } from "./shell-session.ts";
import type { PackageRequest, PythonPackages } from "./python-packages.ts";
import type { ShellFsCalls, ShellThreads } from "./shell-thread.ts";

export const DEFAULT_EXECUTE_TIMEOUT = 120;
/** The longest a command may run, in seconds: what a person waits for (5 minutes). `timeout: 0` means this. */
export const DEFAULT_MAX_EXECUTE_TIMEOUT = 300;
/** Output returned by one command; beyond it the result says `truncated` (large results are offloaded by the harness anyway). */
export { DEFAULT_MAX_OUTPUT_BYTES } from "../output-cap.ts";
/** How much longer than its timeout the interpreter's own deadline is when a thread is killed from outside at the timeout. */
const BACKSTOP_MS = 5_000;

export interface ShellBackendOptions {
  /** The files: a FileStore, or a FileBackend whose store the shell shares. Default: a new in-memory store. */
  files?: FileStore | FileBackend;
  /** The clock for file timestamps. */
  now?: () => string;
  /** Seconds a command may run when the caller gives no timeout. Default 120. */
  defaultTimeout?: number;
  /** The longest timeout honoured, in seconds (a larger one, or 0, is cut to it). Default 300. */
  maxTimeout?: number;
  /** Bytes of output returned. Default 1,000,000. */
  maxOutputBytes?: number;
  /** Bytes one file may hold when the shell writes it. Default 10 MiB. */
  maxFileBytes?: number;
  /** Aborts running commands (the run's signal). */
  signal?: AbortSignal;
  /** /tmp and empty directories kept between commands (share one per thread). Default: this backend's own. */
  session?: ShellSession;
  /** Extra environment variables for every command. */
  env?: Record<string, string>;
  /** Stable id of this sandbox (SandboxBackendProtocol.id). Default "offline-shell". */
  id?: string;
  /**
   * Where commands run: threads that can be terminated (default: this page's or
   * worker's Web Workers, see `defaultShellThreads`), or "inline" on the
   * caller's thread (the default where there are no Web Workers, as in Node).
   */
  threads?: ShellThreads | "inline";
  /**
   * Where python3 gets packages beyond the standard library (numpy, pandas…): a source, or a function giving the
   * current one (a setting the person can change). Default: none, the standard library only. The source is
   * fetched from the caller's thread; the shell's thread stays without network (python-packages.ts).
   */
  pythonPackages?: PythonPackages | (() => Promise<PythonPackages | undefined>);
}

function isStore(files: FileStore | FileBackend): files is FileStore {
  return !(files instanceof FileBackend);
}

/**
 * What a sandbox answers when a command hit its timeout: deepagents' words
 * (`Error: Command timed out after N seconds…`), and the cap when the
 * requested timeout (0: none) was cut to it.
 */
export function timeoutMessage(seconds: number, requested: number | undefined, max: number): string {
  const text =
    requested === undefined
      ? `Error: Command timed out after ${seconds} seconds. For long-running commands, re-run using the timeout parameter.`
      : `Error: Command timed out after ${seconds} seconds (custom timeout). The command may be stuck or require more time.`;
  const cut = requested !== undefined && (requested <= 0 || requested > seconds) && seconds === max;
  return cut ? `${text} This sandbox stops every command after at most ${max} seconds.` : text;
}

function abortError(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new DOMException("The run was cancelled.", "AbortError");
}

export class ShellBackend extends FileBackend implements SandboxBackendProtocol {
  readonly id: string;
  readonly #options: ShellBackendOptions;
  readonly #session: ShellSession;
  readonly #store: FileStore;
  readonly #now: () => string;
  #fs: Promise<ShellFs> | undefined;
  #running = true;

  constructor(options: ShellBackendOptions = {}) {
    const files = options.files ?? new MemoryFileStore();
    const store = isStore(files) ? files : files.store;
    const now = options.now ?? (() => new Date().toISOString());
    const session = options.session ?? newShellSession({ now });
    // The file tools see the shell's tree: /tmp is the session's, and directories made with mkdir count.
    super(new ShellFileStore(store, session), now, isStore(files) ? undefined : files.stepGuard);
    this.id = options.id ?? "offline-shell";
    this.#options = options;
    this.#store = store;
    this.#now = now;
    this.#session = session;
  }

  /** False once {@link close} was called (deepagentsjs' sandbox `isRunning`). */
  get isRunning(): boolean {
    return this.#running;
  }

  /**
   * Ends this sandbox, as deepagentsjs' sandboxes' `close()` does: it runs no more commands (they answer exit code
   * 126 saying so), drops its loaded filesystem view and, when the session is its own (none was passed in), frees
   * `/tmp` and the empty directories. The workspace files stay: they are the caller's store.
   */
  async close(): Promise<void> {
    this.#running = false;
    this.#fs = undefined;
    if (!this.#options.session) {
      this.#session.tmp.clear();
      this.#session.dirs.clear();
    }
  }

  /** The listing, with the empty directories `mkdir` made (an empty directory lists as `[]`). */
  override async ls(raw: string): Promise<Outcome<FileInfo[]>> {
    const listed = await super.ls(raw);
    const path = normalizePath(raw);
    if (isBackendError(listed) || isBackendError(path) || listed.some((f) => f.path === path)) return listed;
    const out = new Map(listed.map((f) => [f.path, f]));
    const prefix = dirPrefix(path);
    for (const dir of this.#session.dirs.keys()) {
      if (!dir.startsWith(prefix) || dir === path) continue;
      const child = prefix + dir.slice(prefix.length).split("/")[0]!;
      if (!out.has(child)) out.set(child, { path: child, isDir: true, size: 0 });
    }
    return sortByPath([...out.values()]);
  }

  /** A file, or a directory with everything below it, the empty directories `mkdir` made included. */
  override async delete(raw: string, options?: DeleteOptions): Promise<Outcome<{ path: string }>> {
    const res = await super.delete(raw, options);
    const path = normalizePath(raw);
    if (isBackendError(path) || (isBackendError(res) && res.error !== "file_not_found")) return res;
    const empty = [...this.#session.dirs.keys()].filter((d) => isWithin(d, path));
    for (const d of empty) this.#session.dirs.delete(d);
    return isBackendError(res) && empty.length === 0 ? res : { path };
  }

  /**
   * The shell's view of the files, loaded with the first command: a turn that runs none (and the agent's worker at
   * startup) never loads the shell's filesystem or its thread machinery.
   */
  #shellFs(): Promise<ShellFs> {
    const maxFileBytes = this.#options.maxFileBytes ?? MAX_FILE_WRITE_BYTES;
    this.#fs ??= import("./shell-fs.ts").then(
      ({ ShellFs }) => new ShellFs(this.#store, this.#session, this.#now, maxFileBytes),
      (error: unknown) => {
        this.#fs = undefined; // a failed load (a chunk not reachable) is tried again at the next command
        throw error;
      },
    );
    return this.#fs;
  }

  #max(): number {
    return this.#options.maxTimeout ?? DEFAULT_MAX_EXECUTE_TIMEOUT;
  }

  /** Seconds a call may run: the given timeout (0 or missing: the maximum / the default), capped. */
  #seconds(timeout: number | undefined): number {
    const max = this.#max();
    if (timeout === undefined) return Math.min(this.#options.defaultTimeout ?? DEFAULT_EXECUTE_TIMEOUT, max);
    if (!(timeout > 0)) return max;
    return Math.min(timeout, max);
  }

  async #threads(): Promise<ShellThreads | undefined> {
    const threads = this.#options.threads;
    if (threads === "inline") return undefined;
    return threads ?? (await import("./shell-thread.ts")).defaultShellThreads();
  }

  async execute(command: string, timeout?: number, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    if (!this.#running) return { output: "Error: this sandbox was closed; it runs no more commands.", exitCode: 126, truncated: false };
    const seconds = this.#seconds(timeout);
    const signal = this.#options.signal;
    if (signal?.aborted) throw abortError(signal);
    const timedOut = (): ExecuteResult => ({
      output:
        `${timeoutMessage(seconds, timeout, this.#max())}\n` +
        "The offline shell stopped it; what it printed was lost (output arrives only when a command ends), " +
        "and the files it finished writing are kept. Use a larger timeout, or split the work into shorter commands.",
      exitCode: null,
      truncated: false,
    });
    const [threads, fs] = await Promise.all([this.#threads(), this.#shellFs()]);
    if (signal?.aborted) throw abortError(signal);
    let result: ShellRunResult;
    if (threads) {
      const source = this.#options.pythonPackages;
      const packages = typeof source === "function" ? await source() : source;
      const request: ShellRequest = {
        command,
        env: this.#options.env ?? {},
        deadlineMs: seconds * 1000 + BACKSTOP_MS,
        ...(packages && { pythonPackages: packages.host }),
      };
      // ShellFs answers every filesystem call the thread makes (its methods are the calls).
      const fsCalls = fs as unknown as ShellFsCalls;
      const { runOnThread } = await import("./shell-thread.ts");
      // Status lines (Python's first load) go to the terminal panel at once, not into the command's output.
      const onStatus = options.onOutput;
      const outcome = await runOnThread(threads, fsCalls, request, {
        timeoutMs: seconds * 1000,
        signal,
        ...(onStatus && { onStatus }),
        ...(packages && { packages: (asked: PackageRequest) => packages.deliver(asked) }),
      });
      switch (outcome.kind) {
        case "done":
          result = outcome.result;
          break;
        case "timeout":
          return timedOut();
        case "aborted":
          throw abortError(signal);
        case "storage":
          throw outcome.error;
        case "crashed":
          return {
            output:
              `The offline shell's thread stopped while running the command (${outcome.reason}). ` +
              "The files it finished writing are kept. Run a smaller command, or split the work.",
            exitCode: 1,
            truncated: false,
          };
      }
    } else {
      // A computed specifier: browser bundles (which run commands on the shell's worker) then carry no second copy
      // of the interpreter for a path they never take. A variable, not a literal: Vite inlines a literal
      // `new URL("./x.ts", import.meta.url)` as a base64 data URL of the file's source (4 KB in the agent worker).
      const runner = new URL(RUNNER_MODULE, import.meta.url).href;
      const { runShellCommand } = (await import(/* @vite-ignore */ runner)) as typeof Runner;
      const started = performance.now();
      result = await runShellCommand(fs, { command, env: this.#options.env ?? {}, deadlineMs: seconds * 1000 }, signal);
      if (signal?.aborted) throw abortError(signal);
      // The interpreter's deadline ends a command with 124 (its message varies: a loop, `sleep`, a pipeline).
      if (result.exitCode === 124 && performance.now() - started >= seconds * 1000 - 50) return timedOut();
    }
    const combined = result.stdout + (result.stderr && result.stdout && !result.stdout.endsWith("\n") ? "\n" : "") + result.stderr;
    const { text, truncated } = capBytes(combined, this.#options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
    if (text) options.onOutput?.(text);
    return { output: text, exitCode: result.exitCode, truncated };
  }
}
