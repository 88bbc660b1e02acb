/**
 * The person's commands (the terminal panel): each runs in the thread's sandbox exactly as the agent's `execute`
 * does, through the same backend route (the thread's workspace, its shell session with `/tmp`), with the same
 * limits (the sandbox's timeout: the default the agent's `execute` gets without a `timeout`; its output cap and `/tmp`
 * cap), and asks first where a rule stops the agent's commands
 * (command-rule.ts). Nothing of it enters the conversation.
 *
 * While the agent runs in the thread, a command of the person's is refused (`thread_busy`): both would change the
 * same files at once, and a step of the agent checks that the files it read are unchanged. One command of the
 * person's runs at a time per thread. Cancel (Ctrl+C) aborts it: the offline shell's thread is terminated at once
 * (what the command finished writing stays); a WebContainer process is stopped at its timeout.
 */
import { createBackendRuntime, resolveBackend, type BackendFactory } from "../../backends/runtime.ts";
import { canExecute } from "../../backends/protocol.ts";
import { toErrorInfo } from "../../core/errors.ts";
import { fail, ok } from "../../core/result.ts";
import type { SandboxKind, Settings } from "../../protocol/settings.ts";
import type { CommandResult, TerminalApi } from "../../protocol/terminal.ts";
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import type { SandboxService } from "../sandbox.ts";
import { commandRule } from "./command-rule.ts";

export interface PersonCommandDeps {
  /** The workspace route for a sandbox (the same one the agent's `execute` uses). */
  backend(kind: SandboxKind): BackendFactory;
  /** A run of this thread is going on in this worker. */
  runningHere(threadId: string): boolean;
  /** Which sandbox runs commands (worker/sandbox.ts). */
  sandbox: Pick<SandboxService, "active">;
  settings: { get(): Promise<Pick<Settings, "sandbox" | "approveExecute">> };
  /** Whether a thread has an agent folder of its own. */
  threads: { agentOf(threadId: string): Promise<unknown> };
  /** The agents' service (loaded on demand): a thread's agent folder. */
  agents(): Promise<{ folderOf(threadId: string): Promise<{ ok: true; agent: AgentDefinition | undefined } | { ok: false }> }>;
}

/** The sandbox and the rule (if any) of a thread's commands: as its next run would have them (worker/app.ts). */
async function contextOf(deps: PersonCommandDeps, threadId: string): Promise<{ sandbox: SandboxKind; rule: string | undefined }> {
  const s = await deps.settings.get();
  const folder = (await deps.threads.agentOf(threadId)) ? await (await deps.agents()).folderOf(threadId) : undefined;
  const agent = folder?.ok ? folder.agent : undefined;
  const wanted = agent?.manifest.sandbox;
  const sandbox = deps.sandbox.active(wanted === undefined ? s.sandbox : wanted === "webcontainer" ? "auto" : wanted);
  return { sandbox, rule: commandRule(s.approveExecute, sandbox, agent?.manifest) };
}

/** A cancelled command's output, as a terminal shows Ctrl+C. */
const CANCELLED_LINE = "^C";

export function createPersonCommands(deps: PersonCommandDeps): TerminalApi {
  const running = new Map<string, AbortController>();

  async function runCommand(
    threadId: string,
    command: string,
    onOutput: (chunk: string) => void,
    options: { approved?: boolean } = {},
  ): Promise<CommandResult> {
    if (!command.trim()) return fail("empty_command", "Type a command first.");
    if (deps.runningHere(threadId))
      return fail("thread_busy", "The agent is working in this thread. Run your command when it finishes, or stop it first.");
    if (running.has(threadId)) return fail("command_running", "A command is still running here. Press Ctrl+C to stop it.");
    const controller = new AbortController();
    running.set(threadId, controller);
    try {
      const { sandbox, rule } = await contextOf(deps, threadId);
      if (sandbox === "none") return fail("no_sandbox", "This thread has no sandbox to run commands in. Choose one in Settings → Sandbox.");
      if (rule && !options.approved)
        return { ok: false, error: { name: "Error", code: "needs_approval", message: `Approval needed: ${rule}.`, rule } };
      const rt = createBackendRuntime({}, { configurable: { thread_id: threadId }, signal: controller.signal });
      const backend = resolveBackend(deps.backend(sandbox), rt);
      if (!canExecute(backend)) return fail("no_sandbox", "This thread's sandbox cannot run commands.");
      const started = performance.now();
      const done = (output: string, exitCode: number | null, extra: { truncated?: boolean; timedOut?: boolean; cancelled?: boolean }) =>
        ok({
          output,
          exitCode,
          truncated: extra.truncated ?? false,
          timedOut: extra.timedOut ?? false,
          cancelled: extra.cancelled ?? false,
          durationMs: Math.round(performance.now() - started),
          sandbox,
        });
      // The WebContainer does not take the signal: Ctrl+C returns the prompt, and its timeout stops the process.
      if (controller.signal.aborted) return done(CANCELLED_LINE, null, { cancelled: true });
      const cancelled = new Promise<"cancelled">((resolve) => controller.signal.addEventListener("abort", () => resolve("cancelled")));
      try {
        const execution = backend.execute(command, undefined, { onOutput });
        execution.catch(() => undefined); // after a cancel, its abort is of no interest
        const result = await Promise.race([execution, cancelled]);
        if (result === "cancelled") return done(CANCELLED_LINE, null, { cancelled: true });
        return done(result.output, result.exitCode, { truncated: result.truncated, timedOut: result.exitCode === null });
      } catch (cause) {
        if (controller.signal.aborted) return done(CANCELLED_LINE, null, { cancelled: true });
        // An unexpected failure (storage refused a write): said as the command's output, as a shell would.
        return done(`Error: ${toErrorInfo(cause).message}`, 1, {});
      }
    } finally {
      if (running.get(threadId) === controller) running.delete(threadId);
    }
  }

  return {
    runCommand,
    async cancelCommand(threadId) {
      const controller = running.get(threadId);
      if (!controller) return false;
      controller.abort();
      return true;
    },
  };
}
