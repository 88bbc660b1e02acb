/**
 * Which tools an agent (main or subagent) is offered, by name: an allow-list
 * (`allowedTools`) and a deny-list (`disallowedTools`), as Claude Code's
 * subagent files name them. Built-in tools count like any other, so an agent
 * can go without `execute` or a subagent can be held to reading.
 */
import { HarnessError } from "../harness/errors.ts";
import type { AgentTool } from "../harness/types.ts";
import { BUILTIN_TOOL_NAMES } from "../core/tool-names.ts";

/** An agent's tool filter: `allowed` (undefined: every tool) less `disallowed`. */
export interface ToolFilter {
  allowed?: readonly string[] | undefined;
  disallowed: readonly string[];
}

/** Is a tool of this name kept by the filter? */
export function toolAllowed(filter: ToolFilter, name: string): boolean {
  return (!filter.allowed || filter.allowed.includes(name)) && !filter.disallowed.includes(name);
}

/**
 * The tools the filter keeps, in their order. A name of `checked` (by default every name the filter holds) that is
 * neither one of these tools nor a built-in tool's is an `invalid_option` error naming `who` (a typo would otherwise
 * silently take a tool away or leave one on). A subagent checks only its own names: the ones it inherits may name
 * the parent's tools, which it need not have.
 */
export function filterTools(
  tools: readonly AgentTool[],
  filter: ToolFilter,
  who: string,
  checked: readonly string[] = [...(filter.allowed ?? []), ...filter.disallowed],
): AgentTool[] {
  const known = new Set([...tools.map((t) => t.name), ...BUILTIN_TOOL_NAMES]);
  const unknown = checked.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new HarnessError(
      "invalid_option",
      `${who} names ${unknown.map((n) => `'${n}'`).join(", ")}, which no tool has (tools: ${[...known].sort().join(", ")}).`,
    );
  }
  return tools.filter((t) => toolAllowed(filter, t.name));
}
