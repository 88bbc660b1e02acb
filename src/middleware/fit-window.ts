/**
 * Makes one request fit the model's window without losing what the model
 * has not seen yet. Used by summarization when a request is still too large
 * after summarizing (a small window, a huge newest result) and on a
 * provider's context-overflow error.
 *
 * 1. Tool results the model has already seen (before the unseen tail) are
 *    replaced by a one-line note: they are in the history file.
 * 2. The unseen results are cut to an equal share of what is left, each
 *    ending with a pointer to its full text: the file it was already
 *    offloaded to, or a new /large_tool_results/ file written now.
 *
 * Only the request changes: state keeps every message whole.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { isBackendError, type BackendProtocol } from "../backends/protocol.ts";
import { CHARS_PER_TOKEN, estimateMessagesTokens } from "../context/tokens.ts";
import { unseenTailStart } from "../context/view.ts";
import { copyToolMessage, messageText } from "../core/messages.ts";
import { largeResultPath } from "./eviction.ts";

/** Never cut a result below this many characters. */
const MIN_RESULT_CHARS = 400;

/** Where the full text of a result is, saving it when it is nowhere yet (undefined when it cannot be saved). */
export async function fullTextAt(m: ToolMessage, text: string, backend: BackendProtocol): Promise<string | undefined> {
  const already = m.response_metadata?.evicted_to;
  if (typeof already === "string") return already;
  const path = largeResultPath(m.tool_call_id);
  // Saved by an earlier fit of this result: the same text, not written again.
  const saved = await backend.ls(path);
  if (!isBackendError(saved) && saved.some((f) => f.path === path && !f.isDir)) return path;
  const written = await backend.write(path, text);
  return isBackendError(written) ? undefined : path;
}

/**
 * The view, changed as little as needed so that `fixedTokens` plus its
 * messages stay within `targetTokens`. Returns the view itself when it fits.
 */
export async function fitToWindow(
  view: readonly BaseMessage[],
  fixedTokens: number,
  targetTokens: number,
  backend: BackendProtocol,
  historyPath: string,
): Promise<BaseMessage[]> {
  let out = [...view];
  const total = () => fixedTokens + estimateMessagesTokens(out);
  if (total() <= targetTokens) return out;
  const start = unseenTailStart(out);
  // 1. Results already seen: a note instead (the history file has them).
  const note = `[Earlier tool result left out to fit the context window; the conversation history is at ${historyPath}.]`;
  out = out.map((m, i) =>
    i < start && ToolMessage.isInstance(m) && messageText(m).length > 200 ? copyToolMessage(m, { content: note }) : m,
  );
  if (total() <= targetTokens) return out;
  // 2. Unseen results: an equal share each, with a pointer to the full text.
  const unseen = out.map((m, i) => (i >= start && ToolMessage.isInstance(m) ? i : -1)).filter((i) => i >= 0);
  if (!unseen.length) return out;
  const others = total() - estimateMessagesTokens(unseen.map((i) => out[i]!));
  const share = Math.max(MIN_RESULT_CHARS, Math.floor(((targetTokens - others) * CHARS_PER_TOKEN) / unseen.length) - 40);
  for (const i of unseen) {
    const m = out[i] as ToolMessage;
    const text = messageText(m);
    if (text.length <= share) continue;
    const at = await fullTextAt(m, text, backend);
    const pointer = at
      ? `\n... [result cut to fit the context window: ${text.length} characters in all, ` +
        `the full text is in ${at}; read it with read_file and offset/limit]`
      : `\n... [result cut to fit the context window: ${text.length} characters in all]`;
    out[i] = copyToolMessage(m, { content: text.slice(0, Math.max(0, share - pointer.length)) + pointer });
  }
  return out;
}
