/**
 * A checkpointer and a store whose target is set after the graph is built.
 *
 * LangGraph's server assigns its own checkpointer and store to a graph it loads (`graph.checkpointer = …`), but
 * deeptab's subagents are graphs of their own, compiled when the agent is built, that keep their threads in the
 * checkpointer they were given (a child's approval pauses in the child's thread). They are given these stand-ins, and
 * the server's assignment to the main graph sets the target of every one (`attachLateStorage`), so a subagent's
 * thread lives where the main thread does. Pinned to PostgreSQL (`npm run serve`), the stand-ins ignore the server's
 * assignment: everything stays in PostgreSQL whatever the server holds in memory.
 */
import { BaseStore, type Operation, type OperationResults } from "@langchain/langgraph/web";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";

function missing(what: string): Error {
  return new Error(`deeptab server: no ${what} yet (the graph runs only under LangGraph's server, which provides one).`);
}

/** A checkpointer that forwards every call to `target`. */
export class LateSaver extends BaseCheckpointSaver {
  target: BaseCheckpointSaver | undefined;
  /** Set when the target was chosen by deeptab (PostgreSQL): the server's assignment is then ignored. */
  pinned = false;

  constructor(target?: BaseCheckpointSaver) {
    super();
    this.target = target;
    this.pinned = target !== undefined;
  }

  private need(): BaseCheckpointSaver {
    if (!this.target) throw missing("checkpointer");
    return this.target;
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.need().getTuple(config);
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    yield* this.need().list(config, options);
  }

  put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, versions: ChannelVersions): Promise<RunnableConfig> {
    return this.need().put(config, checkpoint, metadata, versions);
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return this.need().putWrites(config, writes, taskId);
  }

  deleteThread(threadId: string): Promise<void> {
    return this.need().deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.need().getNextVersion(current);
  }
}

/** A store that forwards every call to `target`. */
export class LateStore extends BaseStore {
  target: BaseStore | undefined;
  pinned = false;

  constructor(target?: BaseStore) {
    super();
    this.target = target;
    this.pinned = target !== undefined;
  }

  private need(): BaseStore {
    if (!this.target) throw missing("store");
    return this.target;
  }

  batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    return this.need().batch(operations);
  }
}

/**
 * Makes `graph.checkpointer = x` and `graph.store = y` (what LangGraph's server does to a graph it runs) set the
 * targets of `saver` and `store` unless they are pinned; the graph itself always keeps the stand-ins.
 */
export function attachLateStorage(graph: object, saver: LateSaver, store: LateStore): void {
  Object.defineProperty(graph, "checkpointer", {
    configurable: true,
    enumerable: true,
    get: () => saver,
    set: (value: unknown) => {
      if (!saver.pinned && value instanceof BaseCheckpointSaver && value !== saver) saver.target = value;
    },
  });
  Object.defineProperty(graph, "store", {
    configurable: true,
    enumerable: true,
    get: () => store,
    set: (value: unknown) => {
      if (!store.pinned && value instanceof BaseStore && value !== store) store.target = value;
    },
  });
}
