/**
 * One summarization, as a function of model, backend and clock: pick a safe
 * cut point in the current view, append the evicted span to the thread's
 * history file, ask the model for a summary, and return the new event.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph/web";
import type { BackendProtocol } from "../backends/protocol.ts";
import { messageText } from "../core/messages.ts";
import { err, ok, type Result } from "../core/result.ts";
import { addUsage, tokenUsage, type TokenUsage } from "../core/usage.ts";
import { appendSection } from "./history-file.ts";
import {
  findSafeCutoff,
  renderView,
  stateIndexOf,
  summaryMessageFor,
  transcript,
  type KeepPolicy,
  type SummarizationEvent,
} from "./view.ts";

/** The tag of the summary's model call (a stream consumer tells it from an answer by it). */
export const SUMMARIZATION_TAG = "deeptab:summarization";

export const SUMMARY_PROMPT =
  "Summarize the conversation so far so that you can continue the task without it. " +
  "Keep the user's goals and constraints, decisions made, facts learned (names, numbers, paths, identifiers), files created or changed, " +
  "and the open questions and next steps. Be concise; use bullet points.";

export interface SummarizeInput {
  model: BaseChatModel;
  backend: BackendProtocol;
  now: () => string;
  config: LangGraphRunnableConfig;
  /** All of state.messages. */
  messages: readonly BaseMessage[];
  event: SummarizationEvent | undefined;
  keep: KeepPolicy;
  historyPath: string;
  prompt?: string;
}

/** The new event and the view it renders, or why nothing was summarized. */
export type SummarizeOutcome = Result<{ event: SummarizationEvent; view: BaseMessage[] }, string>;

export async function summarize(input: SummarizeInput): Promise<SummarizeOutcome> {
  const view = renderView(input.messages, input.event);
  const floor = input.event ? 1 : 0;
  const cut = findSafeCutoff(view, input.keep, floor);
  if (cut <= floor) return err("nothing old enough to summarize");
  const evicted = view.slice(floor, cut);
  const section = `## Summarized at ${input.now()}\n\n${transcript(evicted)}\n`;
  const failure = await appendSection(input.backend, input.historyPath, section);
  if (failure) return err(failure);

  const previous = input.event ? `Earlier summary:\n${messageText(input.event.summaryMessage)}\n\n` : "";
  const config = { ...input.config, tags: [...(input.config.tags ?? []), SUMMARIZATION_TAG] };
  const reply = await input.model.invoke(
    [
      new SystemMessage(input.prompt ?? SUMMARY_PROMPT),
      new HumanMessage(`${previous}Conversation to summarize:\n\n${transcript(evicted)}`),
    ],
    config,
  );
  const summaryMessage = summaryMessageFor(messageText(reply), input.historyPath);
  const usage = addCallUsage(input.event?.usage, (reply as { usage_metadata?: UsageMetadata }).usage_metadata);
  const event: SummarizationEvent = {
    cutoffIndex: stateIndexOf(cut, input.event),
    summaryMessage,
    filePath: input.historyPath,
    createdAtLength: input.messages.length,
    ...(usage ? { usage } : {}),
  };
  return ok({ event, view: renderView(input.messages, event) });
}

/** The usage of the summarization calls before, plus this call's (undefined when neither reported any). */
function addCallUsage(before: TokenUsage | undefined, call: UsageMetadata | undefined): TokenUsage | undefined {
  return call ? addUsage(before ?? { input: 0, output: 0 }, tokenUsage(call)) : before;
}
