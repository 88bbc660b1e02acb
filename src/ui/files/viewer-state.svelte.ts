/**
 * The file viewer's state over the open file (`files.current`): what the page shows (its line range, whether it is
 * one page of many, why it cannot be edited), the modes (Markdown preview, editing with a draft), the delete
 * confirmation, the action under way, the status line and the last problem. Opening another file leaves the modes
 * (`follow`). The component draws it and keeps the DOM's part: scrolling to a line, focusing the editor.
 */
import { copyText } from "../shared/clipboard.ts";
import { languageForPath } from "../shared/highlight.ts";
import { formatSize, isMarkdown } from "./file-tree.ts";
import { EDIT_LIMIT, PAGE_LINES, type OpenFile, type ViewerFiles } from "./files.svelte.ts";

/** The action under way, if any. */
export type ViewerBusy = "edit" | "save" | "delete" | "download";

const fmt = (n: number) => n.toLocaleString("en-US");

export class FileViewerState {
  readonly #files: () => ViewerFiles;
  preview = $state(false);
  editing = $state(false);
  draft = $state("");
  busy: ViewerBusy | null = $state(null);
  status = $state("");
  problem: string | null = $state(null);
  confirming = $state(false);
  /** The path the modes belong to. */
  #shownPath = "";

  /** `files` gives the files shown now (a getter: the component's prop may change). */
  constructor(files: () => ViewerFiles) {
    this.#files = files;
  }

  /** The open file, or null. */
  get current(): OpenFile | null {
    return this.#files().current;
  }
  readonly path = $derived(this.current?.path ?? "");
  readonly page = $derived(this.current?.page ?? null);
  readonly size = $derived(this.page?.size ?? this.#entrySize(this.path));
  readonly markdown = $derived(isMarkdown(this.path));
  readonly language = $derived(languageForPath(this.path));
  /** The 1-based numbers of the page's first and last lines. */
  readonly firstLine = $derived(this.page ? this.page.offset + 1 : 1);
  readonly lastLine = $derived(this.page ? this.page.offset + this.page.lines.length : 0);
  /** The page holds only part of the file's lines. */
  readonly paged = $derived(!!this.page && this.page.totalLines > this.page.lines.length);
  /** Why Edit is off, or null when the file can be edited. */
  readonly editReason = $derived(
    !this.page
      ? "The file is still loading."
      : this.page.binary
        ? "Binary files cannot be edited here."
        : this.page.size > EDIT_LIMIT
          ? `Files over 2 MB cannot be edited here (this one is ${formatSize(this.page.size)}); download it instead.`
          : null,
  );

  #entrySize(path: string): number {
    return this.#files().entry(path)?.size ?? 0;
  }

  /** The file shown is `path`: another file than before leaves preview, editing, the confirmation and the messages. */
  follow(path: string): void {
    if (path === this.#shownPath) return;
    this.#shownPath = path;
    this.preview = false;
    this.editing = false;
    this.confirming = false;
    this.status = "";
    this.problem = null;
  }

  /** The page before or after the one shown. */
  loadMore(direction: "previous" | "next"): void {
    const page = this.page;
    if (!page) return;
    void this.#files().page(direction === "next" ? page.offset + page.lines.length : Math.max(0, page.offset - PAGE_LINES));
  }

  /** Copies the page's text; the status says when that is only part of the file. */
  async copy(): Promise<void> {
    const page = this.page;
    if (!page) return;
    const copied = await copyText(page.lines.join("\n"));
    this.status = !copied
      ? "Could not copy: the browser refused clipboard access."
      : this.paged
        ? `Copied lines ${fmt(this.firstLine)}–${fmt(this.lastLine)} only (this page; the file has ${fmt(page.totalLines)} lines). ` +
          "Download it for the whole file."
        : "Copied the file.";
  }

  async download(): Promise<void> {
    this.busy = "download";
    const result = await this.#files().download(this.path);
    this.busy = null;
    this.problem = result.ok ? null : result.error.message;
  }

  /** Reads the whole file into the draft and starts editing; true when editing started. */
  async startEdit(): Promise<boolean> {
    if (this.editReason) return false;
    this.busy = "edit";
    this.problem = null;
    const text = await this.#files().text(this.path);
    this.busy = null;
    if (!text.ok) {
      this.problem = text.error.message;
      return false;
    }
    this.draft = text.value;
    this.editing = true;
    this.preview = false;
    this.status = "";
    return true;
  }

  /** Saves the draft (once at a time) and leaves editing, or keeps editing and shows why it failed. */
  async save(): Promise<void> {
    if (this.busy) return;
    this.busy = "save";
    this.problem = null;
    const files = this.#files();
    const result = await files.save(this.path, this.draft);
    this.busy = null;
    if (result.ok) {
      this.editing = false;
      this.status = files.savedNote ?? "Saved. The agent sees the change on its next step.";
    } else {
      this.problem = result.error.message;
    }
  }

  /** Deletes the file after the confirmation; true when it is gone (the viewer then closes). */
  async remove(): Promise<boolean> {
    this.confirming = false;
    this.busy = "delete";
    const result = await this.#files().remove(this.path);
    this.busy = null;
    if (!result.ok) this.problem = result.error.message;
    return result.ok;
  }
}
