/**
 * The files in graph state as the tool calls of one step see them, and the
 * step's one files update: the state's files at the start of the step plus
 * every change made since by any call of the step. Calls change it in two
 * ways:
 *
 * - Through the view ({@link StepFiles.exclusive} and {@link StepFiles.set}:
 *   StateBackend's writes). A write sees what its siblings wrote before it,
 *   so `/dir/f` and then `/dir` in one message is refused as it is on every
 *   other backend ("'/dir' is a directory"), and so is a file below one a
 *   sibling just wrote. Mutations run one at a time, in the order they reach
 *   storage, as IndexedDB's transactions do.
 * - Against the step's start ({@link StepFiles.add}: a `task` subagent works
 *   on its own copy of the files and returns its changes when it finishes).
 *   Applying such changes over a sibling's would silently keep only the
 *   last, so a path a sibling already changed is three-way merged against
 *   the step's starting version (file-merge.ts); what cannot be merged keeps
 *   the earlier version and the call is told why (step-file-notes.ts).
 *
 * Directories are implied by the files below them; the view counts the
 * files below each directory (built on first use, then kept up to date), so
 * a placement check costs O(path depth), not O(files): a message with
 * thousands of writes stays linear.
 */
import { mergeFile, sameFile } from "./file-merge.ts";
import type { FileData, FilesUpdate } from "./protocol.ts";
import type { StepFileNote } from "./step-file-notes.ts";
import { StepLedger } from "./step-ledger.ts";

/** The proper ancestors of a normalized path ("/a/b/c" → "/a", "/a/b"). */
function* ancestors(path: string): Generator<string> {
  for (let i = path.indexOf("/", 1); i !== -1; i = path.indexOf("/", i + 1)) yield path.slice(0, i);
}

export class StepFiles {
  readonly #base: Readonly<Record<string, FileData>>;
  readonly #changes = new Map<string, FileData | null>();
  /** The calls that changed each path in the step (those that said who they are). */
  readonly #by = new Map<string, string[]>();
  /** Number of live files below each directory; built on first use. */
  #below: Map<string, number> | undefined;
  /** The mutation running now, if any: mutations run one at a time. */
  #tail: Promise<unknown> = Promise.resolve();

  /** Changes the step's calls make to stores shared beyond graph state (step-ledger.ts). */
  readonly ledger: StepLedger;

  /** `parent`: the step this one runs in (a subagent's step inside its `task` call) and that call's label. */
  constructor(base: Readonly<Record<string, FileData>> | undefined, parent?: { ledger: StepLedger; call: string }) {
    this.#base = base ?? {};
    this.ledger = new StepLedger(parent);
  }

  /** The file at a normalized path, if there is one. */
  get(path: string): FileData | undefined {
    if (this.#changes.has(path)) return this.#changes.get(path) ?? undefined;
    return Object.hasOwn(this.#base, path) ? this.#base[path] : undefined;
  }

  /** Is `dir` a directory implied by some file below it? ("/" always is.) */
  isDir(dir: string): boolean {
    return dir === "/" || (this.#counts().get(dir) ?? 0) > 0;
  }

  /** Records a change made through the view: new data, or `null` for a delete; `by` names the call. */
  set(path: string, data: FileData | null, by?: string): void {
    const before = this.get(path) !== undefined;
    this.#changes.set(path, data);
    if (by !== undefined) this.#by.set(path, [...(this.#by.get(path) ?? []).filter((c) => c !== by), by]);
    const after = data !== null;
    if (this.#below && before !== after) this.#count(path, after ? 1 : -1);
  }

  /**
   * Runs one mutation (its checks and its changes) after the ones queued
   * before it, so concurrent calls never both pass a check that only one of
   * them may pass (`/dir/f` and `/dir`, or two writes of one new path).
   */
  exclusive<T>(mutation: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(mutation, mutation);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Takes the changes one call made against the step's starting files (in
   * the order calls finish) and returns a note for each path another call of
   * the step had changed too, or that no longer has its place.
   */
  add(call: string, update: FilesUpdate): Promise<StepFileNote[]> {
    return this.exclusive(() => this.#add(call, update));
  }

  async #add(call: string, update: FilesUpdate): Promise<StepFileNote[]> {
    const notes: StepFileNote[] = [];
    // Deletes first: a call that replaced the file `/a` by a directory `/a/` deleted `/a` before writing below it.
    const entries = Object.entries(update).sort(([, a], [, b]) => Number(a !== null) - Number(b !== null));
    for (const [path, ours] of entries) {
      const current = this.get(path) ?? null;
      if (sameFile(current, ours)) continue;
      const earlier = [...(this.#by.get(path) ?? [])];
      if (ours !== null && (this.isDir(path) || [...ancestors(path)].some((dir) => this.get(dir)))) {
        notes.push({ path, earlier, outcome: "placement" });
        continue;
      }
      if (!this.#changes.has(path)) {
        this.set(path, ours, call);
        continue;
      }
      const merged = await mergeFile(this.#base[path], current, ours);
      if ("data" in merged) {
        this.set(path, merged.data, call);
        notes.push({ path, earlier, outcome: "merged" });
      } else {
        notes.push({ path, earlier, outcome: merged.outcome, ...(merged.ours === undefined ? {} : { ours: merged.ours }) });
      }
    }
    return notes;
  }

  /** Every live file. */
  *entries(): Generator<[string, FileData]> {
    for (const [path, data] of Object.entries(this.#base)) if (!this.#changes.has(path)) yield [path, data];
    for (const [path, data] of this.#changes) if (data) yield [path, data];
  }

  /** Every change of the step, as one update of the `files` channel (undefined when there is none). */
  async update(): Promise<FilesUpdate | undefined> {
    await this.#tail;
    return this.#changes.size ? Object.fromEntries(this.#changes) : undefined;
  }

  #count(path: string, delta: number): void {
    const below = this.#below!;
    for (const dir of ancestors(path)) {
      const n = (below.get(dir) ?? 0) + delta;
      if (n) below.set(dir, n);
      else below.delete(dir);
    }
  }

  #counts(): Map<string, number> {
    if (!this.#below) {
      this.#below = new Map();
      for (const [path] of this.entries()) this.#count(path, 1);
    }
    return this.#below;
  }
}
