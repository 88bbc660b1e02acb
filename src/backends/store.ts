/**
 * StoreBackend: files kept in a LangGraph BaseStore under a namespace, shared
 * by every thread (deeptab routes /memories/ and /skills/ here). Item key =
 * path, value = FileData. Listing and searching page through the namespace.
 */
import type { BaseStore } from "@langchain/langgraph/web";
import {
  byteLength,
  fileDataFromBytes,
  fileDataToBytes,
  fileInfoOf,
  globFiles,
  grepFiles,
  listChildren,
  newFileData,
  readSlice,
} from "./file-ops.ts";
import { dirPrefix, normalizePath } from "./paths.ts";
import {
  isBackendError,
  type BackendProtocol,
  type DownloadOutcome,
  type EditOutcome,
  type FileData,
  type FileInfo,
  type GrepMatch,
  type Outcome,
  type ReadSlice,
  type UploadOutcome,
} from "./protocol.ts";
import { alreadyExists, directoryNotFound, editedFileData, isDirectoryError, notFound } from "./file-errors.ts";

const PAGE = 1_000;

function isFileData(v: unknown): v is FileData {
  return typeof v === "object" && v !== null && typeof (v as FileData).content === "string" && typeof (v as FileData).modifiedAt === "string";
}

export class StoreBackend implements BackendProtocol {
  readonly #store: BaseStore;
  readonly #ns: string[];
  readonly #now: () => string;

  constructor(store: BaseStore, namespace: string[] = ["filesystem"], now: () => string = () => new Date().toISOString()) {
    this.#store = store;
    this.#ns = namespace;
    this.#now = now;
  }

  async #get(path: string): Promise<FileData | undefined> {
    const item = await this.#store.get(this.#ns, path);
    return item && isFileData(item.value) ? (item.value as FileData) : undefined;
  }

  async #all(): Promise<Array<[string, FileData]>> {
    const out: Array<[string, FileData]> = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#store.search(this.#ns, { limit: PAGE, offset });
      for (const item of page) if (isFileData(item.value) && item.namespace.join("/") === this.#ns.join("/")) out.push([item.key, item.value as FileData]);
      if (page.length < PAGE) return out;
    }
  }

  async #isDir(path: string): Promise<boolean> {
    if (path === "/") return true;
    const prefix = path + "/";
    return (await this.#all()).some(([p]) => p.startsWith(prefix));
  }

  async #missing(path: string) {
    return (await this.#isDir(path)) ? isDirectoryError(path) : notFound(path);
  }

  async ls(raw: string): Promise<Outcome<FileInfo[]>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const file = await this.#get(path);
    if (file) return [{ path, isDir: false, size: byteLength(file) }];
    const all = await this.#all();
    const prefix = dirPrefix(path);
    if (path !== "/" && !all.some(([p]) => p.startsWith(prefix))) return directoryNotFound(path);
    return listChildren(path, all.map(([p, d]) => [p, fileInfoOf(d)] as [string, { size: number; modifiedAt: string }]));
  }

  async read(raw: string, offset = 0, limit = 100): Promise<Outcome<ReadSlice>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const data = await this.#get(path);
    return data ? readSlice(path, data, offset, limit) : this.#missing(path);
  }

  async write(raw: string, content: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    if (path === "/" || (await this.#isDir(path))) return isDirectoryError(path);
    if (await this.#get(path)) {
      return alreadyExists(path);
    }
    await this.#store.put(this.#ns, path, newFileData(content, this.#now()) as unknown as Record<string, unknown>);
    return { path };
  }

  async edit(raw: string, oldString: string, newString: string, replaceAll = false): Promise<Outcome<EditOutcome>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    const data = await this.#get(path);
    if (!data) return this.#missing(path);
    const edited = editedFileData(path, data, oldString, newString, replaceAll, this.#now());
    if (isBackendError(edited)) return edited;
    await this.#store.put(this.#ns, path, edited.data as unknown as Record<string, unknown>);
    return { path, occurrences: edited.occurrences };
  }

  async delete(raw: string): Promise<Outcome<{ path: string }>> {
    const path = normalizePath(raw);
    if (isBackendError(path)) return path;
    if (!(await this.#get(path))) return this.#missing(path);
    await this.#store.delete(this.#ns, path);
    return { path };
  }

  async grep(pattern: string, raw = "/", glob?: string): Promise<Outcome<GrepMatch[]>> {
    const root = normalizePath(raw);
    return isBackendError(root) ? root : grepFiles(await this.#all(), (d) => d, pattern, root, glob);
  }


  async glob(pattern: string, raw = "/"): Promise<Outcome<FileInfo[]>> {
    const root = normalizePath(raw);
    return isBackendError(root) ? root : globFiles(await this.#all(), fileInfoOf, pattern, root);
  }


  async uploadFiles(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]> {
    const out: UploadOutcome[] = [];
    for (const { path: raw, content } of files) {
      const path = normalizePath(raw);
      if (isBackendError(path)) {
        out.push({ path: raw, error: path.error });
        continue;
      }
      if (path === "/" || (await this.#isDir(path))) {
        out.push({ path, error: "is_directory" });
        continue;
      }
      const prev = await this.#get(path);
      await this.#store.put(this.#ns, path, fileDataFromBytes(content, this.#now(), prev?.createdAt) as unknown as Record<string, unknown>);
      out.push({ path });
    }
    return out;
  }

  async downloadFiles(paths: string[]): Promise<DownloadOutcome[]> {
    const out: DownloadOutcome[] = [];
    for (const raw of paths) {
      const path = normalizePath(raw);
      if (isBackendError(path)) {
        out.push({ path: raw, error: path.error });
        continue;
      }
      const data = await this.#get(path);
      out.push(data ? { path, content: fileDataToBytes(data) } : { path, error: (await this.#isDir(path)) ? "is_directory" : "file_not_found" });
    }
    return out;
  }
}
