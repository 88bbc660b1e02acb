/**
 * The files a thread's agent sees, for the page: the tree, pages of a file
 * (a 50 MB file is split once and served a page at a time), bytes for a
 * download, the user's own edits and deletes (the agent sees them on its
 * next step), attachments, and the workspace as a zip (fflate, imported when
 * the first zip is asked for).
 */
import { fileDataFromBytes, fileDataToBytes } from "../../backends/file-ops.ts";
import { isBackendError, type BackendErrorCode, type BackendProtocol, type FileData } from "../../backends/protocol.ts";
import { fail, ok, type Err } from "../../core/result.ts";
import type { FileEntry, FilePage } from "../../protocol/files.ts";
import type { FileError, FileResult } from "../../protocol/errors.ts";
import type { UserInput } from "../../protocol/worker-api.ts";

/** Where attached files go. */
export const UPLOADS_DIR = "/uploads";
const SHARED = ["/memories/", "/skills/"];

/** Every file of a backend by path (its content as FileData). */
export async function readAllFiles(backend: BackendProtocol): Promise<Record<string, FileData>> {
  const listed = await backend.glob("**/*", "/");
  if (isBackendError(listed) || !backend.downloadFiles) return {};
  const files = listed.filter((f) => !f.isDir);
  const downloads = await backend.downloadFiles(files.map((f) => f.path));
  const out: Record<string, FileData> = {};
  for (const [i, d] of downloads.entries()) {
    if (d.content) out[d.path] = fileDataFromBytes(d.content, files[i]!.modifiedAt ?? new Date(0).toISOString());
  }
  return out;
}

/** True when bytes look binary (a NUL in the first 8 KB, or not UTF-8). */
function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.length < bytes.length ? trimPartial(head) : head);
    return false;
  } catch {
    return true;
  }
}

/** Drops a multi-byte character cut at the end of a prefix. */
function trimPartial(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = bytes[end - i]!;
    if ((b & 0xc0) !== 0x80) {
      if (b >= 0xc0) end -= i;
      break;
    }
  }
  return bytes.subarray(0, end);
}

/** A file name safe for the uploads folder: no slashes or control characters, at most 120 characters. */
function safeFileName(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\]/g, "_")
    .replace(/^\.+/, "_")
    .trim()
    .slice(0, 120);
  return cleaned || "file";
}

/** A failed file call: the backend's code (see FileErrorCode in protocol/errors.ts) and a message for people. */
function fileFailed(code: BackendErrorCode, message: string): Err<FileError> {
  return fail(code, message, "FileError");
}

/** The message for a file that could not be read, by the backend's code. */
function unreadable(path: string, code: BackendErrorCode | undefined): Err<FileError> {
  if (code === "is_directory") return fileFailed(code, `${path} is a folder.`);
  if (code === undefined || code === "file_not_found") return fileFailed("file_not_found", `${path} does not exist.`);
  return fileFailed(code, `Could not read ${path}: ${code.replaceAll("_", " ")}.`);
}

/** The page's file calls over a thread's backend. Expected failures are coded values (FileResult), never throws. */
export interface FilesService {
  list(backend: BackendProtocol): Promise<FileEntry[]>;
  read(backend: BackendProtocol, path: string, offset: number, limit: number): Promise<FileResult<FilePage>>;
  bytes(backend: BackendProtocol, path: string): Promise<FileResult<Uint8Array>>;
  write(backend: BackendProtocol, path: string, content: string): Promise<FileResult<null>>;
  remove(backend: BackendProtocol, path: string): Promise<FileResult<null>>;
  attach(backend: BackendProtocol, files: NonNullable<UserInput["attachments"]>): Promise<FileResult<string[]>>;
  zip(backend: BackendProtocol): Promise<Uint8Array>;
  /** The text of a file, when it exists and is text (approval diffs). */
  text(backend: BackendProtocol, path: string): Promise<string | undefined>;
}

/** What identifies a file's content without reading it: its size and modification time, from its folder's listing. */
async function stampOf(backend: BackendProtocol, path: string): Promise<string | undefined> {
  const listed = await backend.ls(path.slice(0, path.lastIndexOf("/")) || "/");
  const info = isBackendError(listed) ? undefined : listed.find((f) => f.path === path && !f.isDir);
  return info?.modifiedAt ? `${info.size}|${info.modifiedAt}` : undefined;
}

export function createFilesService(): FilesService {
  /**
   * The last file read, split into lines once: pages of it are served from
   * here while its stamp (size and modification time) is unchanged, so
   * paging a 50 MB file reads it from storage once, not once per page.
   */
  let cached: { path: string; stamp: string; size: number; binary: boolean; image?: string; lines: string[] } | undefined;

  async function download(backend: BackendProtocol, path: string): Promise<FileResult<Uint8Array>> {
    if (!backend.downloadFiles) return fileFailed("not_supported", "This filesystem cannot read files.");
    const [d] = await backend.downloadFiles([path]);
    if (!d?.content) return unreadable(path, d?.error);
    return ok(d.content);
  }

  /** The file as lines (or binary), from the cache when its stamp matches, else read and split. */
  async function linesOf(
    backend: BackendProtocol,
    path: string,
  ): Promise<FileResult<{ size: number; binary: boolean; image?: string; lines: string[] }>> {
    const stamp = await stampOf(backend, path);
    if (stamp !== undefined && cached?.path === path && cached.stamp === stamp) return ok(cached);
    const data = await download(backend, path);
    if (!data.ok) return data;
    const bytes = data.value;
    const binary = looksBinary(bytes);
    const lines = binary ? [] : new TextDecoder().decode(bytes).split(/\r?\n/);
    if (lines.length > 1 && lines.at(-1) === "") lines.pop();
    // The image check loads with the first binary file (the worker starts without it).
    const image = binary ? (await import("../../core/tool-image-check.ts")).imageTypeOf(bytes) : undefined;
    const file = { size: bytes.length, binary, lines, ...(image ? { image } : {}) };
    // Without a stamp (a backend that gives no modification time) nothing is cached: it could not be checked.
    cached = stamp === undefined ? undefined : { path, stamp, ...file };
    return ok(file);
  }

  return {
    async list(backend) {
      const listed = await backend.glob("**/*", "/");
      if (isBackendError(listed)) return [];
      return listed.map((f) => ({ path: f.path, isDir: f.isDir, size: f.size, ...(f.modifiedAt ? { modifiedAt: f.modifiedAt } : {}) }));
    },

    async read(backend, path, offset, limit) {
      const file = await linesOf(backend, path);
      if (!file.ok) return file;
      const { size, binary, lines, image } = file.value;
      if (binary) return ok({ path, lines: [], offset: 0, totalLines: 0, binary: true, size, ...(image ? { image } : {}) });
      const start = Math.max(0, Math.min(Math.floor(offset), lines.length));
      const count = Math.max(1, Math.min(Math.floor(limit) || 500, 5_000));
      return ok({ path, lines: lines.slice(start, start + count), offset: start, totalLines: lines.length, binary: false, size });
    },

    bytes: (backend, path) => download(backend, path),

    async write(backend, path, content) {
      if (!backend.uploadFiles) return fileFailed("not_supported", "This filesystem cannot be written.");
      const [outcome] = await backend.uploadFiles([{ path, content: new TextEncoder().encode(content) }]);
      cached = undefined;
      return outcome?.error ? fileFailed(outcome.error, `Could not save ${path}: ${outcome.error}`) : ok(null);
    },

    async remove(backend, path) {
      if (!backend.delete) return fileFailed("not_supported", "This filesystem cannot delete files.");
      const outcome = await backend.delete(path);
      cached = undefined;
      return isBackendError(outcome) ? fileFailed(outcome.error, outcome.message) : ok(null);
    },

    async attach(backend, files) {
      if (!backend.uploadFiles) return fileFailed("not_supported", "This filesystem cannot be written.");
      const listed = await backend.glob("*", UPLOADS_DIR);
      const taken = new Set(isBackendError(listed) ? [] : listed.map((f) => f.path));
      const uploads = files.map((f) => {
        const name = safeFileName(f.name);
        const dot = name.lastIndexOf(".");
        const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
        let path = `${UPLOADS_DIR}/${name}`;
        for (let n = 1; taken.has(path); n++) path = `${UPLOADS_DIR}/${stem}-${n}${ext}`;
        taken.add(path);
        return { path, content: f.content };
      });
      const outcomes = await backend.uploadFiles(uploads);
      const failed = outcomes.find((o) => o.error);
      return failed?.error ? fileFailed(failed.error, `Could not attach ${failed.path}: ${failed.error}`) : ok(uploads.map((u) => u.path));
    },

    async zip(backend) {
      const all = await readAllFiles(backend);
      const entries: Record<string, Uint8Array> = {};
      for (const [path, data] of Object.entries(all)) {
        if (SHARED.some((p) => path.startsWith(p))) continue;
        entries[path.slice(1)] = fileDataToBytes(data);
      }
      const { zipSync } = await import("fflate");
      return zipSync(entries, { level: 6 });
    },

    async text(backend, path) {
      const data = await download(backend, path);
      if (!data.ok || looksBinary(data.value)) return undefined;
      return new TextDecoder().decode(data.value);
    },
  };
}
