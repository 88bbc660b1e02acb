/**
 * `interrupt` permission rules as approvals, with a path-aware predicate:
 * file tools pause when their path matches the rule (a delete also when the
 * rule can cover a file below its path: it removes directories recursively);
 * ls, glob and grep pause
 * when their scope can overlap the rule's paths; a call with no path (a bulk
 * grep or glob of everything) pauses conservatively.
 */
import type { ToolCall } from "@langchain/core/messages/tool";
import { normalizePath } from "../backends/paths.ts";
import { permissionFor, scopeOverlaps, type FilesystemPermission } from "../backends/permissions.ts";
import type { InterruptRule } from "./hitl.ts";

/** The operations each file tool performs (an edit reads: its answer tells what the file holds). */
const PATH_TOOLS: Record<string, { ops: ReadonlyArray<"read" | "write">; arg: string }> = {
  read_file: { ops: ["read"], arg: "file_path" },
  write_file: { ops: ["write"], arg: "file_path" },
  edit_file: { ops: ["read", "write"], arg: "file_path" },
  delete: { ops: ["write"], arg: "file_path" },
};
const SCOPE_TOOLS = ["ls", "glob", "grep"];

export function permissionInterruptRules(rules: readonly FilesystemPermission[]): Array<[string, InterruptRule]> {
  const interruptRules = rules.filter((r) => r.mode === "interrupt");
  if (interruptRules.length === 0) return [];
  const out: Array<[string, InterruptRule]> = [];
  for (const [tool, { ops, arg }] of Object.entries(PATH_TOOLS)) {
    if (!interruptRules.some((r) => ops.some((op) => r.operations.includes(op)))) continue;
    out.push([
      tool,
      {
        when: (call: ToolCall) => {
          const path = normalizePath(String(call.args[arg] ?? ""));
          if (typeof path !== "string") return false;
          if (ops.some((op) => permissionFor(rules, op, path) === "interrupt")) return true;
          return tool === "delete" && interruptRules.some((r) => r.operations.includes("write") && scopeOverlaps(path, r));
        },
        description: `Access to a protected path needs approval.`,
      },
    ]);
  }
  const readRules = interruptRules.filter((r) => r.operations.includes("read"));
  if (readRules.length) {
    for (const tool of SCOPE_TOOLS) {
      out.push([
        tool,
        {
          when: (call: ToolCall) => {
            const raw = call.args.path;
            if (typeof raw !== "string" || raw === "" || raw === "/") return true;
            const scope = normalizePath(raw);
            return typeof scope !== "string" || readRules.some((r) => scopeOverlaps(scope, r));
          },
          description: `This search can reach protected paths and needs approval.`,
        },
      ]);
    }
  }
  return out;
}
