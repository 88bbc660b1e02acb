/**
 * Three-way merge of two versions of one file changed from a common base:
 * line by line, and where both touched the same lines, word by word (two
 * edits of different words of one line merge as if made one after the
 * other). What cannot be merged (both changed the same words, one deleted
 * what the other changed, binary files) is reported, with the later
 * version's text of the conflicting parts. Merging uses node-diff3 (diff3's
 * algorithm), loaded only when a merge is needed.
 */
import type * as Diff3Module from "node-diff3";
import type { FileData } from "./protocol.ts";

/** Why a later version of a file could not be merged into an earlier one. */
export type MergeFailure = "conflict" | "deleted_there" | "deleted_here";

/** Longest excerpt of a lost change quoted back to the model. */
const LOST_CHANGE_QUOTE_CHARS = 2_000;

const WORDS = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

function lines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

function words(text: string): string[] {
  return text.match(WORDS) ?? [];
}

let diff3: Promise<typeof Diff3Module> | undefined;

/** The merge algorithm, loaded on first use: load it before a unit that must not wait (an IndexedDB transaction). */
export function loadMerge(): Promise<typeof Diff3Module> {
  return (diff3 ??= import("node-diff3"));
}

/**
 * `theirs` and `ours` merged against `base` with the algorithm loaded (no wait): a string, or the conflicting
 * parts as `ours` has them when both changed the same words.
 */
function mergeTextWith(
  { diff3Merge }: typeof Diff3Module,
  base: string,
  theirs: string,
  ours: string,
): { text: string } | { conflict: string } {
  let text = "";
  const lost: string[] = [];
  for (const region of diff3Merge(lines(theirs), lines(base), lines(ours))) {
    if (!region.conflict) {
      text += (region.ok ?? []).join("");
      continue;
    }
    const { a, o, b } = region.conflict;
    const fine = diff3Merge(words(a.join("")), words(o.join("")), words(b.join("")));
    if (fine.every((r) => r.ok)) text += fine.map((r) => r.ok!.join("")).join("");
    else lost.push(b.join(""));
  }
  return lost.length ? { conflict: lost.join("…\n") } : { text };
}

export function sameFile(a: FileData | null, b: FileData | null): boolean {
  return a === b || (a !== null && b !== null && a.encoding === b.encoding && a.content === b.content);
}

/** What {@link mergeFile} gives: the merged file, or why not. */
export type MergedFile = { data: FileData } | { outcome: MergeFailure; ours?: string };

/** `ours` brought onto `theirs` (both changed `base`; `null` is a delete): the merged file, or why not. */
export async function mergeFile(base: FileData | undefined, theirs: FileData | null, ours: FileData | null): Promise<MergedFile> {
  return mergeFileWith(await loadMerge(), base, theirs, ours);
}

/** {@link mergeFile} with the algorithm loaded (no wait). */
export function mergeFileWith(
  algorithm: typeof Diff3Module,
  base: FileData | undefined,
  theirs: FileData | null,
  ours: FileData | null,
): MergedFile {
  if (theirs === null) return { outcome: "deleted_there" };
  if (ours === null) return { outcome: "deleted_here" };
  if (theirs.encoding !== "utf-8" || ours.encoding !== "utf-8" || (base && base.encoding !== "utf-8")) return { outcome: "conflict" };
  const merged = mergeTextWith(algorithm, base?.content ?? "", theirs.content, ours.content);
  if ("conflict" in merged) return { outcome: "conflict", ours: merged.conflict.slice(0, LOST_CHANGE_QUOTE_CHARS) };
  const modifiedAt = theirs.modifiedAt > ours.modifiedAt ? theirs.modifiedAt : ours.modifiedAt;
  return { data: { content: merged.text, encoding: "utf-8", createdAt: theirs.createdAt, modifiedAt } };
}
