/**
 * A thread as it moves between this tab and a LangGraph server ({@link ThreadCopy}): the shown branch's messages as
 * the message dicts LangGraph's API takes and gives (`{ type, content, tool_calls, tool_call_id, … }`), and the
 * workspace's files. Branches, subagents' own histories and the shared `/memories/` and `/skills/` stay where they
 * are. A copy from a server is untrusted: {@link checkCopy} refuses it with its first problem before anything is
 * written, with the same message checks as a thread import (stored-state.ts) and the import's limits.
 */
import { AIMessage, BaseMessage, ToolMessage, coerceMessageLikeToMessage } from "@langchain/core/messages";
import type { FileData } from "../../backends/protocol.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { MessageDict } from "../../protocol/messages.ts";
import { SHARED_ROUTES } from "../layout.ts";
import { messagesProblem } from "./stored-state.ts";
import { IMPORT_LIMITS } from "./thread-export.ts";
import { isRecord } from "../../core/is-record.ts";

/** Most messages a copy may bring. */
const COPY_MESSAGES_LIMIT = 20_000;

/** A message as LangGraph's API takes it (the messages reducer coerces these dicts). */
export function messageToDict(message: BaseMessage): MessageDict {
  const out: MessageDict = { type: message.getType(), content: structuredClone(message.content) as MessageDict["content"] };
  if (message.id) out.id = message.id;
  if (message.name) out.name = message.name;
  if (AIMessage.isInstance(message) && message.tool_calls?.length)
    out.tool_calls = message.tool_calls.map((c) => ({ id: c.id ?? "", name: c.name, args: structuredClone(c.args), type: "tool_call" }));
  if (ToolMessage.isInstance(message)) {
    out.tool_call_id = message.tool_call_id;
    if (message.status) out.status = message.status;
  }
  return out;
}

/** `raw` (message dicts from a server, or messages) as messages deeptab can read, or the first problem. */
export function messagesFromDicts(raw: unknown): Result<BaseMessage[], string> {
  if (!Array.isArray(raw)) return err("the messages are not a list");
  if (raw.length > COPY_MESSAGES_LIMIT) return err(`more than ${COPY_MESSAGES_LIMIT} messages`);
  const messages: unknown[] = [];
  for (const [i, value] of raw.entries()) {
    if (BaseMessage.isInstance(value)) {
      messages.push(value);
      continue;
    }
    if (!isRecord(value) || !(typeof value.type === "string" || typeof value.role === "string"))
      return err(`message ${i + 1}: it is not a message`);
    try {
      messages.push(coerceMessageLikeToMessage(value as Parameters<typeof coerceMessageLikeToMessage>[0]));
    } catch (cause) {
      return err(`message ${i + 1}: ${cause instanceof Error ? cause.message : "it is not a message"}`);
    }
  }
  const problem = messagesProblem(messages);
  if (problem) return err(problem);
  // A tool result answers a call made before it: providers refuse a history where it does not.
  const calls = new Set<string>();
  for (const [i, m] of (messages as BaseMessage[]).entries()) {
    if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) if (c.id) calls.add(c.id);
    if (ToolMessage.isInstance(m) && !calls.has(m.tool_call_id))
      return err(`message ${i + 1} (tool): it answers tool call ${m.tool_call_id}, which no earlier message made`);
  }
  return ok(messages as BaseMessage[]);
}

const dateOf = (value: unknown, fallback: string): string =>
  typeof value === "string" && !Number.isNaN(Date.parse(value)) ? value : fallback;

/**
 * A thread's files from a server's `files` channel as the tab keeps them: deeptab's FileData as it is, deepagents'
 * (`content` as a list of lines, `created_at`/`modified_at`) converted; shared routes left out; or the first problem.
 */
export function copyFiles(raw: unknown, now: string = new Date().toISOString()): Result<Record<string, FileData>, string> {
  if (raw === undefined || raw === null) return ok({});
  if (!isRecord(raw)) return err("the files are not a record");
  const out: Record<string, FileData> = {};
  let bytes = 0;
  for (const [path, data] of Object.entries(raw)) {
    if (!path.startsWith("/") || path.split("/").some((part) => part === ".." || part === ".") || path.includes("\0"))
      return err(`file ${JSON.stringify(path.slice(0, 200))} has no absolute, normalized path`);
    if (SHARED_ROUTES.some((route) => path.startsWith(route))) continue;
    // A deleted file in deepagents' channel is null.
    if (data === null) continue;
    if (!isRecord(data)) return err(`file ${path} is not a file`);
    const lines = Array.isArray(data.content) && data.content.every((l) => typeof l === "string") ? (data.content as string[]) : undefined;
    const content = typeof data.content === "string" ? data.content : lines?.join("\n");
    if (content === undefined) return err(`file ${path} has no text content`);
    const encoding = data.encoding === "base64" ? "base64" : data.encoding === undefined || data.encoding === "utf-8" ? "utf-8" : undefined;
    if (!encoding) return err(`file ${path} has an unknown encoding`);
    const createdAt = dateOf(data.createdAt ?? data.created_at, now);
    out[path] = { content, encoding, createdAt, modifiedAt: dateOf(data.modifiedAt ?? data.modified_at, createdAt) };
    bytes += content.length;
    if (Object.keys(out).length > IMPORT_LIMITS.files) return err(`more than ${IMPORT_LIMITS.files} files`);
    if (bytes > IMPORT_LIMITS.fileBytes) return err(`the files hold more than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB`);
  }
  return ok(out);
}

/** A copy checked: its messages as messages and its files as the tab keeps them, or the first problem. */
export function checkCopy(copy: unknown): Result<{ title: string; messages: BaseMessage[]; files: Record<string, FileData> }, string> {
  if (!isRecord(copy)) return err("it is not a thread");
  const title = typeof copy.title === "string" ? copy.title.trim().slice(0, 200) : "";
  const messages = messagesFromDicts(copy.messages);
  if (!messages.ok) return messages;
  const files = copyFiles(copy.files);
  if (!files.ok) return files;
  return ok({ title, messages: messages.value, files: files.value });
}
