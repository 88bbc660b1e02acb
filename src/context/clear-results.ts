/**
 * Clearing old tool results, as LangChain's ClearToolUsesEdit and Anthropic's
 * `clear_tool_uses` edit the context: once a request reaches the clearing
 * trigger, the tool results the model has already seen, outside the recent
 * part the summarization keeps, are shown to it as a one-line note naming the
 * file that holds the full text (/large_tool_results/<id>). A long tool-heavy
 * session then stays small between summaries instead of growing by one
 * result a step up to the summarization trigger.
 *
 * Only the request changes: state keeps every message whole, and a record
 * ({@link ClearedResults}) says up to where results are cleared, so every
 * later request shows them the same way (a provider's prompt cache keeps
 * working between two clearings). The files are written by the middleware
 * (middleware/clear-old-results.ts) before a record covers them.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { copyToolMessage } from "../core/messages.ts";
import { largeResultPath } from "./result-files.ts";

/** Results this long or shorter are never cleared (a note would save little). */
const CLEAR_MIN_CHARS = 2_000;
/** LangChain's ClearToolUsesEdit trigger, used when the model's window is unknown. */
export const CLEAR_TRIGGER_TOKENS = 100_000;
/** The share of a known window at which results are cleared (LangChain's 100,000 tokens of a 200,000 window). */
export const CLEAR_TRIGGER_FRACTION = 0.5;

export interface ClearedResults {
  /** State index: the results before it that {@link clearable} accepts are shown as notes. */
  before: number;
  /** state.messages.length when the record was made (provider usage reported before it counted them whole). */
  createdAtLength: number;
}

/** Whether a message is a tool result long enough to be cleared (text only: images and other blocks stay). */
export function clearable(m: BaseMessage): m is ToolMessage {
  return ToolMessage.isInstance(m) && typeof m.content === "string" && m.content.length > CLEAR_MIN_CHARS;
}

/** The file that holds a cleared result: where it was offloaded already, else its /large_tool_results/ file. */
export function clearedPath(m: ToolMessage): string {
  const evicted = m.response_metadata?.evicted_to;
  return typeof evicted === "string" ? evicted : largeResultPath(m.tool_call_id);
}

export function clearedNote(path: string): string {
  return (
    `[Tool result cleared from the context to save space; its full text is in ${path}. ` +
    "Read it with read_file (offset and limit) if you need it again.]"
  );
}

const cache = new WeakMap<ToolMessage, ToolMessage>();

/** The result as the model sees it once cleared (one object per result, so token estimates are memoized). */
export function clearedMessage(m: ToolMessage): ToolMessage {
  let hit = cache.get(m);
  if (!hit) {
    hit = copyToolMessage(m, { content: clearedNote(clearedPath(m)) });
    cache.set(m, hit);
  }
  return hit;
}

/** State indices of the results the record covers: before its index, and {@link clearable}. */
function coveredResults(messages: readonly BaseMessage[], cleared: ClearedResults | undefined): number[] {
  const covered: number[] = [];
  const end = Math.min(cleared?.before ?? 0, messages.length);
  for (let i = 0; i < end; i++) if (clearable(messages[i]!)) covered.push(i);
  return covered;
}

/** The results the record covers, by state index: the file each one's note names (what the page shows on its card). */
export function clearedResultFiles(messages: readonly BaseMessage[], cleared: ClearedResults | undefined): Map<number, string> {
  return new Map(coveredResults(messages, cleared).map((i) => [i, clearedPath(messages[i] as ToolMessage)]));
}

/** `messages` with the results the record covers cleared: a same-length copy, or `messages` itself when none are. */
export function withClearedResults(messages: readonly BaseMessage[], cleared: ClearedResults | undefined): readonly BaseMessage[] {
  const covered = coveredResults(messages, cleared);
  if (!covered.length) return messages;
  const out = [...messages];
  for (const i of covered) out[i] = clearedMessage(messages[i] as ToolMessage);
  return out;
}
