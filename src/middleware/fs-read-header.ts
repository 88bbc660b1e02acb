/**
 * read_file's other output form, deepagentsjs 1.13.5's: a status header `@@ lines A-B of T | next offset N @@` above
 * the file's own lines, unnumbered. deeptab keeps numbered lines by default (the seeds and Python deepagents); a
 * harness profile picks this form with `readFormat: "header"`.
 */
/** How read_file shows a file: numbered `cat -n` lines (deepagents, the default) or deepagentsjs 1.13.5's header. */
export type ReadFormat = "numbered" | "header";

const NUMBERED_LINES = /^- Results are returned using cat -n format.*\n- Lines longer than .*$/m;
const HEADER_LINE =
  "- A status header, `@@ lines A-B of T | next offset N @@`, sits above the file content, and every line after it is " +
  "unmodified file content (no line numbers). When content is truncated, an explanation may come before the header. " +
  "Never include the header when editing.";

/** read_file's description for the header form: the default text's line-number usage lines replaced by the header's. */
export function readHeaderDescription(numbered: string): string {
  if (NUMBERED_LINES.test(numbered)) return numbered.replace(NUMBERED_LINES, HEADER_LINE);
  // The compact profile's one line.
  return "Read a file (100 lines by default) under a `@@ lines A-B of T | next offset N @@` header; page with offset and limit.";
}
