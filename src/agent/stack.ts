/**
 * Assembly of the middleware stack.
 *
 * Order (first = outermost around model and tool calls), as in deepagents:
 *
 *  1. FilesystemMiddleware  — file tools; hides tools the backend cannot serve;
 *                             same-path guard and large-result eviction around
 *                             every tool call. Required.
 *  2. SubAgentMiddleware    — the `task` tool (when subagents are enabled). Required then.
 *  3. SummarizationMiddleware — builds the message view; must see the request
 *                             before anything appends volatile prompt parts.
 *  4. PatchToolCallsMiddleware — repairs dangling tool calls before each run.
 *  5. user middleware       — in the order given.
 *  6. Skills, prompt caching, Memory, HITL — the tail: memory text is the most
 *                             volatile part of the prompt, so it is appended
 *                             last and does not break a cached prompt prefix.
 *
 * A user middleware whose `name` equals a built-in's replaces it in place (it
 * keeps the built-in's position). `exclude` removes built-ins by name;
 * required ones cannot be removed.
 */
import { HarnessError } from "../harness/errors.ts";
import type { AgentMiddleware } from "../harness/types.ts";

export interface BuiltinSlot {
  middleware: AgentMiddleware;
  /** Load-bearing: cannot be excluded (it can still be replaced by name). */
  required?: boolean;
  /** "head" slots come before user middleware, "tail" ones after. */
  position: "head" | "tail";
}

export function assembleStack(
  builtins: readonly BuiltinSlot[],
  user: readonly AgentMiddleware[] = [],
  exclude: readonly string[] = [],
): AgentMiddleware[] {
  const byName = new Map(builtins.map((slot) => [slot.middleware.name, slot]));
  for (const name of exclude) {
    const slot = byName.get(name);
    if (slot?.required) {
      throw new HarnessError(
        "required_middleware",
        `${name} is required and cannot be removed; replace it by passing a middleware with the same name.`,
      );
    }
  }
  const seen = new Set<string>();
  for (const mw of user) {
    if (seen.has(mw.name)) throw new HarnessError("invalid_option", `Two middleware are named '${mw.name}'; names must be unique.`);
    seen.add(mw.name);
  }
  const replacements = new Map(user.filter((mw) => byName.has(mw.name)).map((mw) => [mw.name, mw]));
  const pick = (slot: BuiltinSlot) => replacements.get(slot.middleware.name) ?? slot.middleware;
  const kept = builtins.filter((slot) => !exclude.includes(slot.middleware.name));
  return [
    ...kept.filter((s) => s.position === "head").map(pick),
    ...user.filter((mw) => !byName.has(mw.name)),
    ...kept.filter((s) => s.position === "tail").map(pick),
  ];
}
