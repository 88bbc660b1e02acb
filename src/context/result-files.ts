/**
 * Where a tool result's full text is kept when the model is shown less of
 * it (offloaded when it is too large, cleared once it is old): one file per
 * call under /large_tool_results/, named after the call's id as deepagents
 * names it.
 */
import { hash53 } from "../core/hash.ts";

export const LARGE_RESULTS_DIR = "/large_tool_results";

/** As deepagents: dots and slashes become underscores. */
export function sanitizeToolCallId(id: string): string {
  return id.replace(/[./\\]/g, "_");
}

/** Longest file name an offloaded result gets from its call id. */
const MAX_RESULT_NAME = 200;

/**
 * Where the full text of call `id`'s result is offloaded: deepagents' name
 * (sanitizeToolCallId) when it makes a valid path; otherwise (control
 * characters such as NUL, a name over {@link MAX_RESULT_NAME} characters, a
 * bare `~`) a safe name derived from the id: its first characters, control
 * characters replaced, and a hash of the whole id, so distinct ids keep
 * distinct files and the result is offloaded rather than kept whole.
 */
export function largeResultPath(id: string): string {
  const name = sanitizeToolCallId(id);
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\u0000-\u001f\u007f]/g, "_");
  if (safe === name && name.length > 0 && name.length <= MAX_RESULT_NAME && name !== "~") return `${LARGE_RESULTS_DIR}/${name}`;
  const hash = hash53(new TextEncoder().encode(id)).toString(36);
  return `${LARGE_RESULTS_DIR}/${safe.slice(0, 64).replace(/^~/, "_")}_${hash}`;
}
