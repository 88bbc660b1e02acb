/**
 * Large tool results go to the filesystem; the model sees a stub with where
 * the full text is, its head and tail as numbered lines, and how to page
 * through it with read_file. Thresholds as in deepagents: 20,000 tokens at
 * 4 characters per token.
 */
import { ToolMessage } from "@langchain/core/messages";
import { isBackendError, type BackendError, type BackendProtocol } from "../backends/protocol.ts";
import { splitLines } from "../backends/file-ops.ts";
import { messageText } from "../core/messages.ts";
import { largeResultPath } from "../context/result-files.ts";
import type { ToolCallResult } from "../harness/types.ts";
import { formatNumberedLines } from "./fs-format.ts";

export { LARGE_RESULTS_DIR, largeResultPath, sanitizeToolCallId } from "../context/result-files.ts";

export const TOOL_RESULT_TOKEN_LIMIT = 20_000;
export const CHARS_PER_TOKEN = 4;
const PREVIEW_LINES = 5;
/** Preview lines are cut to this many characters. */
const PREVIEW_LINE_CHARS = 1_000;

/** Head and tail of the text as numbered lines, with a marker for what was cut; at most `maxChars` characters. */
export function headTailPreview(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  const perLine = Math.max(20, Math.min(PREVIEW_LINE_CHARS, Math.floor(maxChars / (PREVIEW_LINES * 2 + 1)) - 8));
  const lines = splitLines(text).map((l) => l.slice(0, perLine));
  if (lines.length <= PREVIEW_LINES * 2) return formatNumberedLines(lines, 1);
  const head = formatNumberedLines(lines.slice(0, PREVIEW_LINES), 1);
  const tailStart = lines.length - PREVIEW_LINES;
  const tail = formatNumberedLines(lines.slice(tailStart), tailStart + 1);
  return `${head}\n... [${tailStart - PREVIEW_LINES} lines truncated] ...\n${tail}`;
}

/** What precedes the result's head-and-tail preview in the stub (the rest is instructions to the model). */
const PREVIEW_MARKER = "indicate omitted lines in the middle of the content):\n\n";

export function evictionStub(toolCallId: string, filePath: string, preview: string): string {
  return `Tool result too large, the result of this tool call ${toolCallId} was saved in the filesystem at this path: ${filePath}
You can read the result from the filesystem by using the read_file tool, but make sure to only read part of the result at a time.
You can do this by specifying an offset and limit in the read_file tool call.
For example, to read the first 100 lines, you can use the read_file tool with offset=0 and limit=100.

Here is a preview showing the head and tail of the result (lines of the form
... [N lines truncated] ...
${PREVIEW_MARKER}${preview}`;
}

/** The head-and-tail preview an eviction stub carries (for people: the UI shows it); undefined when `text` is not a stub. */
export function evictionPreview(text: string): string | undefined {
  const at = text.indexOf(PREVIEW_MARKER);
  return at < 0 ? undefined : text.slice(at + PREVIEW_MARKER.length);
}

/**
 * Saves `text` whole at `path` (through `backend`) and gives eviction's stub naming it, with a head-and-tail preview
 * sized so the stub stays within `maxChars`; the backend's error when the write fails (nothing is lost: the caller
 * keeps what it had). The one offload the eviction middleware, fetch_url and MCP results share.
 */
export async function saveWithStub(
  backend: BackendProtocol,
  toolCallId: string,
  path: string,
  text: string,
  maxChars: number,
): Promise<string | BackendError> {
  // A file left at this path (a re-run step's) is replaced: write_file replaces a whole file.
  const written = await backend.write(path, text);
  if (isBackendError(written)) return written;
  const room = maxChars - evictionStub(toolCallId, path, "").length;
  return evictionStub(toolCallId, path, headTailPreview(text, room));
}

/**
 * Evicts the result when it is over the limit. Writes through `backend`
 * (so a StateBackend records it in this call's pending files). If the write
 * fails the original result is kept: nothing is lost.
 */
export async function evictLargeResult(
  result: ToolCallResult,
  backend: BackendProtocol,
  limitTokens = TOOL_RESULT_TOKEN_LIMIT,
): Promise<ToolCallResult> {
  const text = messageText(result.message);
  if (text.length <= limitTokens * CHARS_PER_TOKEN) return result;
  const id = result.message.tool_call_id;
  const path = largeResultPath(id);
  // The stub itself stays within the limit (a small window's budget is smaller than deepagents' preview).
  const stub = await saveWithStub(backend, id, path, text, limitTokens * CHARS_PER_TOKEN);
  if (isBackendError(stub)) return result;
  const message = new ToolMessage({
    content: stub,
    tool_call_id: id,
    name: result.message.name,
    status: result.message.status,
    response_metadata: { ...result.message.response_metadata, evicted_to: path },
  });
  return result.update ? { message, update: result.update } : { message };
}
