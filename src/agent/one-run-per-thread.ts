/**
 * One run per thread at a time, in the library itself. Two concurrent runs
 * on one thread would each start from the same checkpoint and write two
 * separate chains, and the thread would keep only the later one: the earlier
 * conversation would vanish. A second run on a busy thread is refused with a
 * `thread_busy` HarnessError; it never waits silently.
 *
 * Threads are told apart per checkpointer (two agents sharing a
 * checkpointer share the guard). Runs without a checkpointer or thread id,
 * and nested runs (a non-empty `checkpoint_ns`), are not guarded.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph/web";
import { HarnessError } from "../harness/errors.ts";

const busy = new WeakMap<BaseCheckpointSaver, Set<string>>();

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
    let running = busy.get(checkpointer);
    if (!running) busy.set(checkpointer, (running = new Set()));
    if (running.has(thread)) {
      throw new HarnessError(
        "thread_busy",
        `Thread ${thread} already has a run in progress; wait for it to finish (or cancel it) before starting another.`,
      );
    }
    running.add(thread);
    try {
      yield* original(input, options);
    } finally {
      running.delete(thread);
    }
  };
  Object.defineProperty(graph, "_streamIterator", { value: guarded, configurable: true, writable: true });
  return graph;
}
