/**
 * A unified diff of two texts as rows to render: hunk headers, context,
 * removed and added lines with their old/new line numbers. Context is
 * collapsed to a few lines around each change; the rows are capped so a huge
 * diff never floods the DOM. Pure; no DOM.
 */
import { structuredPatch } from "diff";

export type DiffRow =
  | { kind: "hunk"; text: string }
  | { kind: "context"; oldLine: number; newLine: number; text: string }
  | { kind: "removed"; oldLine: number; text: string }
  | { kind: "added"; newLine: number; text: string }
  /** "\ No newline at end of file" and similar remarks. */
  | { kind: "note"; text: string };

export interface DiffResult {
  rows: DiffRow[];
  /** Lines added / removed over the whole diff (not only the rows shown). */
  added: number;
  removed: number;
  /** Diff lines (context, added, removed) that were not turned into rows because of the cap. */
  hidden: number;
  /** True when the exact diff was too costly (more edits than `maxLines`, or the timeout) and the whole text is shown as replaced. */
  approximate: boolean;
  /** True when both texts are equal. */
  identical: boolean;
}

export interface DiffOptions {
  /** Context lines around each change (default 3). */
  context?: number;
  /** At most this many diff lines become rows (default 2,000). */
  maxLines?: number;
  /** Give up on an exact diff after this many milliseconds (default 500) and show a full replace. */
  timeoutMs?: number;
}

/** The lines of a text as a diff sees them ("" has none; a final newline ends the last line). */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

interface Hunk {
  oldStart: number;
  newStart: number;
  oldLines: number;
  newLines: number;
  lines: string[];
}

/** Every line of `before` removed and every line of `after` added, as one hunk; used for new, deleted or hopeless files. */
function replaceAll(before: string, after: string, cap: number): { hunks: Hunk[]; added: number; removed: number } {
  const old = splitLines(before);
  const neu = splitLines(after);
  // Only the lines that can be shown are copied; the counts cover all.
  const lines = [...old.slice(0, cap).map((l) => `-${l}`), ...neu.slice(0, Math.max(0, cap - old.length)).map((l) => `+${l}`)];
  const hunk = { oldStart: old.length ? 1 : 0, newStart: neu.length ? 1 : 0, oldLines: old.length, newLines: neu.length, lines };
  return { hunks: old.length || neu.length ? [hunk] : [], added: neu.length, removed: old.length };
}

function count(hunks: Hunk[], marker: string): number {
  let n = 0;
  for (const h of hunks) for (const l of h.lines) if (l[0] === marker) n++;
  return n;
}

/** The rows of the unified diff from `before` to `after`. */
export function diffRows(before: string, after: string, options: DiffOptions = {}): DiffResult {
  const context = options.context ?? 3;
  const maxLines = options.maxLines ?? 2000;
  if (before === after) return { rows: [], added: 0, removed: 0, hidden: 0, approximate: false, identical: true };

  let hunks: Hunk[];
  let added: number;
  let removed: number;
  let approximate = false;
  if (before === "" || after === "") {
    ({ hunks, added, removed } = replaceAll(before, after, maxLines));
  } else {
    // Beyond `maxLines` edits an exact diff would not fit on screen anyway; the edit cap bounds Myers' cost, the timeout the rest.
    const limits = { maxEditLength: Math.max(maxLines, 500), timeout: options.timeoutMs ?? 500 };
    const patch = structuredPatch("a", "b", before, after, undefined, undefined, { context, ...limits });
    if (patch) {
      hunks = patch.hunks;
      added = count(hunks, "+");
      removed = count(hunks, "-");
    } else {
      ({ hunks, added, removed } = replaceAll(before, after, maxLines));
      approximate = true;
    }
  }

  const rows: DiffRow[] = [];
  let shown = 0;
  let total = 0;
  for (const hunk of hunks) {
    // A hunk spans its context once plus its removed and added lines (replaceAll holds only the lines that fit).
    total += hunk.oldLines + hunk.newLines - countContext(hunk);
    if (shown >= maxLines) continue;
    rows.push({ kind: "hunk", text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      if (shown >= maxLines) break;
      const marker = line[0];
      const text = line.slice(1);
      if (marker === "\\") {
        rows.push({ kind: "note", text: text.trim() });
        continue;
      }
      shown++;
      if (marker === "-") rows.push({ kind: "removed", oldLine: oldLine++, text });
      else if (marker === "+") rows.push({ kind: "added", newLine: newLine++, text });
      else rows.push({ kind: "context", oldLine: oldLine++, newLine: newLine++, text });
    }
  }
  return { rows, added, removed, hidden: total - shown, approximate, identical: false };
}

function countContext(hunk: Hunk): number {
  let n = 0;
  for (const l of hunk.lines) if (l[0] === " ") n++;
  return n;
}
