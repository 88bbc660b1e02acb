/**
 * The cap on what one tool call returns as text when it is not a file: a
 * command's output (the offline shell, WebContainer), an MCP tool's text.
 * Beyond it the text is cut on a character boundary and the result says so
 * in deepagents' words (`[Output was truncated due to size limits]`).
 */

/** Output returned by one command or remote tool call, in UTF-8 bytes; beyond it the result says it was truncated. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_000_000;

/** deepagents' note after a cut output. */
export const TRUNCATED_NOTE = "[Output was truncated due to size limits]";

/** Cuts text to at most `max` UTF-8 bytes, on a character boundary. */
export function capBytes(text: string, max: number): { text: string; truncated: boolean } {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: shorter text needs no encoding.
  if (text.length * 3 <= max) return { text, truncated: false };
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return { text, truncated: false };
  return { text: new TextDecoder().decode(bytes.subarray(0, max)).replace(/\uFFFD$/, ""), truncated: true };
}
