/**
 * The request view of each model call and its token count, at a cost that
 * follows the new messages rather than the whole history.
 *
 * {@link requestView} is
 * `truncateOldToolArgs(renderView(withClearedResults(messages, cleared), event))`
 * and {@link requestViewTokens} is `countRequestTokens` over it, exactly; a
 * ledger kept across steps (core/history-index.ts) holds prefix sums of the
 * messages' token estimates (as they are, with old arguments shortened, and
 * with long results cleared), where arguments get shortened, where results
 * can be cleared, and where provider usage was reported.
 */
import { AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { historyIndex } from "../core/history-index.ts";
import { clearable, clearedMessage, type ClearedResults } from "./clear-results.ts";
import { estimateMessageTokens } from "./tokens.ts";
import { TRUNCATE_KEEP_RECENT, truncatedMessage } from "./truncate-args.ts";
import { renderView, type SummarizationEvent } from "./view.ts";

interface Ledger {
  /** `whole[i]`: estimated tokens of messages 0..i-1. */
  whole: number[];
  /** The same with old write/edit arguments shortened. */
  shortened: number[];
  /** Positions of the messages that shortening changes. */
  shortenedAt: number[];
  /** The same as `whole` with every clearable result cleared. */
  cleared: number[];
  /** Positions of the clearable results. */
  clearableAt: number[];
  /** Positions of AI messages with reported input tokens. */
  usageAt: number[];
}

const index = historyIndex<Ledger>({
  empty: () => ({ whole: [0], shortened: [0], shortenedAt: [], cleared: [0], clearableAt: [], usageAt: [] }),
  add(ledger, m, i) {
    const short = truncatedMessage(m);
    const tokens = estimateMessageTokens(m);
    ledger.whole.push(ledger.whole[i]! + tokens);
    ledger.shortened.push(ledger.shortened[i]! + estimateMessageTokens(short));
    if (short !== m) ledger.shortenedAt.push(i);
    const canClear = clearable(m);
    ledger.cleared.push(ledger.cleared[i]! + (canClear ? estimateMessageTokens(clearedMessage(m)) : tokens));
    if (canClear) ledger.clearableAt.push(i);
    if (AIMessage.isInstance(m) && (m.usage_metadata?.input_tokens ?? 0) > 0) ledger.usageAt.push(i);
  },
  truncate: (ledger, length) => ({
    whole: ledger.whole.slice(0, length + 1),
    shortened: ledger.shortened.slice(0, length + 1),
    shortenedAt: ledger.shortenedAt.filter((i) => i < length),
    cleared: ledger.cleared.slice(0, length + 1),
    clearableAt: ledger.clearableAt.filter((i) => i < length),
    usageAt: ledger.usageAt.filter((i) => i < length),
  }),
});

/** The first message index whose arguments are kept whole (the last {@link TRUNCATE_KEEP_RECENT} of the view). */
function keepWholeFrom(length: number): number {
  // The view is [summary?, ...messages[cutoff:]]: its last N are the messages' last N.
  return Math.max(0, length - TRUNCATE_KEEP_RECENT);
}

/** `truncateOldToolArgs(renderView(withClearedResults(messages, cleared), event))`. */
export function requestView(
  messages: readonly BaseMessage[],
  event: SummarizationEvent | undefined,
  cleared?: ClearedResults,
): BaseMessage[] {
  const view = renderView(messages, event);
  const ledger = index(messages);
  const from = event ? event.cutoffIndex : 0;
  const offset = event ? 1 - event.cutoffIndex : 0;
  const limit = keepWholeFrom(messages.length);
  for (const i of ledger.shortenedAt) if (i >= from && i < limit) view[i + offset] = truncatedMessage(messages[i]!);
  const clearEnd = cleared ? cleared.before : 0;
  for (const i of ledger.clearableAt) if (i >= from && i < clearEnd) view[i + offset] = clearedMessage(messages[i] as ToolMessage);
  if (event && summaryShortened(view.length)) view[0] = truncatedMessage(view[0]!);
  return view;
}

/** Whether the view's first message (the summary) lies before the last {@link TRUNCATE_KEEP_RECENT}. */
function summaryShortened(viewLength: number): boolean {
  return viewLength > TRUNCATE_KEEP_RECENT;
}

/**
 * Estimated tokens of the view's messages from state index `start` on, old
 * arguments shortened and results before `clearedBefore` cleared (the two
 * change different messages, so their savings add up).
 */
function tailTokens(ledger: Ledger, length: number, start: number, clearedBefore: number): number {
  const limit = Math.max(start, keepWholeFrom(length));
  const clearEnd = Math.max(start, Math.min(clearedBefore, length));
  const clearSaving = ledger.whole[clearEnd]! - ledger.whole[start]! - (ledger.cleared[clearEnd]! - ledger.cleared[start]!);
  return ledger.shortened[limit]! - ledger.shortened[start]! + ledger.whole[length]! - ledger.whole[limit]! - clearSaving;
}

/**
 * `countRequestTokens(requestView(messages, event, cleared), fixedTokens, trustFrom)`,
 * trusting usage from the event's and the clearing's `createdAtLength` on (as
 * the summarization middleware does).
 */
export function requestViewTokens(
  messages: readonly BaseMessage[],
  event: SummarizationEvent | undefined,
  fixedTokens: number,
  cleared?: ClearedResults,
): number {
  const ledger = index(messages);
  const n = messages.length;
  const from = Math.min(event ? event.cutoffIndex : 0, n);
  const latest = ledger.usageAt[ledger.usageAt.length - 1];
  const clearedBefore = cleared ? cleared.before : 0;
  const trustFrom = Math.max(event ? Math.max(from, event.createdAtLength) : 0, cleared ? cleared.createdAtLength : 0);
  if (latest !== undefined && latest >= trustFrom) {
    const usage = (messages[latest] as AIMessage).usage_metadata!;
    return usage.input_tokens + (usage.output_tokens ?? 0) + tailTokens(ledger, n, latest + 1, clearedBefore);
  }
  const viewLength = n - from + 1;
  const summary = event
    ? estimateMessageTokens(summaryShortened(viewLength) ? truncatedMessage(event.summaryMessage) : event.summaryMessage)
    : 0;
  return fixedTokens + summary + tailTokens(ledger, n, from, clearedBefore);
}
