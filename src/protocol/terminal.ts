/**
 * The person's terminal in the protocol: a command the person types runs in the thread's shell, over the same
 * files the agent sees, with the limits of the agent's `execute` (worker/terminal/person-commands.ts).
 */
import type { ErrorInfo } from "../core/errors.ts";
import type { Result } from "../core/result.ts";
import type { SandboxKind } from "./settings.ts";

/** How a person's command ended. */
export interface CommandRun {
  /** What it printed (stdout, then stderr), cut at the sandbox's output cap. */
  output: string;
  /** Its exit code; null when it timed out or was cancelled. */
  exitCode: number | null;
  /** The output was cut at the output cap (the same as the agent's `execute`: 1,000,000 bytes). */
  truncated: boolean;
  /** It was stopped at its timeout (120 s, as the agent's `execute` without a `timeout`). */
  timedOut: boolean;
  /** It was cancelled (Ctrl+C: `cancelCommand`). */
  cancelled: boolean;
  durationMs: number;
  /** Where it ran: the offline shell or the WebContainer. */
  sandbox: Exclude<SandboxKind, "none">;
}

/**
 * Why a person's command did not run:
 * - `empty_command`: nothing but blanks;
 * - `no_sandbox`: the thread has no sandbox (Settings → Sandbox "none"), so nothing runs commands;
 * - `thread_busy`: the agent is working in this thread; a command of the person's waits until the run ends or is
 *   stopped (both would change the same files at once);
 * - `command_running`: a command of the person's already runs in this thread (one at a time, as in a terminal);
 * - `needs_approval`: a rule asks before every command (`rule` names it: "Ask before running commands", or an
 *   agent's rules); the page asks the person and calls again with `approved: true`.
 */
export type CommandErrorCode = "empty_command" | "no_sandbox" | "thread_busy" | "command_running" | "needs_approval";
export type CommandError = ErrorInfo & { code: CommandErrorCode; rule?: string };
export type CommandResult = Result<CommandRun, CommandError>;

/** Options of one command. */
export interface RunCommandOptions {
  /** The person confirmed the command a rule stops (after `needs_approval`). */
  approved?: boolean;
}

/** The person's terminal, as the worker offers it (part of AgentWorkerApi). */
export interface TerminalApi {
  /**
   * Runs the person's `command` in thread `threadId`'s shell: the sandbox the thread's runs use (the offline shell,
   * with python3; or the WebContainer with node and npm), over the thread's files, with the same limits as the
   * agent's `execute` (timeout, output cap, `/tmp` cap, path handling). `onOutput` (a `Comlink.proxy`) receives what
   * it prints as it arrives (the offline shell prints when the command ends; status lines, such as Python's first
   * load, at once). Nothing of it reaches the model.
   */
  runCommand(threadId: string, command: string, onOutput: (chunk: string) => void, options?: RunCommandOptions): Promise<CommandResult>;
  /** Cancels the person's running command in a thread (Ctrl+C); false when none runs. */
  cancelCommand(threadId: string): Promise<boolean>;
}
