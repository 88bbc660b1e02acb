/**
 * The workspace over time, pure: a manifest is the workspace's files at one
 * moment (each path to its content's hash); what changed between two of them;
 * what to write and delete to bring the workspace from one to another; and the
 * note the agent reads when the person did that. snapshots.ts stores the
 * manifests and contents; rewind.ts applies them.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { isGraderFeedback, isSteered, isNote } from "../../core/messages.ts";
import type { FileChangeKind } from "../../protocol/rewind.ts";

/** The workspace's files at one moment: each path to its content's hash. */
export type Manifest = Readonly<Record<string, string>>;

/**
 * Paths that are the harness's, not the workspace's: shared by every thread (memories, skills), or kept for the
 * conversation (offloaded results, the summarized history). They are never recorded nor restored.
 */
const UNTRACKED = ["/memories/", "/skills/", "/large_tool_results/", "/conversation_history/"];

/** Is `path` part of what a rewind restores and a turn's changes list? */
export function isTracked(path: string): boolean {
  return !UNTRACKED.some((prefix) => path.startsWith(prefix));
}

/** Each path whose content differs from `before` to `after`, sorted by path. */
export function changesBetween(before: Manifest, after: Manifest): Array<{ path: string; kind: FileChangeKind }> {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return paths.flatMap((path) => {
    const was = before[path];
    const is = after[path];
    if (was === is) return [];
    return [{ path, kind: was === undefined ? "added" : is === undefined ? "deleted" : "changed" }] as const;
  });
}

/** What to do to make `current` match `target` (at `paths` only, when given): files to write from `target`, files to delete. */
export function restoreSteps(current: Manifest, target: Manifest, paths?: readonly string[]): { write: string[]; remove: string[] } {
  const only = paths ? new Set(paths) : undefined;
  const write: string[] = [];
  const remove: string[] = [];
  for (const { path, kind } of changesBetween(current, target)) {
    if (only && !only.has(path)) continue;
    if (kind === "deleted") remove.push(path);
    else write.push(path);
  }
  return { write, remove };
}

/** A message's text as the note quotes it: one line, at most 80 characters. */
export function quoted(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > 80 ? `${line.slice(0, 79)}…` : line}"`;
}

/** One restored path as the note lists it: written back, or deleted because it did not exist then. */
function restoredPath(path: string, removed: ReadonlySet<string>): string {
  return removed.has(path) ? `${path} (deleted: it did not exist then)` : `${path} (restored)`;
}

/**
 * The note the agent reads at its next model call after the person changed the workspace (deterministic: a test
 * asserts it). `rewind`: the whole workspace is as it was before the message; `revert`: only the listed files.
 */
export function workspaceNote(kind: "rewind" | "revert", message: string, steps: { write: string[]; remove: string[] }): string {
  const removed = new Set(steps.remove);
  const paths = [...steps.write, ...steps.remove].sort().map((p) => restoredPath(p, removed));
  const files = paths.length ? paths.join(", ") : "no file changed";
  return kind === "rewind"
    ? `[Workspace note] The person restored the workspace to how it was before their message ${quoted(message)}: ${files}. ` +
        "Read a file again before relying on it."
    : `[Workspace note] The person reverted these files to how they were before their message ${quoted(message)}: ${files}. ` +
        "Read a file again before relying on it.";
}

/**
 * The user messages whose turn ends when a run over `messages` ends, in order: the last message of the person's that
 * started a turn, and every message steered into that turn after it (each of those turns ends with the run too). The
 * rubric's feedback and workspace notes are not the person's messages; an earlier turn is left as it ended.
 */
export function turnMessageIds(messages: readonly BaseMessage[]): string[] {
  const ids: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.getType() !== "human" || isGraderFeedback(m) || isNote(m)) continue;
    if (m.id) ids.unshift(m.id);
    if (!isSteered(m)) break;
  }
  return ids;
}
