/**
 * Assembly of the middleware stack from built-in slots and user middleware.
 * The built-ins and their order are chosen in create-deep-agent.ts
 * (`builtinSlots`) and listed in docs/middleware-and-context.md: "head" slots come before the
 * user's middleware, "tail" slots after.
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
