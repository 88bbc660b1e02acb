/**
 * The effectful half of clearing old tool results (context/clear-results.ts):
 * decides how far results are cleared and saves each newly cleared result's
 * full text where its note will say. Loaded when a request first reaches the
 * clearing trigger (a first turn does not need it).
 */
import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { BackendProtocol } from "../backends/protocol.ts";
import { clearable, clearedPath, type ClearedResults } from "../context/clear-results.ts";
import { findSafeCutoff, stateIndexOf, type KeepPolicy, type SummarizationEvent } from "../context/view.ts";
import { fullTextAt } from "./fit-window.ts";

export interface ClearInput {
  /** state.messages, or a same-length request copy of them. */
  messages: readonly BaseMessage[];
  event: SummarizationEvent | undefined;
  cleared: ClearedResults | undefined;
  /** The request view of `messages` (with `event` and `cleared`). */
  view: readonly BaseMessage[];
  keep: KeepPolicy;
  backend: BackendProtocol;
}

/**
 * The new record when results the model has seen outside the keep are not
 * cleared yet, once their files are written; undefined when there is nothing
 * new to clear or a file cannot be written (the results then stay whole).
 */
export async function clearOldResults(input: ClearInput): Promise<ClearedResults | undefined> {
  const { messages, event, cleared } = input;
  const before = stateIndexOf(findSafeCutoff(input.view, input.keep, event ? 1 : 0), event);
  const fresh: ToolMessage[] = [];
  for (let i = Math.max(cleared?.before ?? 0, event?.cutoffIndex ?? 0); i < before; i++) {
    const m = messages[i]!;
    if (clearable(m)) fresh.push(m);
  }
  if (!fresh.length) return undefined;
  for (const m of fresh) if ((await fullTextAt(m, m.content as string, input.backend)) !== clearedPath(m)) return undefined;
  return { before, createdAtLength: messages.length };
}
