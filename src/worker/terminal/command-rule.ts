/**
 * Whether a command asks the person first, for the person's own commands in the terminal (person-commands.ts): the
 * rules the agent's `execute` calls follow, as buildAgent (the setting; kept inline there, off the worker's startup
 * code) and agent-run.ts's folder options (path rules beside a shell, `interrupt_on.execute`) apply them.
 */
import type { SandboxKind } from "../../protocol/settings.ts";

/** The Settings switch's name, as the Settings dialog labels it. */
const ASK_BEFORE_COMMANDS = "Ask before running commands";

/** The setting asks before every command (when there is a sandbox to run them in). */
export function settingAsksForCommands(approveExecute: boolean, sandbox: SandboxKind): boolean {
  return approveExecute && sandbox !== "none";
}

/** What of a thread's agent folder bears on its commands. */
export interface FolderCommandRules {
  /** The folder's `interrupt_on` (a rule for `execute`, or none). */
  interruptOn: Readonly<Record<string, unknown>>;
  /** The folder's path rules: beside a shell, every command is approved first (agent-permissions.ts). */
  permissions: readonly unknown[];
}

/**
 * The rule that stops a command in a thread until the person approves it, said for people, or undefined when none
 * does: the Settings switch, an agent's path rules beside a shell, or its own `interrupt_on.execute`.
 */
export function commandRule(approveExecute: boolean, sandbox: SandboxKind, folder?: FolderCommandRules): string | undefined {
  if (settingAsksForCommands(approveExecute, sandbox)) return `"${ASK_BEFORE_COMMANDS}" (Settings)`;
  if (!folder || sandbox === "none") return undefined;
  if (folder.permissions.length > 0) return "this thread's agent has path rules, so every command is approved first";
  const rule = folder.interruptOn["execute"];
  if (rule === true || (typeof rule === "object" && rule !== null)) return "this thread's agent asks before every command (interrupt_on)";
  return undefined;
}
