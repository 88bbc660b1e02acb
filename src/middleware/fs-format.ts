/**
 * Output formats of the filesystem tools, kept identical to deepagents so
 * its users (and its behaviours) carry over one to one.
 */
import type { FileInfo, GrepMatch, ReadSlice } from "../backends/protocol.ts";

const LINE_NUMBER_WIDTH = 6;
/** Lines longer than this are split into continuation lines (N.1, N.2, ...). */
export const MAX_LINE_LENGTH = 5_000;
export const DEFAULT_READ_LIMIT = 100;
const GREP_MAX_RESULTS = 1_000;
export const EMPTY_CONTENT_WARNING = "System reminder: File exists but has empty contents";
/** ls, glob and grep cap their own output at this many characters (20,000 tokens). */
export const LIST_OUTPUT_CHAR_LIMIT = 80_000;
const TRUNCATION_GUIDANCE = "... [results truncated, try being more specific with your parameters]";
/** read_file output is cut here, with advice on reformatting the file. */
export const READ_OUTPUT_CHAR_LIMIT = 80_000;

/** `cat -n` style: right-aligned line numbers, a tab, the line. */
export function formatNumberedLines(lines: readonly string[], startLine: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const n = startLine + i;
    if (line.length <= MAX_LINE_LENGTH) {
      out.push(`${String(n).padStart(LINE_NUMBER_WIDTH)}\t${line}`);
      continue;
    }
    for (let c = 0; c * MAX_LINE_LENGTH < line.length; c++) {
      const label = c === 0 ? String(n) : `${n}.${c}`;
      out.push(`${label.padStart(LINE_NUMBER_WIDTH)}\t${line.slice(c * MAX_LINE_LENGTH, (c + 1) * MAX_LINE_LENGTH)}`);
    }
  }
  return out.join("\n");
}

/** deepagents' note on a read cut at its size cap (both read_file forms say it; the numbered one after the lines). */
export function truncationNotice(path: string): string {
  return (
    "[Output was truncated due to size limits. The file content is very large. " +
    "Consider reformatting the file to make it easier to navigate. " +
    `For example, if this is JSON, use execute(command='jq . ${path}') to pretty-print it with line breaks. ` +
    "For other formats, you can use appropriate formatting tools to split long lines.]"
  );
}

/** The note after a read cut to the window's budget: where to go on from. */
function readBudgetNote(path: string, nextOffset: number, totalLines: number, shown: number): string {
  return (
    `\n\n[Output cut at line ${nextOffset} of ${totalLines} to fit the model's context window. ` +
    `Read on with read_file(file_path='${path}', offset=${nextOffset}, limit=${Math.max(1, shown)}).]`
  );
}

/**
 * A read as deepagents formats it (`cat -n`), within `charLimit` characters:
 * with the default limit a too-long output is cut with deepagents' note; with
 * a smaller one (a small context window) it ends at a whole line and says
 * how to read on.
 */
export function formatRead(path: string, slice: ReadSlice, charLimit = READ_OUTPUT_CHAR_LIMIT): string {
  if (slice.totalLines === 0) return EMPTY_CONTENT_WARNING;
  if (slice.offset >= slice.totalLines) {
    return `Error: Line offset ${slice.offset} exceeds file length (${slice.totalLines} lines)`;
  }
  const text = formatNumberedLines(slice.lines, slice.offset + 1);
  if (text.length < charLimit) return text;
  if (charLimit < READ_OUTPUT_CHAR_LIMIT) {
    const reserve = readBudgetNote(path, slice.totalLines, slice.totalLines, slice.lines.length).length;
    const rows = text.split("\n");
    let used = 0;
    let kept = 0;
    while (kept < rows.length && used + rows[kept]!.length + 1 <= charLimit - reserve) used += rows[kept++]!.length + 1;
    if (kept === 0)
      return rows[0]!.slice(0, Math.max(0, charLimit - reserve)) + readBudgetNote(path, slice.offset + 1, slice.totalLines, 1);
    // Continuation rows (N.1, N.2) of one long line count as that line.
    const lastLine = Number(/^\s*(\d+)/.exec(rows[kept - 1]!)?.[1] ?? slice.offset + 1);
    return rows.slice(0, kept).join("\n") + readBudgetNote(path, lastLine, slice.totalLines, lastLine - slice.offset);
  }
  const note = `\n\n${truncationNotice(path)}`;
  return text.slice(0, charLimit - note.length) + note;
}

/** A Python-style list literal, as deepagents prints listings: ['/a.md', '/dir/']. */
function pythonList(items: readonly string[]): string {
  return "[" + items.map((i) => "'" + i.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'").join(", ") + "]";
}

/** Keeps whole items while the total stays under the limit, then adds the guidance line. */
function capItems(items: readonly string[], limit = LIST_OUTPUT_CHAR_LIMIT): string[] {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += items[i]!.length;
    if (total > limit) return [...items.slice(0, i), TRUNCATION_GUIDANCE];
  }
  return [...items];
}

export function formatLs(entries: readonly FileInfo[], limit = LIST_OUTPUT_CHAR_LIMIT): string {
  return pythonList(
    capItems(
      entries.map((e) => (e.isDir ? `${e.path}/` : e.path)),
      limit,
    ),
  );
}

export function formatGlob(files: readonly FileInfo[], limit = LIST_OUTPUT_CHAR_LIMIT): string {
  return pythonList(
    capItems(
      files.map((f) => f.path),
      limit,
    ),
  );
}

export type GrepOutputMode = "files_with_matches" | "content" | "count";

/** Grep output as deepagents prints it; at most 1,000 matches, then the guidance line. */
export function formatGrep(all: readonly GrepMatch[], mode: GrepOutputMode, limit = LIST_OUTPUT_CHAR_LIMIT): string {
  if (all.length === 0) return "No matches found";
  const matches = all.slice(0, GREP_MAX_RESULTS);
  const capped = all.length > GREP_MAX_RESULTS;
  let lines: string[];
  if (mode === "files_with_matches") {
    lines = [...new Set(matches.map((m) => m.path))];
  } else if (mode === "count") {
    const counts = new Map<string, number>();
    for (const m of matches) counts.set(m.path, (counts.get(m.path) ?? 0) + 1);
    lines = [...counts].map(([p, n]) => `${p}: ${n}`);
  } else {
    lines = [];
    let current = "";
    for (const m of matches) {
      if (m.path !== current) {
        lines.push(`${m.path}:`);
        current = m.path;
      }
      lines.push(`  ${m.line}: ${m.text}`);
    }
  }
  const out = capItems(lines, limit);
  if (capped && out[out.length - 1] !== TRUNCATION_GUIDANCE) out.push(TRUNCATION_GUIDANCE);
  return out.join("\n");
}
