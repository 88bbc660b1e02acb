/**
 * The matching rules of a replay, as pure functions: which recorded call a request is (its conversation and index),
 * what the request added since the conversation's previous reply, and whether that still fits what was recorded.
 *
 * - **Conversation:** the digest of the first human message of the request (the person's first message for the main
 *   agent; the task description for a subagent; the summary once a long conversation was compacted).
 * - **Index:** how many model replies (AI messages) the request holds.
 * - **What the request added:** the messages after its last AI message (none: after its system message).
 * - **Fits:** the same parts in the same order; a person's message equal once whitespace is collapsed; a tool result
 *   from the same tool, failing or not alike, and equal once its volatile parts are masked: times and dates, durations
 *   (`1.2s`, `35 ms`), UUIDs and long hex ids. Anything else that differs (a file's content, a count, a listing) stops
 *   the replay, since the next recorded reply may rely on it.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { hash53 } from "../../core/hash.ts";
import { EXCERPT_CHARS, type DemoCall, type DemoRequestPart } from "./format.ts";

const encoder = new TextEncoder();

/** A short hex digest of text (not cryptographic: the folder's hash guards the file). */
function digest(text: string): string {
  return hash53(encoder.encode(text)).toString(16);
}

/** Whitespace runs as one space, trimmed. */
function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The parts of a tool result that change from run to run without changing what it says. */
const VOLATILE: ReadonlyArray<[RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, "<date>"],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g, "<time>"],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|min|minutes|h|hours)\b/g, "<duration>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b[0-9a-f]{16,}\b/gi, "<hex>"],
];

/** A tool result with its volatile parts masked and whitespace collapsed: what a replay compares. */
export function maskVolatile(text: string): string {
  return collapse(VOLATILE.reduce((t, [pattern, mask]) => t.replace(pattern, mask), text));
}

const role = (m: BaseMessage) => m.getType();

/** The digest of the request's first human message: its conversation. */
export function conversationKey(messages: readonly BaseMessage[]): string {
  const first = messages.find((m) => role(m) === "human");
  return digest(collapse(first?.text ?? ""));
}

/** How many model replies the request holds. */
export function replyIndex(messages: readonly BaseMessage[]): number {
  return messages.filter((m) => role(m) === "ai").length;
}

/** The name of the tool a ToolMessage answers, from the message or the AI message that called it. */
function toolNameOf(message: BaseMessage, messages: readonly BaseMessage[]): string {
  const named = (message as { name?: string }).name;
  if (named) return named;
  const id = (message as { tool_call_id?: string }).tool_call_id;
  for (const m of messages) {
    const calls = (m as { tool_calls?: Array<{ id?: string; name: string }> }).tool_calls ?? [];
    const found = calls.find((c) => c.id === id);
    if (found) return found.name;
  }
  return "unknown";
}

/** What the request added since the conversation's previous reply (see the module comment). */
export function requestParts(messages: readonly BaseMessage[]): DemoRequestPart[] {
  let start = 0;
  messages.forEach((m, i) => {
    if (role(m) === "ai" || role(m) === "system") start = i + 1;
  });
  const parts: DemoRequestPart[] = [];
  for (const m of messages.slice(start)) {
    if (role(m) === "human") parts.push({ kind: "human", text: m.text });
    else if (role(m) === "tool") {
      const text = m.text;
      const failed = (m as { status?: string }).status === "error";
      parts.push({
        kind: "tool",
        name: toolNameOf(m, messages),
        callId: (m as { tool_call_id?: string }).tool_call_id ?? "",
        ...(failed ? { error: true } : {}),
        digest: digest(maskVolatile(text)),
        excerpt: text.slice(0, EXCERPT_CHARS),
      });
    }
  }
  return parts;
}

/** Text for a person, cut to `max` characters. */
function quote(text: string, max = 120): string {
  const flat = collapse(text);
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`;
}

function partLabel(part: DemoRequestPart): string {
  return part.kind === "human" ? "a message" : `the result of ${part.name}`;
}

/** Why `actual` does not fit what `recorded` expected, for a person; undefined when it fits (see the module comment). */
export function mismatch(recorded: DemoCall, actual: readonly DemoRequestPart[]): string | undefined {
  const expected = recorded.request;
  for (let i = 0; i < Math.max(expected.length, actual.length); i += 1) {
    const want = expected[i];
    const got = actual[i];
    if (!got) return `this run's request lacks ${partLabel(want!)} that the recording had`;
    if (!want) return `this run's request has ${partLabel(got)} that the recording did not have`;
    if (want.kind === "human" && got.kind === "human") {
      if (collapse(want.text) !== collapse(got.text))
        return `the message differs from the recorded one: recorded ${quote(want.text)}, sent ${quote(got.text)}`;
      continue;
    }
    if (want.kind === "tool" && got.kind === "tool") {
      if (want.name !== got.name) return `the recording ran ${want.name} here, this run ${got.name}`;
      if ((want.error ?? false) !== (got.error ?? false))
        return want.error
          ? `${want.name} failed in the recording and succeeded here (${quote(got.excerpt)})`
          : `${want.name} failed here (${quote(got.excerpt)}); in the recording it succeeded`;
      if (want.digest !== got.digest) {
        const both = `recorded ${quote(want.excerpt)}, here ${quote(got.excerpt)}`;
        return `the result of ${want.name} differs from the recording (${both}), so the next recorded answer may not fit`;
      }
      continue;
    }
    return `the request differs from the recording: ${partLabel(want)} was recorded where this run has ${partLabel(got)}`;
  }
  return undefined;
}
