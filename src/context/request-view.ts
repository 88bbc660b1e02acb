/**
 * The request view of each model call and its token count, at a cost that
 * follows the new messages rather than the whole history.
 *
 * {@link requestView} is `truncateOldToolArgs(renderView(messages, event))`
 * and {@link requestViewTokens} is `countRequestTokens` over it, exactly; a
 * ledger kept across steps (core/history-index.ts) holds prefix sums of the
 * messages' token estimates (as they are and with old arguments shortened),
 * where arguments get shortened, and where provider usage was reported.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { historyIndex } from "../core/history-index.ts";
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
  /** Positions of AI messages with reported input tokens. */
  usageAt: number[];
}

const index = historyIndex<Ledger>({
  empty: () => ({ whole: [0], shortened: [0], shortenedAt: [], usageAt: [] }),
  add(ledger, m, i) {
    const short = truncatedMessage(m);
    ledger.whole.push(ledger.whole[i]! + estimateMessageTokens(m));
    ledger.shortened.push(ledger.shortened[i]! + estimateMessageTokens(short));
    if (short !== m) ledger.shortenedAt.push(i);
    if (AIMessage.isInstance(m) && (m.usage_metadata?.input_tokens ?? 0) > 0) ledger.usageAt.push(i);
  },
  truncate: (ledger, length) => ({
    whole: ledger.whole.slice(0, length + 1),
    shortened: ledger.shortened.slice(0, length + 1),
    shortenedAt: ledger.shortenedAt.filter((i) => i < length),
    usageAt: ledger.usageAt.filter((i) => i < length),
  }),
});

/** The first message index whose arguments are kept whole (the last {@link TRUNCATE_KEEP_RECENT} of the view). */
function keepWholeFrom(length: number): number {
  // The view is [summary?, ...messages[cutoff:]]: its last N are the messages' last N.
  return Math.max(0, length - TRUNCATE_KEEP_RECENT);
}

/** `truncateOldToolArgs(renderView(messages, event))`. */
export function requestView(messages: readonly BaseMessage[], event: SummarizationEvent | undefined): BaseMessage[] {
  const view = renderView(messages, event);
  const ledger = index(messages);
  const from = event ? event.cutoffIndex : 0;
  const offset = event ? 1 - event.cutoffIndex : 0;
  const limit = keepWholeFrom(messages.length);
  for (const i of ledger.shortenedAt) if (i >= from && i < limit) view[i + offset] = truncatedMessage(messages[i]!);
  if (event && summaryShortened(view.length)) view[0] = truncatedMessage(view[0]!);
  return view;
}

/** Whether the view's first message (the summary) lies before the last {@link TRUNCATE_KEEP_RECENT}. */
function summaryShortened(viewLength: number): boolean {
  return viewLength > TRUNCATE_KEEP_RECENT;
}

/** Estimated tokens of the view's messages from state index `start` on, old arguments shortened. */
function tailTokens(ledger: Ledger, length: number, start: number): number {
  const limit = Math.max(start, keepWholeFrom(length));
  return ledger.shortened[limit]! - ledger.shortened[start]! + ledger.whole[length]! - ledger.whole[limit]!;
}

/**
 * `countRequestTokens(requestView(messages, event), fixedTokens, trustFrom)`,
 * trusting usage from the event's `createdAtLength` on (as the summarization
 * middleware does).
 */
export function requestViewTokens(messages: readonly BaseMessage[], event: SummarizationEvent | undefined, fixedTokens: number): number {
  const ledger = index(messages);
  const n = messages.length;
  const from = Math.min(event ? event.cutoffIndex : 0, n);
  const latest = ledger.usageAt[ledger.usageAt.length - 1];
  const trustFrom = event ? Math.max(from, event.createdAtLength) : 0;
  if (latest !== undefined && latest >= trustFrom) {
    const usage = (messages[latest] as AIMessage).usage_metadata!;
    return usage.input_tokens + (usage.output_tokens ?? 0) + tailTokens(ledger, n, latest + 1);
  }
  const viewLength = n - from + 1;
  const summary = event
    ? estimateMessageTokens(summaryShortened(viewLength) ? truncatedMessage(event.summaryMessage) : event.summaryMessage)
    : 0;
  return fixedTokens + summary + tailTokens(ledger, n, from);
}
