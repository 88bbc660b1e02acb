/**
 * Message helpers shared by the loop, middleware, context engineering and the
 * worker: text of a message, copies of AI and tool messages that keep every field, and
 * the pending tool calls of a history.
 */
import {
  AIMessage,
  HumanMessage,
  ToolMessage,
  type AIMessageFields,
  type BaseMessage,
  type ToolMessageFields,
} from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";

/**
 * `response_metadata` key of an AI message whose provider ran a web search: `{ searches, citations }`
 * (core/web-search-blocks.ts), read from its blocks once, as the message arrives (harness/server-blocks.ts).
 */
export const WEB_SEARCH_KEY = "deeptab_web_search";

/** A tool call whose id is known (the harness gives every call one). */
export type IdToolCall = ToolCall & { id: string };

/**
 * The text of a message: LangChain's `BaseMessage.text` (string content, or
 * the text blocks of a block list; images and other blocks are not text).
 * String content is returned as it is: the getter converts it to v1 content
 * blocks on every read to find the same string (tens of microseconds a call).
 */
export function messageText(message: BaseMessage): string {
  return typeof message.content === "string" ? message.content : message.text;
}

/**
 * The content of a message for the conversation-history transcript: string
 * content as is, a block list as its JSON. Unlike {@link messageText} it keeps
 * the blocks that are not text (images, tool-use and provider blocks), since
 * the history file is the full record that a summary points to.
 */
export function transcriptText(message: BaseMessage): string {
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
}

/**
 * A copy of an AI message with some fields replaced, keeping every other
 * field (tool calls, invalid tool calls, additional kwargs, response metadata,
 * usage, name, id).
 */
export function copyAIMessage(message: AIMessage, overrides: Partial<AIMessageFields> = {}): AIMessage {
  return new AIMessage({
    content: message.content,
    tool_calls: message.tool_calls ?? [],
    invalid_tool_calls: message.invalid_tool_calls ?? [],
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    ...(message.usage_metadata ? { usage_metadata: message.usage_metadata } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
    ...(message.id !== undefined ? { id: message.id } : {}),
    ...overrides,
  });
}

/**
 * A copy of a tool message with some fields replaced (usually its content, as the model is to see it), keeping every
 * other field (call id, name, status, id, artifact, additional kwargs, response metadata).
 */
export function copyToolMessage(message: ToolMessage, overrides: Partial<ToolMessageFields> = {}): ToolMessage {
  return new ToolMessage({
    content: message.content,
    tool_call_id: message.tool_call_id,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    ...(message.status !== undefined ? { status: message.status } : {}),
    ...(message.artifact !== undefined ? { artifact: message.artifact } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
    ...(message.id !== undefined ? { id: message.id } : {}),
    ...overrides,
  });
}

/** The AI message at the end of the history, if the history ends with one. */
export function lastAIMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  const last = messages[messages.length - 1];
  return last && AIMessage.isInstance(last) ? last : undefined;
}

/** Tool calls of the last AI message that have no result yet. */
export function pendingToolCalls(messages: readonly BaseMessage[]): IdToolCall[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = messages[i]!;
    if (!AIMessage.isInstance(msg)) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length; j++) {
      const m = messages[j]!;
      if (ToolMessage.isInstance(m)) answered.add(m.tool_call_id);
    }
    return (msg.tool_calls ?? []).filter((c): c is IdToolCall => typeof c.id === "string" && !answered.has(c.id));
  }
  return [];
}

/** `response_metadata` key of a ToolMessage: how long its call ran, in ms (set by the loop). */
export const TOOL_DURATION_KEY = "deeptab_duration_ms";

/** The tag on feedback messages the rubric loop adds (upstream's `RUBRIC_GRADER_MESSAGE_SOURCE`). */
export const RUBRIC_GRADER_SOURCE = "rubric_grader";

/** Is this a feedback message the rubric loop added (not the person's)? */
export function isGraderFeedback(m: BaseMessage): boolean {
  return m.getType() === "human" && m.additional_kwargs?.lc_source === RUBRIC_GRADER_SOURCE;
}

/** The tag on the notes deeptab adds when the person changes the workspace by rewinding or reverting a turn's files. */
export const WORKSPACE_NOTE_SOURCE = "workspace_note";

/**
 * `additional_kwargs` key on a user message the person sent while a run worked (steering): it landed inside a turn,
 * after the tool results of the step before it, not at the turn's start.
 */
export const STEERED_KEY = "deeptab_steered";

/**
 * A message the person queued (steering) as the user message a run reads, its queued id kept (the page tells where it
 * landed by it). `steered`: it lands inside a running turn (the loop's inbox), marked with {@link STEERED_KEY};
 * otherwise it starts a turn (queued messages left when the run ended).
 */
export function queuedUserMessage(message: { readonly id: string; readonly text: string }, steered: boolean): HumanMessage {
  return new HumanMessage({ id: message.id, content: message.text, ...(steered ? { additional_kwargs: { [STEERED_KEY]: true } } : {}) });
}

/** Did this user message land inside a running turn (steering), rather than start one? */
export function isSteered(m: BaseMessage): boolean {
  return m.getType() === "human" && m.additional_kwargs?.[STEERED_KEY] === true;
}

/** Is this a workspace note (a rewind's or a revert's; the person's action, told to the agent), not a message they typed? */
function isWorkspaceNote(m: BaseMessage): boolean {
  return m.getType() === "human" && m.additional_kwargs?.lc_source === WORKSPACE_NOTE_SOURCE;
}

/** The tag on the status notes of async subagent tasks (deepagentsjs 1.16.2's notification source, `async_subagent`). */
export const ASYNC_SUBAGENT_SOURCE = "async_subagent";

/** Is this a note telling the agent an async subagent's task ended (added before a run), not a message the person typed? */
function isAsyncTaskNote(m: BaseMessage): boolean {
  return m.getType() === "human" && m.additional_kwargs?.lc_source === ASYNC_SUBAGENT_SOURCE;
}

/** Is this a note deeptab adds for the agent (a workspace note, an async task's status), not a message the person typed? */
export function isNote(m: BaseMessage): boolean {
  return isWorkspaceNote(m) || isAsyncTaskNote(m);
}

/**
 * Does this message open a turn: the person's own message, not steered into a running one, a rubric's feedback or a
 * note deeptab adds (a turn's replay mark and a demo's turns are keyed on it)?
 */
export function opensTurn(m: BaseMessage): boolean {
  return m.getType() === "human" && !isSteered(m) && !isGraderFeedback(m) && !isNote(m);
}
