/**
 * Pure helpers of the thread registry and of thread exports: titles, which
 * saver threads belong to a thread, and validation of export files.
 */
import { SUBAGENT_THREAD_SEPARATOR } from "../backends/runtime.ts";
import type { ExportedCheckpoint, FileData, ThreadExport, ThreadInfo } from "./protocol.ts";

/** Longest title kept. */
export const TITLE_MAX = 60;

/** A title from free text: whitespace collapsed, at most {@link TITLE_MAX} characters ("New thread" when empty). */
export function threadTitle(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

function isThreadInfo(v: unknown): v is ThreadInfo {
  return isRecord(v) && isString(v.id) && isString(v.title) && isString(v.createdAt) && isString(v.updatedAt) && typeof v.messageCount === "number";
}

function isCheckpoint(v: unknown): v is ExportedCheckpoint {
  if (!isRecord(v)) return false;
  const suffixOk = isString(v.threadSuffix) && (v.threadSuffix === "" || v.threadSuffix.startsWith(SUBAGENT_THREAD_SEPARATOR));
  return (
    suffixOk &&
    isString(v.checkpointNs) &&
    isString(v.checkpointId) &&
    v.checkpointId !== "" &&
    (v.parentCheckpointId === undefined || isString(v.parentCheckpointId)) &&
    isString(v.type) &&
    isString(v.data)
  );
}

function isFileData(v: unknown): v is FileData {
  return isRecord(v) && isString(v.content) && (v.encoding === "utf-8" || v.encoding === "base64") && isString(v.createdAt) && isString(v.modifiedAt);
}

/** `data` as a {@link ThreadExport} when it has the export's shape (the checkpoints' data is checked when decoded), else null. */
export function parseThreadExport(data: unknown): ThreadExport | null {
  if (!isRecord(data) || data.format !== "deeptab-thread" || data.version !== 1) return null;
  if (!isThreadInfo(data.thread) || !Array.isArray(data.checkpoints) || !data.checkpoints.every(isCheckpoint)) return null;
  if (!isRecord(data.files)) return null;
  const files = Object.entries(data.files);
  if (!files.every(([path, f]) => path.startsWith("/") && !path.startsWith("/memories/") && isFileData(f))) return null;
  return data as unknown as ThreadExport;
}
