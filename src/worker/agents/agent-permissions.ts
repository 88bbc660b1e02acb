/**
 * An agent's path rules (agent.yaml `permissions`) beside a sandbox that runs commands. deepagents refuses path rules
 * on a backend that executes (a command can reach any path) and its permission wrapper offers no `execute`. An agent
 * folder that names a shell and path rules (deeptab's data and coding examples) needs both, so the worker keeps both:
 * every command of such an agent waits for the person's approval (folderOptions forces `execute` approval on, whatever
 * the settings or the agent say), so a command that could bypass a rule is seen and approved (or not) first, while the
 * file tools obey the rules as ever: `deny` rules through the permission wrapper, `interrupt` rules as approval rules.
 */
import { normalizeRules, PermissionedBackend, type FilesystemPermission } from "../../backends/permissions.ts";
import { canExecute } from "../../backends/protocol.ts";
import { resolveBackend, type BackendFactory, type BackendOption } from "../../backends/runtime.ts";
import { permissionInterruptRules } from "../../middleware/fs-interrupt.ts";
import type { InterruptOnConfig, InterruptRule } from "../../middleware/hitl.ts";

/** `backend` with `deny` rules on every file call, and its commands (each approved: see the module comment). */
export function rulesBesideCommands(backend: BackendOption, rules: readonly FilesystemPermission[]): BackendFactory {
  const normalized = normalizeRules(rules);
  return (rt) => {
    const inner = resolveBackend(backend, rt);
    const guarded = new PermissionedBackend(inner, normalized);
    if (!canExecute(inner)) return guarded;
    return Object.assign(guarded, { id: inner.id, execute: inner.execute.bind(inner) });
  };
}

/** The approval rules with the `interrupt` path rules added (a tool that always pauses already keeps its rule). */
export function withPathApprovals(interruptOn: InterruptOnConfig, rules: readonly FilesystemPermission[]): InterruptOnConfig {
  const merged: InterruptOnConfig = { ...interruptOn };
  for (const [tool, rule] of permissionInterruptRules(normalizeRules(rules))) {
    const existing = merged[tool];
    if (existing === true || (typeof existing === "object" && !existing.when)) continue;
    const when = rule.when!;
    merged[tool] =
      typeof existing === "object"
        ? ({ ...existing, when: (call) => existing.when!(call) || when(call) } satisfies InterruptRule)
        : { ...rule };
  }
  return merged;
}
