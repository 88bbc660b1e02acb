/**
 * One run per thread at a time, in the library itself. Two concurrent runs
 * on one thread would each start from the same checkpoint and write two
 * separate chains, and the thread would keep only the later one: the earlier
 * conversation would vanish. A second run on a busy thread is refused with a
 * `thread_busy` HarnessError; it never waits silently.
 *
 * Which runs exclude each other: runs on one thread of one storage. A
 * checkpointer that names its storage ({@link SharedStorage}, as
 * IndexedDBSaver does with its database) shares the guard with every other
 * checkpointer naming the same storage: in this realm through a registry,
 * and across tabs and workers through a Web Lock (where `navigator.locks`
 * exists), requested `ifAvailable` so that a busy thread is refused rather
 * than waited for. Any other checkpointer (a MemorySaver) is its own
 * storage: agents sharing that object share the guard. Runs without a
 * checkpointer or thread id, and nested runs (a non-empty `checkpoint_ns`),
 * are not guarded.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph/web";
import { HarnessError } from "../harness/errors.ts";

/**
 * A checkpointer whose storage outlives the object and may be opened by
 * several objects, tabs or workers at once. Savers with equal `storageKey`s
 * read and write the same threads (e.g. `indexeddb:<database name>`).
 */
export interface SharedStorage {
  readonly storageKey: string;
}

const busyShared = new Map<string, Set<string>>();
const busyOwn = new WeakMap<BaseCheckpointSaver, Set<string>>();

/** What the guard needs of a compiled graph: its core iterator (used by invoke, stream and streamEvents). */
interface Streaming {
  _streamIterator(input: never, options?: never): AsyncGenerator<unknown>;
}

function threadOf(options: unknown): string | undefined {
  const conf = (options as { configurable?: Record<string, unknown> } | undefined)?.configurable;
  const id = conf?.thread_id;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  if (typeof conf?.checkpoint_ns === "string" && conf.checkpoint_ns !== "") return undefined;
  return String(id);
}

function sharedKey(checkpointer: BaseCheckpointSaver): string | undefined {
  const key = (checkpointer as Partial<SharedStorage>).storageKey;
  return typeof key === "string" && key !== "" ? key : undefined;
}

function runningSet(checkpointer: BaseCheckpointSaver, key: string | undefined): Set<string> {
  let running = key === undefined ? busyOwn.get(checkpointer) : busyShared.get(key);
  if (!running) {
    running = new Set();
    if (key === undefined) busyOwn.set(checkpointer, running);
    else busyShared.set(key, running);
  }
  return running;
}

/** The Web Lock name of a thread of a shared storage. */
export function runLockName(storageKey: string, thread: string): string {
  return `deeptab-run:${storageKey}:${thread}`;
}

function webLocks(): LockManager | undefined {
  return typeof navigator !== "undefined" && navigator.locks ? navigator.locks : undefined;
}

/**
 * Takes the Web Lock `name` if it is free: resolves to its release, or to
 * undefined when another context holds it. Without Web Locks, a no-op release.
 */
function takeLock(name: string): Promise<(() => void) | undefined> {
  const locks = webLocks();
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(undefined);
          return undefined;
        }
        // Held until the run releases it.
        return new Promise<void>((release) => resolve(release));
      })
      .catch(reject);
  });
}

function busyError(thread: string): HarnessError {
  return new HarnessError(
    "thread_busy",
    `Thread ${thread} already has a run in progress; wait for it to finish (or cancel it) before starting another.`,
  );
}

/** Makes `graph` refuse a second concurrent run of a thread; returns the graph. */
export function oneRunPerThread<G extends Streaming>(graph: G, checkpointer: BaseCheckpointSaver | undefined): G {
  if (!checkpointer) return graph;
  const original = graph._streamIterator.bind(graph) as (input: unknown, options?: unknown) => AsyncGenerator<unknown>;
  const guarded = async function* (input: unknown, options?: unknown): AsyncGenerator<unknown> {
    const thread = threadOf(options);
    if (thread === undefined) {
      yield* original(input, options);
      return;
    }
    const key = sharedKey(checkpointer);
    const running = runningSet(checkpointer, key);
    if (running.has(thread)) throw busyError(thread);
    running.add(thread);
    try {
      const release = key === undefined ? () => {} : await takeLock(runLockName(key, thread));
      if (!release) throw busyError(thread);
      try {
        yield* original(input, options);
      } finally {
        release();
      }
    } finally {
      running.delete(thread);
      if (key !== undefined && running.size === 0) busyShared.delete(key);
    }
  };
  Object.defineProperty(graph, "_streamIterator", { value: guarded, configurable: true, writable: true });
  return graph;
}
