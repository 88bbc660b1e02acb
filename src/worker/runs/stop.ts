/**
 * What a Stop leaves in a thread, so that it reads as the user saw it and
 * the next request is valid at once:
 * - a call of the stopped step that had finished keeps its result;
 * - a call that had not gets the "cancelled" result the model reads
 *   (deepagents' text), marked stopped: the page shows "Stopped", never
 *   that text;
 * - a subagent stopped mid-way gets the same in its own thread, and keeps
 *   the answer it was streaming, marked stopped;
 * - the answer streaming at the top is kept, marked stopped.
 */
import { AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import type { DeepAgent } from "../../agent/create-deep-agent.ts";
import { subagentThreadId } from "../../backends/runtime.ts";
import { pendingToolCalls } from "../../core/messages.ts";
import { cancelledToolMessage } from "../../middleware/patch-tool-calls.ts";
import { TASK_TOOL } from "../../middleware/subagents.ts";
import { STOPPED_KEY, type CUT_OFF_KEY } from "../../protocol/message-marks.ts";

/** What the stopped run had under way (from its event translator, events.ts). */
export interface StoppedRun {
  /** The top-level answer streaming when it stopped. */
  partial: string;
  /** The answer the subagent of `task` call `taskId` was streaming. */
  childPartial(taskId: string): string;
  /** Results of the stopped step's calls that had finished. */
  finished: readonly ToolMessage[];
}

/** The part of an answer that had arrived, marked (`mark`: STOPPED_KEY by the user, CUT_OFF_KEY by a failure). */
export function partialAnswer(text: string, mark: typeof STOPPED_KEY | typeof CUT_OFF_KEY = STOPPED_KEY): AIMessage {
  return new AIMessage({ content: text, response_metadata: { [mark]: true } });
}

/** Writes what the stopped run had under way into `threadId` (and its subagents' threads). */
export async function keepStopped(reader: DeepAgent, threadId: string, run: StoppedRun): Promise<void> {
  const config = { configurable: { thread_id: threadId } };
  const messages = ((await reader.getState(config)).values as { messages?: BaseMessage[] }).messages ?? [];
  if (!messages.length) return;
  const pending = pendingToolCalls(messages);
  const done = new Map(run.finished.map((m) => [m.tool_call_id, m]));
  const results = pending.map((call) => done.get(call.id) ?? cancelledToolMessage(call, { [STOPPED_KEY]: true }));
  if (results.length) await reader.updateState(config, { messages: results }, "tools");
  for (const call of pending) {
    if (call.name !== TASK_TOOL || done.has(call.id)) continue;
    const child: StoppedRun = { partial: run.childPartial(call.id), childPartial: () => "", finished: [] };
    await keepStopped(reader, subagentThreadId(threadId, call.id), child);
  }
  if (run.partial.trim()) await reader.updateState(config, { messages: [partialAnswer(run.partial)] }, "after_model");
}
