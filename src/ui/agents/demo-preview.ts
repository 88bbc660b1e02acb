/**
 * What saving a thread as a demo keeps, as the Save dialog lists it before the worker records anything: the person's
 * prompts, how many model replies (the main agent's and every subagent's, nested under their `task` calls) and the
 * tools the replies call. Pure: read from the messages the page shows.
 */
import type { MessageInfo } from "../../protocol/messages.ts";

/** The Save dialog's list of what a demo of the thread holds. */
export interface DemoPreview {
  /** The person's messages, in order (not the grader's feedback or workspace notes). */
  prompts: string[];
  /** Model replies: every assistant message, subagents' included. */
  replies: number;
  /** The tools the replies call, each once, in the order first called. */
  tools: string[];
}

/** What a demo of a thread with these messages would keep. */
export function demoPreview(messages: readonly MessageInfo[]): DemoPreview {
  const preview: DemoPreview = { prompts: [], replies: 0, tools: [] };
  for (const m of messages) if (m.role === "user" && !m.grader && !m.note) preview.prompts.push(m.content);
  count(messages, preview);
  return preview;
}

function count(messages: readonly MessageInfo[], into: DemoPreview): void {
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    into.replies++;
    for (const call of m.toolCalls ?? []) {
      if (!into.tools.includes(call.name)) into.tools.push(call.name);
      if (call.children) count(call.children, into);
    }
  }
}

/** "3 model replies" / "1 model reply". */
export function repliesText(replies: number): string {
  return `${replies} model ${replies === 1 ? "reply" : "replies"}`;
}
