/**
 * read_file's header form (fs-read-header.ts), the text itself: loaded with the first read a `readFormat: "header"`
 * profile makes, so the worker's startup code does not carry it.
 */
import type { ReadSlice } from "../backends/protocol.ts";
import { truncationNotice } from "./fs-format.ts";

/** The header's fields for lines `startLine`..`endLine` of `totalLines`, with where to read on when lines are left. */
function windowFields(startLine: number, endLine: number, totalLines: number, nextOffset?: number): string[] {
  const fields = [`lines ${startLine}-${endLine} of ${totalLines}`];
  if (nextOffset !== undefined && endLine < totalLines) fields.push(`next offset ${nextOffset}`);
  return fields;
}

function assemble(notices: readonly string[], fields: readonly string[], body: string): string {
  return [...notices, `@@ ${fields.join(" | ")} @@`, body].join("\n");
}

/**
 * A slice (holding at least one line) in the header form, within `charLimit` characters. A read too long is cut after
 * its last whole line that fits, the header rebuilt for the lines shown (so `next offset` skips nothing) with
 * `truncated due to size`; when not one whole line fits, the header says how much of that line is shown.
 */
export function formatReadHeader(path: string, slice: ReadSlice, charLimit: number): string {
  const start = slice.offset + 1;
  const end = slice.offset + slice.lines.length;
  const text = assemble(
    [],
    windowFields(start, end, slice.totalLines, slice.nextOffset ?? (end < slice.totalLines ? end : undefined)),
    slice.lines.join("\n"),
  );
  if (text.length < charLimit) return text;
  const notices = [truncationNotice(path)];
  const cutFields = (shownEnd: number) => [...windowFields(start, shownEnd, slice.totalLines, shownEnd), "truncated due to size"];
  // Lengths are added up rather than strings built, so a long read costs one pass.
  let kept = 0;
  let bodyLength = -1;
  for (const line of slice.lines) {
    const length = bodyLength + 1 + line.length;
    if (assemble(notices, cutFields(slice.offset + kept + 1), "").length + length > charLimit) break;
    bodyLength = length;
    kept++;
  }
  if (kept > 0) return assemble(notices, cutFields(slice.offset + kept), slice.lines.slice(0, kept).join("\n"));
  // Not one whole line fits: show what does of the first one; no offset reaches the rest of it.
  const line = slice.lines[0]!;
  const fieldsFor = (shown: number) => [
    ...windowFields(start, start, slice.totalLines),
    "truncated mid-line",
    `${shown} of ${line.length} chars`,
  ];
  const reserved = assemble(notices, fieldsFor(line.length), "").length;
  const shown = Math.max(0, Math.min(line.length, charLimit - reserved));
  return assemble(notices, fieldsFor(shown), line.slice(0, shown));
}
