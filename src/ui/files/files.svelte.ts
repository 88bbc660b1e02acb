/**
 * The files of the shown thread, reactive: the tree (grouped by route), the
 * open file (one page of lines at a time, so a 50 MB file never reaches the
 * page whole), and the user's own writes, creates, deletes and downloads.
 * The agent sees the user's changes on its next step. `watch()` keeps the
 * tree fresh: after every run and reload (`chat.revision`) and, during a
 * run, whenever a message (a tool result) arrives, debounced.
 */
import { SvelteSet } from "svelte/reactivity";
import { toErrorInfo } from "../../core/errors.ts";
import { err, fail, ok, type Result } from "../../core/result.ts";
import type { AgentClient } from "../../page/client.ts";
import type { FileEntry, FilePage } from "../../protocol/files.ts";
import type { Chat } from "../chat/chat.svelte.ts";
import { ancestorsOf, baseName, buildGroups, expandedByDefault, pathProblem, type FileGroup } from "./file-tree.ts";

/** Lines per page of the viewer. */
export const PAGE_LINES = 500;
/** Files up to this size can be edited in the viewer. */
export const EDIT_LIMIT = 2 * 1024 * 1024;
/** How long `watch()` waits for changes to settle before it lists the files. */
const REFRESH_DEBOUNCE_MS = 300;
export const ZIP_NAME = "deeptab-workspace.zip";

/** The file shown in the viewer. */
export interface OpenFile {
  path: string;
  /** The page shown (null until the first one arrives, or after an error). */
  page: FilePage | null;
  loading: boolean;
  error: string | null;
  /** The 1-based line to scroll to once its page is shown. */
  line?: number;
}

/**
 * What the file viewer (file-viewer.svelte) shows and changes: the workspace's files ({@link FilesState}) or an agent's
 * folder (agents/editor.svelte.ts). `savedNote`: what the viewer says after a save.
 */
export interface ViewerFiles {
  readonly current: OpenFile | null;
  readonly savedNote?: string;
  entry(path: string): { size: number } | undefined;
  page(offset: number): Promise<void>;
  text(path: string): Promise<Result<string>>;
  imageUrl(path: string, type: string): Promise<Result<string>>;
  save(path: string, content: string): Promise<Result<null>>;
  remove(path: string): Promise<Result<null>>;
  download(path: string): Promise<Result<null>>;
}

function message(error: unknown): string {
  return toErrorInfo(error).message;
}

/** Saves `blob` as a download named `name` (an object URL, revoked right after). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The download has started by now; a short delay is still kinder to slow browsers.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

export class FilesState implements ViewerFiles {
  readonly #client: AgentClient;
  readonly #chat: Chat;
  #entries: readonly FileEntry[] = $state.raw([]);
  #loaded = $state.raw(false);
  #loading = $state.raw(false);
  #error: string | null = $state.raw(null);
  #current: OpenFile | null = $state.raw(null);
  /** Keys (group prefixes, folder paths) whose expansion differs from the default. */
  readonly #toggled = new SvelteSet<string>();
  /** Not reactive: the latest list and read requests (older answers are dropped) and the thread watched. */
  #listSeq = 0;
  #readSeq = 0;
  #watchedThread: string | undefined;

  /** The tree, grouped: workspace, uploads, memories, skills, large tool results, conversation history. */
  readonly groups: FileGroup[] = $derived(buildGroups(this.#entries));

  constructor(client: AgentClient, chat: Chat) {
    this.#client = client;
    this.#chat = chat;
  }

  get entries(): readonly FileEntry[] {
    return this.#entries;
  }
  /** True once the first list arrived. */
  get loaded(): boolean {
    return this.#loaded;
  }
  get loading(): boolean {
    return this.#loading;
  }
  /** Why the last list or action failed, for the panel. */
  get error(): string | null {
    return this.#error;
  }
  get current(): OpenFile | null {
    return this.#current;
  }
  get threadId(): string {
    return this.#chat.threadId;
  }

  /** The entry of a file, when it is listed. */
  entry(path: string): FileEntry | undefined {
    return this.#entries.find((e) => e.path === path && !e.isDir);
  }

  isExpanded(key: string): boolean {
    return expandedByDefault(key) !== this.#toggled.has(key);
  }

  toggle(key: string): void {
    if (!this.#toggled.delete(key)) this.#toggled.add(key);
  }

  /** Expands the groups and folders that hold `path`. */
  reveal(path: string): void {
    for (const key of ancestorsOf(path)) {
      if (expandedByDefault(key)) this.#toggled.delete(key);
      else this.#toggled.add(key);
    }
  }

  dismissError(): void {
    this.#error = null;
  }

  /**
   * Keeps the tree fresh until the returned teardown is called: lists the
   * files ~300 ms after `chat.revision` changes (a run ended, a reload) and,
   * during a run, after each new message of the thread or a subagent. A
   * thread switch closes the open file.
   */
  watch(): () => void {
    return $effect.root(() => {
      // Derived counts: `chat.live` is replaced on every streamed token, but these change only when a message arrives.
      const messages = $derived(this.#chat.live.messages.length);
      const childMessages = $derived(Object.values(this.#chat.live.children).reduce((n, c) => n + c.messages.length, 0));
      $effect(() => {
        const thread = this.#chat.threadId;
        void this.#chat.revision;
        void messages;
        void childMessages;
        if (this.#watchedThread !== undefined && this.#watchedThread !== thread) {
          this.#current = null;
          this.#entries = [];
          this.#loaded = false;
        }
        this.#watchedThread = thread;
        const timer = setTimeout(() => void this.refresh(), REFRESH_DEBOUNCE_MS);
        return () => clearTimeout(timer);
      });
    });
  }

  /** Lists the thread's files; the open file's page is reloaded when the file changed. */
  async refresh(): Promise<void> {
    const thread = this.#chat.threadId;
    const seq = ++this.#listSeq;
    this.#loading = true;
    try {
      const entries = await this.#client.listFiles(thread);
      if (seq !== this.#listSeq || thread !== this.#chat.threadId) return;
      const before = this.#entries;
      this.#entries = entries;
      this.#loaded = true;
      this.#error = null;
      this.#afterList(before, entries);
    } catch (e) {
      if (seq === this.#listSeq) this.#error = `Could not list the files: ${message(e)}`;
    } finally {
      if (seq === this.#listSeq) this.#loading = false;
    }
  }

  #afterList(before: readonly FileEntry[], after: readonly FileEntry[]): void {
    const current = this.#current;
    if (!current || current.loading || !current.page) return;
    const stamp = (list: readonly FileEntry[]) => {
      const e = list.find((f) => f.path === current.path && !f.isDir);
      return e ? `${e.size}|${e.modifiedAt ?? ""}` : undefined;
    };
    const now = stamp(after);
    if (now === undefined) {
      this.#current = { ...current, error: `${current.path} no longer exists.` };
      return;
    }
    if (now !== stamp(before) || after.find((f) => f.path === current.path)?.size !== current.page.size) {
      void this.#load(current.path, current.page.offset, false);
    }
  }

  /** Opens `path` in the viewer, at the page holding `line` (1-based) when given. */
  async open(path: string, line?: number): Promise<void> {
    const target = line !== undefined && Number.isFinite(line) && line >= 1 ? Math.floor(line) : undefined;
    const offset = target ? Math.floor((target - 1) / PAGE_LINES) * PAGE_LINES : 0;
    this.#current = { path, page: null, loading: true, error: null, ...(target ? { line: target } : {}) };
    this.reveal(path);
    await this.#load(path, offset, true);
  }

  /** Shows the page of the open file starting at line `offset` (0-based). */
  async page(offset: number): Promise<void> {
    const current = this.#current;
    if (!current) return;
    const total = current.page?.totalLines ?? 0;
    const start = Math.max(0, Math.min(Math.floor(offset), Math.max(0, total - 1)));
    this.#current = { path: current.path, page: current.page, loading: true, error: null };
    await this.#load(current.path, start, true);
  }

  /** Closes the viewer. */
  close(): void {
    this.#readSeq++;
    this.#current = null;
  }

  async #load(path: string, offset: number, showErrors: boolean): Promise<void> {
    const thread = this.#chat.threadId;
    const seq = ++this.#readSeq;
    let result: Result<FilePage>;
    try {
      result = await this.#client.readFile(thread, path, offset, PAGE_LINES);
    } catch (e) {
      result = err(toErrorInfo(e));
    }
    const current = this.#current;
    if (seq !== this.#readSeq || !current || current.path !== path) return;
    if (result.ok) this.#current = { ...current, page: result.value, loading: false, error: null };
    else if (showErrors) this.#current = { ...current, loading: false, error: result.error.message };
    else this.#current = { ...current, loading: false };
  }

  /** An image file as an object URL of its bytes, typed `type` (the caller revokes it): for the viewer's image view. */
  async imageUrl(path: string, type: string): Promise<Result<string>> {
    try {
      const bytes = await this.#client.fileBytes(this.#chat.threadId, path);
      if (!bytes.ok) return bytes;
      return ok(URL.createObjectURL(new Blob([bytes.value.slice()], { type })));
    } catch (e) {
      return err(toErrorInfo(e));
    }
  }

  /** The whole text of a file, for editing (text files up to 2 MB); `too_large` or `not_text` when it cannot be edited here. */
  async text(path: string): Promise<Result<string>> {
    try {
      const bytes = await this.#client.fileBytes(this.#chat.threadId, path);
      if (!bytes.ok) return bytes;
      if (bytes.value.length > EDIT_LIMIT) return fail("too_large", `${path} is too big to edit here (over 2 MB).`);
      return ok(new TextDecoder("utf-8", { fatal: true }).decode(bytes.value));
    } catch (e) {
      return e instanceof TypeError ? fail("not_text", `${path} is not UTF-8 text.`) : err(toErrorInfo(e));
    }
  }

  /** Writes a file (the agent sees it on its next step); the tree and the open page follow. */
  async save(path: string, content: string): Promise<Result<null>> {
    let result: Result<null>;
    try {
      result = await this.#client.writeFile(this.#chat.threadId, path, content);
    } catch (e) {
      result = err(toErrorInfo(e));
    }
    if (!result.ok) return result;
    const current = this.#current;
    if (current?.path === path) {
      const offset = current.page?.offset ?? 0;
      this.#current = { ...current, loading: true, error: null };
      await Promise.all([this.refresh(), this.#load(path, offset, true)]);
    } else {
      await this.refresh();
    }
    return result;
  }

  /** Creates a new file and opens it; refused (`invalid_path`, `already_exists`) when the path is invalid or taken. */
  async create(path: string, content = ""): Promise<Result<null>> {
    const problem = pathProblem(path);
    if (problem) return fail("invalid_path", problem);
    try {
      const taken = await this.#client.readFile(this.#chat.threadId, path, 0, 1);
      if (taken.ok || taken.error.code === "is_directory") return fail("already_exists", `${path} already exists.`);
      if (taken.error.code !== "file_not_found") return taken;
    } catch (e) {
      return err(toErrorInfo(e));
    }
    const saved = await this.save(path, content);
    if (saved.ok) await this.open(path);
    return saved;
  }

  /** Deletes a file; the viewer closes when it showed it. */
  async remove(path: string): Promise<Result<null>> {
    let result: Result<null>;
    try {
      result = await this.#client.deleteFile(this.#chat.threadId, path);
    } catch (e) {
      result = err(toErrorInfo(e));
    }
    if (!result.ok) return result;
    if (this.#current?.path === path) this.close();
    await this.refresh();
    return result;
  }

  /** Downloads one file as it is stored (bytes). */
  async download(path: string): Promise<Result<null>> {
    try {
      const bytes = await this.#client.fileBytes(this.#chat.threadId, path);
      if (!bytes.ok) return bytes;
      saveBlob(new Blob([bytes.value.slice()], { type: "application/octet-stream" }), baseName(path));
      return ok(null);
    } catch (e) {
      return err(toErrorInfo(e));
    }
  }

  /** Downloads the workspace (memories and skills not included) as deeptab-workspace.zip. */
  async downloadZip(): Promise<Result<null>> {
    try {
      const zip = await this.#client.workspaceZip(this.#chat.threadId);
      saveBlob(new Blob([zip.slice()], { type: "application/zip" }), ZIP_NAME);
      return ok(null);
    } catch (e) {
      const info = toErrorInfo(e);
      return err({ ...info, message: `Could not zip the workspace: ${info.message}` });
    }
  }
}
