/**
 * The files panel's own state, beside the files themselves (FilesState): the "new" form, the workspace zip's
 * progress and outcome, and the folders whose every child is shown (a folder shows its first `FOLDER_LIMIT`).
 */
import { SvelteSet } from "svelte/reactivity";
import type { Result } from "../../core/result.ts";
import { NewFileForm, type NewFileTarget } from "./new-file.svelte.ts";

/** Children shown per folder before "Show all". */
export const FOLDER_LIMIT = 300;

/** What the panel needs of the files besides the form's part. */
export interface PanelFiles extends NewFileTarget {
  downloadZip(): Promise<Result<null>>;
}

export class FilesPanelState {
  readonly #files: PanelFiles;
  readonly form: NewFileForm;
  zipping = $state(false);
  /** The zip's outcome, for the status line. */
  notice: string | null = $state(null);
  /** Folders whose every child is shown. */
  readonly #showAll = new SvelteSet<string>();

  constructor(files: PanelFiles) {
    this.#files = files;
    this.form = new NewFileForm(files);
  }

  /** The children of `owner` to draw: the first FOLDER_LIMIT, or all once "Show all" was pressed. */
  shownOf<T>(list: readonly T[], owner: string): readonly T[] {
    return list.length > FOLDER_LIMIT && !this.#showAll.has(owner) ? list.slice(0, FOLDER_LIMIT) : list;
  }

  /** "Show all" on `owner`. */
  expandAll(owner: string): void {
    this.#showAll.add(owner);
  }

  /** Downloads the workspace as a zip, and says how it went. */
  async zip(): Promise<void> {
    this.zipping = true;
    this.notice = null;
    const result = await this.#files.downloadZip();
    this.zipping = false;
    this.notice = result.ok ? "Workspace zip downloaded." : result.error.message;
  }
}
