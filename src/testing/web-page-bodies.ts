/**
 * Pages that are hard to convert, as strings (tests in Node and Chromium build them alike; web-pages.ts serves them):
 * one nested thousands of elements deep, one flat and nearly 2 MB.
 */

/** A page nested `depth` elements deep, each level with its own text (`L0 ` … `L<depth - 1> `), in order. */
export function deepPage(depth: number): string {
  let open = "";
  for (let i = 0; i < depth; i++) open += `<div>L${i} `;
  return `<!doctype html><html><head><title>Deep</title></head><body>${open}${"</div>".repeat(depth)}</body></html>`;
}

/** Size of {@link flatPage}'s page, about: under fetch_url's 2 MiB cap, so it is read whole. */
const FLAT_PAGE_BYTES = 1_950_000;

/** A flat page of about {@link FLAT_PAGE_BYTES}: paragraphs of text with a link each (seconds of Markdown conversion). */
export function flatPage(bytes = FLAT_PAGE_BYTES): string {
  const line = `<p>Tide ${"tables and harbour notes ".repeat(8)}<a href="/t/1">more</a></p>\n`;
  return `<!doctype html><html><head><title>Flat</title></head><body>${line.repeat(Math.ceil(bytes / line.length))}</body></html>`;
}
