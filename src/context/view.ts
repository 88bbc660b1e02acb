/**
 * The non-destructive message view: state keeps every message; a
 * summarization event says where the summary cuts in, and each request is
 * rendered as [summary, ...messages[cutoff:]].
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { transcriptText } from "../core/messages.ts";
import type { TokenUsage } from "../core/usage.ts";
import { estimateMessageTokens } from "./tokens.ts";

export interface SummarizationEvent {
  /** Index into state.messages of the first message kept after the summary. */
  cutoffIndex: number;
  summaryMessage: BaseMessage;
  filePath: string;
  /** state.messages.length when the event was made (usage before it is stale). */
  createdAtLength: number;
  /**
   * Provider usage of every summarization call of the thread so far (this
   * one's added to the previous event's): those calls leave no message, so
   * this is where a thread's totals find them. Absent when no call reported usage.
   */
  usage?: TokenUsage;
}

export function renderView(messages: readonly BaseMessage[], event: SummarizationEvent | undefined): BaseMessage[] {
  if (!event) return [...messages];
  return [event.summaryMessage, ...messages.slice(event.cutoffIndex)];
}

/** Index in `view` that corresponds to state index `stateIndex`. */
export function viewIndexOf(stateIndex: number, event: SummarizationEvent | undefined): number {
  return event ? Math.max(0, stateIndex - event.cutoffIndex + 1) : stateIndex;
}

/** State index of view index `viewIndex` (the summary itself counts as one view slot). */
export function stateIndexOf(viewIndex: number, event: SummarizationEvent | undefined): number {
  return event ? event.cutoffIndex + viewIndex - 1 : viewIndex;
}

/** How much of the recent conversation to keep verbatim. */
export type KeepPolicy = { messages: number } | { tokens: number };

/**
 * Where the part of the view the model has not seen yet begins: the last AI
 * message when only its tool results follow it (the call must stay with its
 * results), else the first message after the last AI message (a new user
 * message). Summarization never cuts into it.
 */
export function unseenTailStart(view: readonly BaseMessage[]): number {
  let last = view.length - 1;
  while (last >= 0 && !AIMessage.isInstance(view[last]!)) last--;
  if (last < 0) return Math.max(0, view.length - 1);
  const ai = view[last] as AIMessage;
  const onlyResults = view.slice(last + 1).every((m) => ToolMessage.isInstance(m));
  if (ai.tool_calls?.length && onlyResults && last + 1 < view.length) return last;
  return Math.min(last + 1, view.length);
}

/**
 * The first view index to keep: at least `keep` of the tail, moved back so an
 * AI message is never separated from its tool results, and never past what
 * the model has not seen yet ({@link unseenTailStart}). `floor` is the first
 * index that may be summarized (1 when view[0] is a previous summary).
 * Returns `floor` when there is nothing to summarize.
 */
export function findSafeCutoff(view: readonly BaseMessage[], keep: KeepPolicy, floor: number): number {
  let cut: number;
  if ("messages" in keep) {
    cut = Math.max(floor, view.length - keep.messages);
  } else {
    let sum = 0;
    cut = view.length;
    while (cut > floor) {
      const t = estimateMessageTokens(view[cut - 1]!);
      if (sum + t > keep.tokens) break;
      sum += t;
      cut--;
    }
  }
  // What the model has not seen yet (the newest results, a new user message) always stays.
  cut = Math.min(cut, unseenTailStart(view));
  while (cut > floor && ToolMessage.isInstance(view[cut]!)) cut--;
  return Math.max(cut, floor);
}

export function summaryMessageFor(summary: string, filePath: string): HumanMessage {
  return new HumanMessage({
    content:
      `Here is a summary of the conversation to date:\n\n${summary}\n\n` +
      `The full earlier conversation is saved at ${filePath}; ` +
      "use read_file or grep on it when you need details that the summary leaves out.",
    additional_kwargs: { lc_source: "summarization" },
  });
}

/** Markdown transcript of messages for the history file. */
export function transcript(messages: readonly BaseMessage[]): string {
  const out: string[] = [];
  for (const m of messages) {
    if (AIMessage.isInstance(m)) {
      out.push(`### assistant\n${transcriptText(m)}`);
      for (const c of m.tool_calls ?? []) out.push(`tool call ${c.name} (${c.id ?? "?"}): ${JSON.stringify(c.args)}`);
    } else if (ToolMessage.isInstance(m)) {
      out.push(`### tool ${m.name ?? ""} (${m.tool_call_id})\n${transcriptText(m)}`);
    } else {
      out.push(`### ${m.getType()}\n${transcriptText(m)}`);
    }
  }
  return out.join("\n\n");
}
