/**
 * The files in graph state as the tool calls of one step see them: the
 * state's files at the start of the step plus every change made since by
 * any call of the step. The calls of one AI message run concurrently, but
 * through this shared view a write sees what its siblings wrote before it,
 * so `/dir/f` and then `/dir` in one message is refused as it is on every
 * other backend ("'/dir' is a directory"), and so is a file below one a
 * sibling just wrote. Mutations run one at a time ({@link StepFiles.exclusive}),
 * in the order they reach storage, as IndexedDB's transactions do.
 *
 * Directories are implied by the files below them; the view counts the
 * files below each directory (built on first use, then kept up to date), so
 * a placement check costs O(path depth), not O(files): a message with
 * thousands of writes stays linear.
 */
import type { FileData } from "./protocol.ts";

/** The proper ancestors of a normalized path ("/a/b/c" → "/a", "/a/b"). */
function* ancestors(path: string): Generator<string> {
  for (let i = path.indexOf("/", 1); i !== -1; i = path.indexOf("/", i + 1)) yield path.slice(0, i);
}

export class StepFiles {
  readonly #base: Readonly<Record<string, FileData>>;
  readonly #changes = new Map<string, FileData | null>();
  /** Number of live files below each directory; built on first use. */
  #below: Map<string, number> | undefined;
  /** The mutation running now, if any: mutations run one at a time. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(base: Readonly<Record<string, FileData>>) {
    this.#base = base;
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

  /** Records a change: new data, or `null` for a delete. */
  set(path: string, data: FileData | null): void {
    const before = this.get(path) !== undefined;
    this.#changes.set(path, data);
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

  /** Every live file. */
  *entries(): Generator<[string, FileData]> {
    for (const [path, data] of Object.entries(this.#base)) if (!this.#changes.has(path)) yield [path, data];
    for (const [path, data] of this.#changes) if (data) yield [path, data];
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
