/**
 * The terminal panel's model, pure: every `execute`, `js_eval` and `python` call of a timeline (a
 * subagent's nested ones too) in order (a `js_eval` or `python` call's command is its code), with its command, its output and
 * the exit code parsed from deepagents' result format:
 * `[Command succeeded with exit code 0]`, `[Command failed with exit code N]`,
 * `[Command timed out]`, optionally followed by
 * `[Output was truncated due to size limits]`.
 */
import type { TimelineItem, ToolItem, ToolStatus } from "../chat/timeline.ts";

export type CommandState =
  "running" | "waiting" | "succeeded" | "failed" | "timed_out" | "finished" | "error" | "cancelled" | "stopped" | "rejected" | "responded";

export interface TerminalCommand {
  /** Position in the list (lists are keyed by position). */
  key: number;
  command: string;
  /** The output (live while running), without the trailer lines. */
  output: string;
  state: CommandState;
  exitCode: number | null;
  /** The output was cut at the sandbox's size limit. */
  truncated: boolean;
  durationMs?: number;
  /** The full result was offloaded to this file. */
  offloadedTo?: string;
  /** Set when a subagent ran it: the subagent's type. */
  subagent?: string;
  /** Not run: the person's reason (rejected) or the answer given instead (responded), as the model got it. */
  note?: string;
}

export interface ParsedResult {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  /** The text had an exit trailer (it came from the sandbox, not an argument error). */
  recognized: boolean;
}

const EXIT = /\n?\[Command (succeeded|failed) with exit code (-?\d+)\]$/;
const TIMEOUT = /\n?\[Command timed out\]$/;
const TRUNCATED = /\n?\[Output was truncated due to size limits\]$/;

/** Splits an execute result into its output and trailer. */
export function parseExecuteResult(text: string): ParsedResult {
  let rest = text.replace(/\s+$/, "");
  const truncated = TRUNCATED.test(rest);
  if (truncated) rest = rest.replace(TRUNCATED, "");
  const exit = EXIT.exec(rest);
  if (exit) return { output: rest.slice(0, exit.index), exitCode: Number(exit[2]), timedOut: false, truncated, recognized: true };
  if (TIMEOUT.test(rest)) return { output: rest.replace(TIMEOUT, ""), exitCode: null, timedOut: true, truncated, recognized: true };
  // An offloaded result's stub quotes the trailer among numbered lines: take the exit code, keep the text.
  const quoted = [...text.matchAll(/\[Command (succeeded|failed) with exit code (-?\d+)\]|\[Command timed out\]/g)].at(-1);
  if (quoted) return { output: text, exitCode: quoted[2] ? Number(quoted[2]) : null, timedOut: !quoted[2], truncated, recognized: true };
  return { output: text, exitCode: null, timedOut: false, truncated, recognized: false };
}

function stateOf(status: ToolStatus, parsed: ParsedResult | undefined): CommandState {
  if (
    status === "running" ||
    status === "waiting" ||
    status === "cancelled" ||
    status === "stopped" ||
    status === "rejected" ||
    status === "responded"
  )
    return status;
  if (status === "error") return "error";
  if (!parsed?.recognized) return "finished";
  if (parsed.timedOut) return "timed_out";
  return parsed.exitCode === 0 ? "succeeded" : "failed";
}

function commandOf(item: ToolItem, subagent: string | undefined, key: number): TerminalCommand {
  const raw = item.call.args[item.call.name === "execute" ? "command" : "code"];
  const decided = item.status === "rejected" || item.status === "responded";
  const parsed = item.result !== undefined && !decided ? parseExecuteResult(item.result) : undefined;
  return {
    key,
    command: typeof raw === "string" ? raw : JSON.stringify(item.call.args),
    output: parsed ? parsed.output : decided ? "" : (item.output ?? ""),
    state: stateOf(item.status, parsed),
    exitCode: parsed?.exitCode ?? null,
    truncated: parsed?.truncated ?? false,
    ...(item.durationMs !== undefined ? { durationMs: item.durationMs } : {}),
    ...(item.offloadedTo ? { offloadedTo: item.offloadedTo } : {}),
    ...(subagent ? { subagent } : {}),
    ...(decided && item.result ? { note: item.result } : {}),
  };
}

/** The tools whose calls the terminal shows: shell commands, JavaScript runs (tools/js-eval.ts), Python runs (tools/python.ts). */
const TERMINAL_TOOLS: ReadonlySet<string> = new Set(["execute", "js_eval", "python"]);

/** Every execute, js_eval and python call in timeline order; a `task` card's nested calls at its place. */
export function terminalCommands(items: readonly TimelineItem[]): TerminalCommand[] {
  const out: TerminalCommand[] = [];
  const walk = (list: readonly TimelineItem[], subagent: string | undefined) => {
    for (const item of list) {
      if (item.kind !== "tool") continue;
      if (TERMINAL_TOOLS.has(item.call.name)) out.push(commandOf(item, subagent, out.length));
      if (item.children?.length) {
        const type = item.call.args["subagent_type"];
        walk(item.children, typeof type === "string" && type ? type : "subagent");
      }
    }
  };
  walk(items, undefined);
  return out;
}

/** What the status badge says. */
export function stateLabel(c: TerminalCommand): string {
  switch (c.state) {
    case "running":
      return "Running";
    case "waiting":
      return "Waiting for approval";
    case "succeeded":
      return "Exit code 0";
    case "failed":
      return `Exit code ${c.exitCode ?? "?"}`;
    case "timed_out":
      return "Timed out";
    case "finished":
      return "Finished";
    case "cancelled":
      return "Cancelled";
    case "stopped":
      return "Stopped";
    case "error":
      return "Error";
    case "rejected":
      return "Rejected (not run)";
    case "responded":
      return "Responded (not run)";
  }
}
