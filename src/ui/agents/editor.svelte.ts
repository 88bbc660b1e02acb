/**
 * Editing an agent in the app: its folder's files (agent.yaml, AGENTS.md, agents/*.md, skills/**, files/**) listed in
 * the side panel and opened in the file viewer (file-viewer.svelte: Edit, Save, Delete), each save sent whole to the
 * worker (`saveAgentEdit`), which validates the entire folder with the loader before it stores anything. A valid save
 * is a new local version; the editor follows it (the next save builds on it), the gallery lists it, and the shown
 * thread takes it while it has no messages (a thread that ran keeps the version it ran with). A refused save leaves
 * the text typed where it is and says every problem, each naming its file and field.
 */
import { toErrorInfo } from "../../core/errors.ts";
import { err, fail, ok, type Result } from "../../core/result.ts";
import type { AgentClient } from "../../page/client.ts";
import type { AgentError, AgentResult, ErrorInfo } from "../../protocol/errors.ts";
import type { AgentFileChange, AgentFolderView, AgentSummary } from "../../protocol/agents.ts";
import type { OpenFile, ViewerFiles } from "../files/files.svelte.ts";
import { saveBlob } from "../files/files.svelte.ts";
import { baseName } from "../files/file-tree.ts";

/** What the editor tells the agents' state after a save (the list and the shown thread follow). */
export type OnAgentSaved = (from: string, saved: AgentSummary) => Promise<void>;

/** The kinds of file a person adds from the editor, each with a starting text the loader accepts. */
export const NEW_FILE_KINDS = {
  subagent: { label: "Subagent", path: (name: string) => `agents/${name}.md` },
  skill: { label: "Skill", path: (name: string) => `skills/${name}/SKILL.md` },
  file: { label: "Starter file", path: (name: string) => `files/${name}` },
} as const;
export type NewFileKind = keyof typeof NEW_FILE_KINDS;

/** The text a new file of this kind starts with (a subagent and a skill need a name and a description). */
function newFileText(kind: NewFileKind, name: string): string {
  const stem = name.replace(/\.md$/, "");
  if (kind === "subagent")
    return `---\nname: ${stem}\ndescription: What ${stem} does, for the main agent to decide when to call it.\n---\nYou are ${stem}.\n`;
  if (kind === "skill") return `---\nname: ${stem}\ndescription: When to use ${stem}.\n---\n# ${stem}\n\nSteps:\n`;
  return "";
}

/** A refused save as text: every problem on its own line, each starting with its file (and field and line). */
function saveProblemText(error: AgentError | ErrorInfo): string {
  const problems = "problems" in error ? (error.problems ?? []) : [];
  if (problems.length === 0) return error.message;
  const n = problems.length;
  return [
    `Not saved: the agent would be invalid (${n} problem${n === 1 ? "" : "s"}); nothing was stored.`,
    ...problems.map((p) => `• ${p.message}`),
  ].join("\n");
}

export class AgentEditor implements ViewerFiles {
  readonly #client: AgentClient;
  readonly #onSaved: OnAgentSaved;
  #folder: AgentFolderView | null = $state.raw(null);
  #current: OpenFile | null = $state.raw(null);
  #error: string | null = $state.raw(null);
  #working = $state.raw(false);
  #openings = $state.raw(0);

  readonly savedNote = "Saved as a new version: new threads use it; threads that already ran keep the version they ran with.";

  constructor(client: AgentClient, onSaved: OnAgentSaved) {
    this.#client = client;
    this.#onSaved = onSaved;
  }

  /** The agent being edited (the version the next save builds on), or null when the editor is closed. */
  get agent(): AgentSummary | null {
    return this.#folder?.summary ?? null;
  }
  get files(): AgentFolderView["files"] {
    return this.#folder?.files ?? [];
  }
  get current(): OpenFile | null {
    return this.#current;
  }
  /** Why opening or the last add failed. */
  get error(): string | null {
    return this.#error;
  }
  get working(): boolean {
    return this.#working;
  }
  /** How many times `edit` opened an agent (the page shows the side panel on each). */
  get openings(): number {
    return this.#openings;
  }

  /** Opens an agent's folder in the editor (its AGENTS.md shown when it has one). */
  async edit(agentId: string): Promise<Result<null>> {
    this.#error = null;
    const loaded = await this.#call(() => this.#client.agentFolder(agentId));
    if (!loaded.ok) {
      this.#error = loaded.error.message;
      return loaded;
    }
    this.#folder = loaded.value;
    this.#current = null;
    this.#openings++;
    const first = loaded.value.files.find((f) => f.path === "AGENTS.md") ?? loaded.value.files[0];
    if (first) this.open(first.path);
    return ok(null);
  }

  close(): void {
    this.#folder = null;
    this.#current = null;
    this.#error = null;
  }

  /** Shows a file of the folder in the viewer. */
  open(path: string): void {
    const file = this.files.find((f) => f.path === path);
    if (!file) return;
    const lines = file.text === undefined ? [] : file.text.split("\n");
    this.#current = {
      path,
      page: { path, lines, offset: 0, totalLines: lines.length, binary: file.text === undefined, size: file.size },
      loading: false,
      error: null,
    };
  }

  /** Closes the open file (back to the folder's list). */
  closeFile(): void {
    this.#current = null;
  }

  entry(path: string): { size: number } | undefined {
    return this.files.find((f) => f.path === path);
  }

  /** The whole folder is in memory: one page holds every line. */
  async page(): Promise<void> {}

  async text(path: string): Promise<Result<string>> {
    const file = this.entry(path) as AgentFolderView["files"][number] | undefined;
    if (!file) return fail("not_found", `${path} is not in the agent's folder.`);
    return file.text === undefined ? fail("not_text", `${path} is not UTF-8 text.`) : ok(file.text);
  }

  /** An agent folder's pages never show an image (they carry no `image` type): nothing to read. */
  async imageUrl(path: string): Promise<Result<string>> {
    return fail("not_text", `${path} is not shown as an image in the agent editor.`);
  }

  async save(path: string, content: string): Promise<Result<null>> {
    return this.#apply([{ path, text: content }], path);
  }

  async remove(path: string): Promise<Result<null>> {
    return this.#apply([{ path, remove: true }]);
  }

  async download(path: string): Promise<Result<null>> {
    const text = await this.text(path);
    if (!text.ok) return text;
    saveBlob(new Blob([text.value], { type: "text/plain" }), baseName(path));
    return ok(null);
  }

  /** Adds a file of a kind (a subagent, a skill, a starter file) with a starting text, saved at once, and opens it. */
  async add(kind: NewFileKind, name: string): Promise<Result<null>> {
    this.#error = null;
    const clean = name.trim();
    if (!clean) return this.#refuse(`Give the new ${NEW_FILE_KINDS[kind].label.toLowerCase()} a name.`);
    const path = NEW_FILE_KINDS[kind].path(clean);
    if (this.entry(path)) return this.#refuse(`${path} already exists.`);
    const added = await this.#apply([{ path, text: newFileText(kind, clean) }], path);
    if (!added.ok) this.#error = added.error.message;
    return added;
  }

  #refuse(message: string): Result<null> {
    this.#error = message;
    return fail("invalid_path", message);
  }

  async #apply(changes: AgentFileChange[], show?: string): Promise<Result<null>> {
    const from = this.#folder?.summary.id;
    if (!from) return fail("not_found", "No agent is open in the editor.");
    const saved = await this.#call(() => this.#client.saveAgentEdit(from, changes));
    if (!saved.ok) return err({ ...saved.error, message: saveProblemText(saved.error) });
    const folder = await this.#call(() => this.#client.agentFolder(saved.value.id));
    if (!folder.ok) return folder;
    this.#folder = folder.value;
    if (show) this.open(show);
    else this.#current = null;
    await this.#onSaved(from, saved.value);
    return ok(null);
  }

  async #call<T>(call: () => Promise<AgentResult<T>>): Promise<Result<T, AgentError | ErrorInfo>> {
    this.#working = true;
    try {
      return await call();
    } catch (error) {
      return err(toErrorInfo(error));
    } finally {
      this.#working = false;
    }
  }
}
