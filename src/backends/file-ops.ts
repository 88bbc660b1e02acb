/**
 * Pure file operations of {@link FileBackend} and the composite backend:
 * bytes and text, slicing, editing, grepping and listing over a set of
 * stored files. No I/O here.
 */
import type { StoredFile } from "./file-store.ts";
import { compileGlob, isGlobError, matchCompiled, type CompiledGlob } from "./glob.ts";
import { dirPrefix, isWithin } from "./paths.ts";
import { backendError, type BackendError, type FileData, type FileInfo, type GrepMatch, type ReadSlice } from "./protocol.ts";

const textEncoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The largest file the agent can make, in bytes (10 MiB): `write_file`,
 * `edit_file` and every shell write are refused beyond it with a clear error,
 * and nothing is written. A text file of this size is about 2.5 million
 * tokens, far more than a model reads; the cap keeps one runaway edit
 * (`replace_all` of a short string with a long one) from growing a file to
 * hundreds of MB and stalling the worker. Files the user uploads or imports are
 * not held to it.
 */
export const MAX_FILE_WRITE_BYTES = 10 * 1024 * 1024;

/** UTF-8 length of a string without encoding it. */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair: 4 bytes for 2 UTF-16 units.
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/** "10 MB", "1.5 MB", "900 KB": a size for an error message. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

/** The file-size error the file tools return (the shell says EFBIG). */
export function fileTooLarge(path: string, bytes: number, max = MAX_FILE_WRITE_BYTES): BackendError {
  return backendError(
    "file_too_large",
    `Error: '${path}' would be ${sizeText(bytes)}; a file may hold at most ${sizeText(max)}. ` +
      "Nothing was written. Write smaller files (split the content), or make a smaller change.",
  );
}

export function byteLength(data: FileData): number {
  if (data.encoding === "base64") return Math.floor((data.content.replace(/=+$/, "").length * 3) / 4);
  return textEncoder.encode(data.content).length;
}

export function newFileData(content: string, now: string, createdAt = now): FileData {
  return { content, encoding: "utf-8", createdAt, modifiedAt: now };
}

/** Bytes to FileData: valid UTF-8 is kept as text, anything else as base64. */
export function fileDataFromBytes(bytes: Uint8Array, now: string, createdAt = now): FileData {
  try {
    return newFileData(strictDecoder.decode(bytes), now, createdAt);
  } catch {
    return { content: bytesToBase64(bytes), encoding: "base64", createdAt, modifiedAt: now };
  }
}

export function fileDataToBytes(data: FileData): Uint8Array {
  return data.encoding === "base64" ? base64ToBytes(data.content) : textEncoder.encode(data.content);
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Splits text into lines; a trailing newline does not make an extra empty line. */
export function splitLines(content: string): string[] {
  if (content.length === 0) return [];
  const lines = content.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function readSlice(path: string, data: FileData, offset = 0, limit = 100): ReadSlice | BackendError {
  if (data.encoding === "base64") {
    return backendError("invalid_argument", `Error: File '${path}' is a binary file and cannot be read as text.`);
  }
  if (!Number.isInteger(offset) || offset < 0) {
    return backendError("invalid_argument", `Error: offset must be a non-negative integer, got ${offset}.`);
  }
  if (!Number.isInteger(limit)) {
    return backendError("invalid_argument", `Error: limit must be an integer, got ${limit}.`);
  }
  const all = splitLines(data.content);
  // A limit of 0 or less reads no lines (Python deepagents' read and deepagentsjs' sandbox read answer empty content).
  return sliceWindow(limit > 0 ? all.slice(offset, offset + limit) : [], offset, all.length);
}

/** A slice with its window (deepagentsjs 1.13.2 `ReadResult`): first and last line (1-based) and where to read on. */
function sliceWindow(lines: string[], offset: number, totalLines: number): ReadSlice {
  if (lines.length === 0) return { lines, offset, totalLines };
  const endLine = offset + lines.length;
  return { lines, offset, totalLines, startLine: offset + 1, endLine, ...(endLine < totalLines ? { nextOffset: endLine } : {}) };
}

function countOccurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    count++;
    at = haystack.indexOf(needle, at + needle.length);
  }
  return count;
}

/**
 * The text after an edit, or why the edit cannot be made. An edit whose
 * result would exceed `maxBytes` (UTF-8) is refused before the new text is
 * built, so a `replace_all` that would make hundreds of MB costs nothing.
 */
export function applyEdit(
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  path = "the file",
  maxBytes = MAX_FILE_WRITE_BYTES,
): { content: string; occurrences: number; bytes: number } | BackendError {
  if (oldString.length === 0) {
    return backendError("invalid_argument", "Error: old_string must not be empty.");
  }
  const occurrences = countOccurrences(content, oldString);
  if (occurrences === 0) {
    return backendError("string_not_found", `Error: String not found in file: '${oldString}'`);
  }
  if (occurrences > 1 && !replaceAll) {
    return backendError(
      "not_unique",
      `Error: String '${oldString}' has multiple occurrences (appears ${occurrences} times) in file. ` +
        "Use replace_all=True to replace all instances, or provide a more specific string with surrounding context.",
    );
  }
  const replaced = replaceAll ? occurrences : 1;
  const bytes = utf8Length(content) + replaced * (utf8Length(newString) - utf8Length(oldString));
  if (bytes > maxBytes) return fileTooLarge(path, bytes, maxBytes);
  const next = replaceAll ? content.split(oldString).join(newString) : content.replace(oldString, () => newString);
  return { content: next, occurrences: replaced, bytes };
}

/** Literal matches of `pattern`, line by line. */
export function grepText(path: string, content: string, pattern: string, into: GrepMatch[]): void {
  if (!content.includes(pattern)) return;
  const lines = splitLines(content);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.includes(pattern)) into.push({ path, line: i + 1, text });
  }
}

/** Direct children of `dir` among `paths` (files only are stored; directories are implied). */
export function listChildren(dir: string, entries: Iterable<readonly [string, StoredFile]>): FileInfo[] {
  const prefix = dirPrefix(dir);
  const out = new Map<string, FileInfo>();
  for (const [path, file] of entries) {
    if (!path.startsWith(prefix) || path === dir) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash === -1) {
      out.set(path, { path, isDir: false, size: file.size, modifiedAt: file.data.modifiedAt });
    } else {
      const sub = prefix + rest.slice(0, slash);
      if (!out.has(sub)) out.set(sub, { path: sub, isDir: true, size: 0 });
    }
  }
  return sortByPath([...out.values()]);
}

/** Does `path` lie strictly below `root` and match the compiled glob relative to it? */
export function globFilter(glob: CompiledGlob, root: string, path: string): boolean {
  if (!isWithin(path, root) || path === root) return false;
  return matchCompiled(glob, path.slice(dirPrefix(root).length));
}

export function sortByPath<T extends { path: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Literal grep over whole files under `root` (`glob` matched against basenames), sorted by path then line. */
export function grepFiles(
  entries: Iterable<readonly [string, StoredFile]>,
  pattern: string,
  root: string,
  glob?: string,
): GrepMatch[] | BackendError {
  const filter = glob === undefined ? undefined : compileGlob(glob, true);
  if (filter && isGlobError(filter)) return filter;
  const matches: GrepMatch[] = [];
  for (const [path, { data }] of entries) {
    if (!isWithin(path, root) || data.encoding === "base64") continue;
    const rel = path === root ? path.slice(path.lastIndexOf("/") + 1) : path.slice(dirPrefix(root).length);
    if (filter && !matchCompiled(filter, rel)) continue;
    grepText(path, data.content, pattern, matches);
  }
  return sortMatches(matches);
}

/** Grep matches in path order, then line order. */
export function sortMatches(matches: GrepMatch[]): GrepMatch[] {
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** Files under `root` whose relative path matches the glob, sorted by path; an invalid pattern is an error value. */
export function globFiles(entries: Iterable<readonly [string, StoredFile]>, pattern: string, root: string): FileInfo[] | BackendError {
  const glob = compileGlob(pattern);
  if (isGlobError(glob)) return glob;
  const out: FileInfo[] = [];
  for (const [path, file] of entries) {
    if (globFilter(glob, root, path)) out.push({ path, isDir: false, size: file.size, modifiedAt: file.data.modifiedAt });
  }
  return sortByPath(out);
}
