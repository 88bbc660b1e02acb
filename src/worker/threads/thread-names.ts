/**
 * Pure helpers of the thread registry: titles, which saver threads belong to a thread, and their order. Apart from
 * the export's validation (thread-export.ts, zod), which loads only when a thread is imported.
 */
import { SUBAGENT_THREAD_SEPARATOR } from "../../backends/runtime.ts";
import type { ThreadInfo } from "../../protocol/threads.ts";

/** Longest title kept. */
const TITLE_MAX = 60;

// eslint-disable-next-line no-control-regex
const UNSAFE_TITLE_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A title from free text: control and bidirectional-override characters
 * removed, whitespace collapsed, at most {@link TITLE_MAX} characters
 * ("New thread" when empty).
 */
export function threadTitle(text: string): string {
  const flat = text.replace(UNSAFE_TITLE_CHARS, " ").replace(/\s+/g, " ").trim();
  if (!flat) return "New thread";
  return flat.length <= TITLE_MAX ? flat : `${flat.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

/** The saver thread ids of `threadId`: itself and its subagent threads (`<id>::task::*`). */
export function ownedThreadIds(threadId: string, all: readonly string[]): string[] {
  return all.filter((id) => id === threadId || id.startsWith(threadId + SUBAGENT_THREAD_SEPARATOR));
}

/** The suffix that maps a saver thread id of `threadId` onto another thread ("" for the thread itself). */
export function threadSuffix(threadId: string, savedId: string): string {
  return savedId.slice(threadId.length);
}

/** Most recently updated first. */
export function sortThreads(threads: readonly ThreadInfo[]): ThreadInfo[] {
  return [...threads].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
}
