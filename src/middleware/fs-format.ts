/**
 * Output formats of the filesystem tools, kept identical to deepagents so
 * its users (and its behaviours) carry over one to one.
 */
import type { FileInfo, GrepMatch, ReadSlice } from "../backends/protocol.ts";

export const LINE_NUMBER_WIDTH = 6;
/** Lines longer than this are split into continuation lines (N.1, N.2, ...). */
export const MAX_LINE_LENGTH = 5_000;
export const DEFAULT_READ_LIMIT = 100;
export const GREP_MAX_RESULTS = 1_000;
export const EMPTY_CONTENT_WARNING = "System reminder: File exists but has empty contents";

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

export function formatRead(path: string, slice: ReadSlice): string {
  if (slice.totalLines === 0) return EMPTY_CONTENT_WARNING;
  if (slice.offset >= slice.totalLines) {
    return `Error: Line offset ${slice.offset} exceeds file length (${slice.totalLines} lines)`;
  }
  void path;
  return formatNumberedLines(slice.lines, slice.offset + 1);
}

export function formatLs(entries: readonly FileInfo[]): string {
  return JSON.stringify(entries.map((e) => (e.isDir ? `${e.path}/` : e.path)));
}

export function formatGlob(files: readonly FileInfo[]): string {
  return JSON.stringify(files.map((f) => f.path));
}

export type GrepOutputMode = "files_with_matches" | "content" | "count";

export function formatGrep(matches: readonly GrepMatch[], mode: GrepOutputMode, pattern: string): string {
  if (matches.length === 0) return `No matches found for pattern '${pattern}'`;
  if (mode === "files_with_matches") {
    return [...new Set(matches.map((m) => m.path))].slice(0, GREP_MAX_RESULTS).join("\n");
  }
  if (mode === "count") {
    const counts = new Map<string, number>();
    for (const m of matches) counts.set(m.path, (counts.get(m.path) ?? 0) + 1);
    return [...counts].slice(0, GREP_MAX_RESULTS).map(([p, n]) => `${p}: ${n}`).join("\n");
  }
  const lines: string[] = [];
  let current = "";
  for (const m of matches.slice(0, GREP_MAX_RESULTS)) {
    if (m.path !== current) {
      lines.push(`\n${m.path}:`);
      current = m.path;
    }
    lines.push(`  ${m.line}: ${m.text}`);
  }
  return lines.join("\n").trimStart();
}
