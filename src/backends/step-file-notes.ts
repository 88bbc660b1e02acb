/**
 * What the model is told when a change it made in one step met a change of
 * another call of the same step (see step-files.ts): merged, or not applied
 * and why.
 */
import type { MergeFailure } from "./file-merge.ts";

/** What happened to a path this call changed that an earlier call of the step had changed too. */
export interface StepFileNote {
  path: string;
  /** The calls that changed the path before this one, as `name call id`. */
  earlier: string[];
  /**
   * `merged`: both changes kept; otherwise this call's change was not
   * applied, and why (`placement`: the path became a directory, or a file
   * became one of its parents, in the step).
   */
  outcome: "merged" | "placement" | MergeFailure;
  /** For a conflict: this call's text of the parts the earlier call changed too (capped). */
  ours?: string;
}

/** The label of a call in notes: `name call id`. */
export function callLabel(call: { name: string; id?: string | undefined }): string {
  return `${call.name} call ${call.id ?? ""}`;
}

/** A note as the model reads it, appended to the call's result. */
export function stepFileNoteText(note: StepFileNote): string {
  const earlier = note.earlier.join(", ") || "another call";
  switch (note.outcome) {
    case "merged":
      return `Note: ${note.path} was also changed by ${earlier}, which ran beside this call; both changes were merged.`;
    case "placement":
      return (
        `Conflict: this call's changes to ${note.path} were not applied: a call that ran beside it made ${note.path} ` +
        `a directory, or one of its parent paths a file, first. Write it under another path if it is still needed.`
      );
    case "deleted_there":
      return (
        `Conflict: this call's changes to ${note.path} were not applied: ${earlier}, which ran beside it, deleted the file first. ` +
        `Recreate it if it is still needed.`
      );
    case "deleted_here":
      return (
        `Conflict: this call deleted ${note.path}, but ${earlier}, which ran beside it, changed the file first, ` +
        `so it was kept with those changes. Delete it again if it must go.`
      );
    case "conflict":
      return (
        `Conflict: this call's changes to ${note.path} were not applied: ${earlier}, which ran beside it, ` +
        `changed the same part of the file first, and ${note.path} keeps that version. Read it and redo what is missing.` +
        (note.ours ? `\nThis call's version of the conflicting part:\n${note.ours}` : "")
      );
  }
}
