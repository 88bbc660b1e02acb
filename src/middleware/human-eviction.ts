/**
 * A user message over 50,000 tokens is saved to /conversation_history/ once
 * (before the run) and tagged with where it went; every request then carries
 * a head/tail preview instead. State keeps the message whole.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { isBackendError, type BackendProtocol } from "../backends/protocol.ts";
import { historyIndex } from "../core/history-index.ts";
import { messageText } from "../core/messages.ts";
import { headTailPreview } from "./eviction.ts";

const HUMAN_MESSAGE_TOKEN_LIMIT = 50_000;
const CHARS_PER_TOKEN = 4;

function humanEvictionStub(filePath: string, preview: string): string {
  return `Message content too large and was saved to the filesystem at: ${filePath}

You can read the full content using the read_file tool with pagination (offset and limit parameters).

Here is a preview showing the head and tail of the content:

${preview}`;
}

function evictedTo(m: BaseMessage): string | undefined {
  const to = m.additional_kwargs?.lc_evicted_to;
  return typeof to === "string" ? to : undefined;
}

/** Saves the last user message if it is too large; returns the tagged copy to store. */
export async function evictLargeHumanMessage(
  messages: readonly BaseMessage[],
  backend: BackendProtocol,
  limitTokens = HUMAN_MESSAGE_TOKEN_LIMIT,
): Promise<HumanMessage | undefined> {
  const last = [...messages].reverse().find((m) => HumanMessage.isInstance(m));
  if (!last || evictedTo(last)) return undefined;
  const text = messageText(last);
  if (text.length <= limitTokens * CHARS_PER_TOKEN) return undefined;
  const path = `/conversation_history/${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const written = await backend.write(path, text);
  if (isBackendError(written)) return undefined;
  return new HumanMessage({
    content: last.content,
    id: last.id,
    name: last.name,
    additional_kwargs: { ...last.additional_kwargs, lc_evicted_to: path },
    response_metadata: last.response_metadata,
  });
}

/** Positions of the tagged user messages of a history, kept incrementally (see core/history-index.ts). */
const taggedAt = historyIndex<number[]>({
  empty: () => [],
  add(at, m, i) {
    if (HumanMessage.isInstance(m) && evictedTo(m)) at.push(i);
  },
  truncate: (at, length) => at.filter((i) => i < length),
});

/** One stub per tagged message, so the views of successive steps share it. */
const stubs = new WeakMap<BaseMessage, HumanMessage>();

function stubFor(m: BaseMessage, to: string): HumanMessage {
  let stub = stubs.get(m);
  if (!stub) {
    stub = new HumanMessage({ content: humanEvictionStub(to, headTailPreview(messageText(m))), id: m.id });
    stubs.set(m, stub);
  }
  return stub;
}

/** The request view with tagged user messages replaced by their stubs. */
export function shortenEvictedHumanMessages(messages: readonly BaseMessage[]): readonly BaseMessage[] {
  const at = taggedAt(messages);
  if (at.length === 0) return messages;
  const view = [...messages];
  for (const i of at) view[i] = stubFor(messages[i]!, evictedTo(messages[i]!)!);
  return view;
}
