/**
 * Checks of a thread's stored state as LangChain and deeptab read it: every
 * message a real message (human, ai, tool, system) with the fields their
 * getters and the views use well-formed (content a string or a list of typed
 * blocks; an AI message's tool calls with string ids and names and object
 * arguments; a tool message's `tool_call_id`), and every file in state a
 * file. An import is refused with the first problem found before anything is
 * written; a stored thread that fails them is reported as `corrupt_record`
 * instead of failing later with a TypeError from inside LangChain.
 */
import { BaseMessage, coerceMessageLikeToMessage } from "@langchain/core/messages";
import { StorageError } from "../../storage/errors.ts";
import { isRecord } from "../../core/is-record.ts";

const KINDS = new Set(["human", "ai", "tool", "system"]);

const optionalString = (value: unknown) => value === undefined || typeof value === "string";
const nonEmptyString = (value: unknown) => typeof value === "string" && value !== "";

function contentProblem(content: unknown): string | undefined {
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content)) return "its content is neither text nor a list of blocks";
  for (const [i, block] of content.entries()) {
    if (!isRecord(block) || typeof block.type !== "string") return `content block ${i + 1} is not a block with a type`;
    if (block.type === "text" && typeof block.text !== "string") return `content block ${i + 1} is text without a string text`;
  }
  return undefined;
}

function toolCallsProblem(calls: unknown, what: string): string | undefined {
  if (calls === undefined) return undefined;
  if (!Array.isArray(calls)) return `its ${what} are not a list`;
  for (const [i, call] of calls.entries()) {
    const which = `${what === "tool calls" ? "tool call" : "invalid tool call"} ${i + 1}`;
    if (!isRecord(call)) return `${which} is not an object`;
    if (what === "tool calls") {
      if (!nonEmptyString(call.id)) return `${which} has no string id`;
      if (!nonEmptyString(call.name)) return `${which} has no string name`;
      if (!isRecord(call.args)) return `${which}'s arguments are not an object`;
    } else if (!optionalString(call.id) || !optionalString(call.name) || !optionalString(call.args) || !optionalString(call.error)) {
      return `${which} has a field that is not text`;
    }
  }
  return undefined;
}

/** Why `value` is not a message deeptab can read, if it is not. */
function messageProblem(value: unknown): string | undefined {
  if (!BaseMessage.isInstance(value)) return "it is not a message";
  const kind = value.getType();
  if (!KINDS.has(kind)) return `it is a ${kind} message`;
  const m = value as unknown as Record<string, unknown>;
  if (!optionalString(m.id)) return "its id is not text";
  for (const field of ["additional_kwargs", "response_metadata"])
    if (m[field] !== undefined && !isRecord(m[field])) return `its ${field} is not an object`;
  const content = contentProblem(m.content);
  if (content) return content;
  if (kind === "ai") {
    if (m.usage_metadata !== undefined && !isRecord(m.usage_metadata)) return "its usage_metadata is not an object";
    return toolCallsProblem(m.tool_calls, "tool calls") ?? toolCallsProblem(m.invalid_tool_calls, "invalid tool calls");
  }
  if (kind === "tool") {
    if (!nonEmptyString(m.tool_call_id)) return "it has no string tool_call_id";
    if (m.status !== undefined && m.status !== "success" && m.status !== "error") return "its status is neither success nor error";
    if (!optionalString(m.name)) return "its name is not text";
  }
  return undefined;
}

/** The first problem of a list of messages, naming the message ("message 3 (ai): …"). */
export function messagesProblem(messages: unknown): string | undefined {
  if (messages === undefined) return undefined;
  if (!Array.isArray(messages)) return "the messages are not a list";
  for (const [i, m] of messages.entries()) {
    const problem = messageProblem(m);
    if (problem) return `message ${i + 1}${BaseMessage.isInstance(m) ? ` (${m.getType()})` : ""}: ${problem}`;
  }
  return undefined;
}

function filesProblem(files: unknown): string | undefined {
  if (files === undefined) return undefined;
  if (!isRecord(files)) return "the files are not a record";
  for (const [path, data] of Object.entries(files)) {
    const file = isRecord(data) ? data : undefined;
    const fine =
      file &&
      typeof file.content === "string" &&
      (file.encoding === "utf-8" || file.encoding === "base64") &&
      typeof file.createdAt === "string" &&
      typeof file.modifiedAt === "string";
    if (!fine) return `file ${path} is not a file`;
  }
  return undefined;
}

/** A message-like value (`{ role, content }`) as the messages reducer coerces it; anything else as it is. */
function asMessage(value: unknown): unknown {
  if (BaseMessage.isInstance(value) || !isRecord(value) || !("role" in value || "type" in value)) return value;
  try {
    return coerceMessageLikeToMessage(value as Parameters<typeof coerceMessageLikeToMessage>[0]);
  } catch {
    return value;
  }
}

/** What a decoded checkpoint holds that deeptab reads: its messages and files, and the messages its pending writes add. */
export interface StoredCheckpoint {
  checkpoint: { channel_values: Record<string, unknown> };
  pendingWrites: ReadonlyArray<readonly [string, string, unknown]>;
}

/** The first problem of a decoded checkpoint's messages and files, if any. */
export function checkpointProblem(decoded: StoredCheckpoint): string | undefined {
  const values = decoded.checkpoint.channel_values;
  const own = messagesProblem(values.messages) ?? filesProblem(values.files);
  if (own) return own;
  for (const [, channel, value] of decoded.pendingWrites) {
    if (channel !== "messages") continue;
    // A write of the messages channel: one message, a list, or an Overwrite holding a list; message-likes as the reducer takes them.
    const list: unknown = BaseMessage.isInstance(value) ? [value] : isRecord(value) && Array.isArray(value.value) ? value.value : value;
    const problem = messagesProblem(Array.isArray(list) ? list.map(asMessage) : list);
    if (problem) return `a pending write's ${problem}`;
  }
  return undefined;
}

/** The error for a stored thread whose state fails these checks. */
export function brokenThread(threadId: string, problem: string): StorageError {
  return new StorageError(
    "corrupt_record",
    `Thread ${threadId} cannot be opened: its stored history is broken (${problem}). Export what you need and delete it.`,
    { threadId },
  );
}
