/**
 * The storage port under {@link FileBackend}: the few operations every file
 * store provides (graph state, a LangGraph BaseStore, IndexedDB, the shell's
 * in-memory files). A store keeps whole files ({@link FileData}) by
 * normalized absolute path; directories are implied by the paths below them.
 *
 * Contract:
 * - `get` and `snapshot` never see a mutation half-applied.
 * - `mutate` runs `body` as one atomic unit: every `put`/`delete` it made is
 *   applied, or (when `body` or the store fails) none is. Reads through the
 *   `FileTx` see the unit's own earlier writes, and units of one store are
 *   isolated from each other: two units changing one file (parallel
 *   subagents editing it) run one after the other, each seeing the other's
 *   result, never both from the same old version (a lost update).
 * - Stores throw only for an unavailable medium (e.g. IndexedDB refusing to
 *   open or out of quota); expected failures are decided by FileBackend.
 * - A unit marked `once` is one tool call's effect. A store whose files live
 *   apart from the checkpoint (IndexedDB) and that knows the call
 *   ({@link CallIdentity}) records the unit's result in the unit itself, and
 *   when the same call runs the unit again (its step re-run after a fault:
 *   a sibling's quota error, a checkpoint that failed to save) returns that
 *   result without running `body`. So a call's effect and its result agree
 *   whether or not the step's checkpoint was saved. Stores whose files live
 *   in the checkpoint (graph state) or only in memory ignore it.
 */
import type { FileData } from "./protocol.ts";

/** A stored file and its size in bytes. */
export interface StoredFile {
  readonly data: FileData;
  readonly size: number;
}

/** A consistent read view of every file of a store. */
export interface FileSnapshot {
  get(path: string): StoredFile | undefined;
  entries(): Iterable<readonly [string, StoredFile]>;
  /** Is `dir` a directory implied by some stored path below it? ("/" always is.) */
  isDir(dir: string): boolean;
}

/** What a mutation may do inside its unit. */
export interface FileTx {
  get(path: string): Promise<FileData | undefined>;
  /** Is `dir` a directory implied by some stored path below it? ("/" always is.) */
  isDir(dir: string): Promise<boolean>;
  /** The stored files strictly below `dir`, at every depth, sorted (what a recursive delete removes). */
  below(dir: string): Promise<string[]>;
  put(path: string, data: FileData): Promise<void>;
  delete(path: string): Promise<void>;
}

export interface FileStore {
  /** One file, without loading the others. */
  get(path: string): Promise<StoredFile | undefined>;
  /** Every file, for listing and searching. */
  snapshot(): Promise<FileSnapshot>;
  /** One atomic mutation (see the module contract). `what` names it in storage errors (and, with `once`, in the call's record). */
  mutate<T>(what: string, body: (tx: FileTx) => Promise<T>, options?: MutateOptions): Promise<T>;
}

export interface MutateOptions {
  /** The unit is the effect of the tool call the store serves: done once per call (see the module contract). */
  readonly once?: boolean;
}

/** The paths strictly below `dir` among `paths`, sorted. */
export function pathsBelow(paths: Iterable<string>, dir: string): string[] {
  const prefix = dir === "/" ? "/" : dir + "/";
  const out: string[] = [];
  for (const path of paths) if (path.startsWith(prefix) && path !== dir) out.push(path);
  return out.sort();
}

/** A snapshot over a map of files (the stores that keep or load everything). */
export function mapSnapshot(files: ReadonlyMap<string, StoredFile>): FileSnapshot {
  return {
    get: (path) => files.get(path),
    entries: () => files.entries(),
    isDir: (dir) => {
      if (dir === "/") return true;
      const prefix = dir + "/";
      for (const path of files.keys()) if (path.startsWith(prefix)) return true;
      return false;
    },
  };
}

/**
 * A mutation unit over staged changes: reads see `base` plus what the unit
 * wrote; `commit` receives the changes in order once `body` succeeded.
 * Stores without transactions of their own (graph state, a BaseStore) apply
 * the staged changes in one step, so a failing body writes nothing.
 */
export async function stagedMutation<T>(
  base: Pick<FileTx, "get" | "isDir" | "below">,
  body: (tx: FileTx) => Promise<T>,
  commit: (changes: ReadonlyMap<string, FileData | null>) => Promise<void> | void,
): Promise<T> {
  const staged = new Map<string, FileData | null>();
  const tx: FileTx = {
    async get(path) {
      if (staged.has(path)) return staged.get(path) ?? undefined;
      return base.get(path);
    },
    async isDir(dir) {
      if (dir === "/") return true;
      const prefix = dir + "/";
      for (const [path, data] of staged) if (data && path.startsWith(prefix)) return true;
      // Deletes staged by this unit are not subtracted: FileBackend never asks after deleting.
      return base.isDir(dir);
    },
    async below(dir) {
      const found = new Set(await base.below(dir));
      for (const [path, data] of staged) {
        if (data) found.add(path);
        else found.delete(path);
      }
      return pathsBelow(found, dir);
    },
    async put(path, data) {
      staged.set(path, data);
    },
    async delete(path) {
      staged.set(path, null);
    },
  };
  const result = await body(tx);
  if (staged.size) await commit(staged);
  return result;
}

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Runs `body` once every earlier `exclusive` call with the same `owner` and
 * `key` has settled: a lock for stores whose medium has no transactions of
 * its own (a Map, a LangGraph BaseStore), so a unit's reads and its commit
 * are not interleaved with another unit's. With `lockName` and Web Locks
 * (browsers, workers), the lock is `navigator.locks`' and spans every tab and
 * worker of the origin.
 */
export function exclusive<T>(owner: object, key: string, body: () => Promise<T>, lockName?: string): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (lockName && locks) return locks.request(lockName, body);
  let byKey = queues.get(owner);
  if (!byKey) queues.set(owner, (byKey = new Map()));
  const previous = byKey.get(key) ?? Promise.resolve();
  const run = previous.then(body, body);
  const tail = run.catch(() => undefined);
  byKey.set(key, tail);
  void tail.then(() => {
    if (byKey.get(key) === tail) byKey.delete(key);
  });
  return run;
}
