/**
 * The files panel's "new" form: a new file, the memory file (from its template) or a skill (its name gives the path
 * and fills the template until the person edits the content). What it shows comes from here; the component only
 * draws it and puts the focus on the first field each time a form opens (`openings`).
 */
import type { ErrorInfo } from "../../protocol/errors.ts";
import type { Result } from "../../core/result.ts";
import { MEMORY_PATH, MEMORY_TEMPLATE, pathProblem, skillNameProblem, skillPath, skillTemplate } from "./file-tree.ts";

/** Which file the form creates. */
export type NewFileMode = "file" | "memory" | "skill";

/** What the form needs of the files: create one, or open the one that is there already. */
export interface NewFileTarget {
  create(path: string, content: string): Promise<Result<null>>;
  open(path: string): Promise<void>;
}

export class NewFileForm {
  readonly #files: NewFileTarget;
  /** The open form, or null when none is. */
  mode: NewFileMode | null = $state(null);
  path = $state("/");
  skillName = $state("");
  content = $state("");
  /** Create was pressed: a problem shows even on an untouched field. */
  submitted = $state(false);
  /** The worker refused the file (e.g. `already_exists`). */
  error: ErrorInfo | null = $state(null);
  creating = $state(false);
  /** How often a form was opened: the component focuses the first field on each. */
  openings = $state(0);
  /** The person edited the content: a skill's name no longer rewrites it. */
  #contentTouched = false;

  constructor(files: NewFileTarget) {
    this.#files = files;
  }

  /** Where the file goes: the skill's path from its name, else the path typed. */
  readonly targetPath = $derived(this.mode === "skill" ? skillPath(this.skillName) : this.path);
  /** What is wrong with the name or path, or null. */
  readonly problem = $derived(this.mode === "skill" ? skillNameProblem(this.skillName) : pathProblem(this.path));
  /** The problem shows once the person typed something, or pressed Create. */
  readonly showProblem = $derived(this.submitted || (this.mode === "skill" ? this.skillName.length > 0 : this.path.length > 1));

  /** Opens the form for `mode`, with its starting path and template. */
  start(mode: NewFileMode): void {
    this.mode = mode;
    this.submitted = false;
    this.error = null;
    this.#contentTouched = false;
    if (mode === "file") {
      this.path = "/";
      this.content = "";
    } else if (mode === "memory") {
      this.path = MEMORY_PATH;
      this.content = MEMORY_TEMPLATE;
    } else {
      this.skillName = "";
      this.content = skillTemplate("my-skill");
    }
    this.openings++;
  }

  /** The skill's name changed: the untouched template follows it. */
  renamed(): void {
    if (!this.#contentTouched) this.content = skillTemplate(this.skillName || "my-skill");
  }

  /** The person edited the content. */
  edited(): void {
    this.#contentTouched = true;
  }

  cancel(): void {
    this.mode = null;
    this.error = null;
  }

  /** Creates the file unless the name has a problem; the form closes on success and shows the refusal otherwise. */
  async submit(): Promise<void> {
    this.submitted = true;
    this.error = null;
    if (this.problem || this.creating) return;
    this.creating = true;
    const result = await this.#files.create(this.targetPath, this.content);
    this.creating = false;
    if (result.ok) this.mode = null;
    else this.error = result.error;
  }

  /** The file is there already: close the form and open it instead. */
  async openExisting(): Promise<void> {
    const at = this.targetPath;
    this.mode = null;
    await this.#files.open(at);
  }
}
