/**
 * What the approval dialog needs besides the interrupt itself: each tool's
 * argument schema (to check edited arguments before they are sent) and, for
 * `edit_file` and `write_file` over an existing file, the file before and
 * after the change (for a diff).
 */
import { TOOL } from "../../core/tool-names.ts";
import { createFilesystemTools } from "../../middleware/fs-tools.ts";
import { WRITE_TODOS, writeTodosTool } from "../../middleware/todos.ts";
import type { ApprovalAction, PendingApproval } from "../../protocol/approvals.ts";

const SCHEMAS = new Map<string, Record<string, unknown>>([
  ...createFilesystemTools().map((t) => [t.name, t.schema as Record<string, unknown>] as const),
  [WRITE_TODOS, writeTodosTool.schema as Record<string, unknown>],
]);

/** The schema of a built-in tool, when it is one. */
function toolSchema(name: string): Record<string, unknown> | undefined {
  return SCHEMAS.get(name);
}

/** The file after an edit_file call, or undefined when the edit would not apply. */
function applyEdit(before: string, args: Record<string, unknown>): string | undefined {
  const oldString = args.old_string;
  const newString = args.new_string;
  if (typeof oldString !== "string" || typeof newString !== "string" || !oldString || !before.includes(oldString)) return undefined;
  return args.replace_all === true ? before.split(oldString).join(newString) : before.replace(oldString, () => newString);
}

async function withChange(action: ApprovalAction, read: (path: string) => Promise<string | undefined>): Promise<ApprovalAction> {
  const path = action.args.file_path;
  if (typeof path !== "string") return action;
  if (action.name === TOOL.edit_file) {
    const before = await read(path);
    const after = before === undefined ? undefined : applyEdit(before, action.args);
    return before !== undefined && after !== undefined ? { ...action, change: { path, before, after } } : action;
  }
  if (action.name === TOOL.write_file && typeof action.args.content === "string") {
    const before = await read(path);
    return { ...action, change: { path, before: before ?? "", after: action.args.content } };
  }
  return action;
}

export async function enrichApproval(
  approval: PendingApproval,
  read: (path: string) => Promise<string | undefined>,
): Promise<PendingApproval> {
  const actions = await Promise.all(
    approval.actions.map(async (action) => {
      const schema = toolSchema(action.name);
      const withSchema = schema ? { ...action, schema } : action;
      return withChange(withSchema, (path) => read(path).catch(() => undefined));
    }),
  );
  return { ...approval, actions };
}
