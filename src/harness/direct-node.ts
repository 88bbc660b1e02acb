/**
 * The harness's graph nodes and edge conditions as Runnables of their own (LangGraph would wrap each function in its
 * RunnableCallable).
 *
 * LangGraph's wrapper runs every node inside `AsyncLocalStorageProviderSingleton.runWithConfig`, which configures a
 * CallbackManager and builds a LangSmith `RunTree` (a uuid7 from `crypto.getRandomValues`, a dotted order, a client,
 * environment reads) to hold the node's config where `getConfig()`, `interrupt()` and `getWriter()` find it. Where
 * there is no AsyncLocalStorage (browsers, workers: LangChain's mock, whose store is always empty) nothing can read
 * it, and the harness never does: it hands each node's `config` explicitly to every hook, tool and model call
 * (harness/interrupt.ts). So a node here calls its function directly when the storage is the mock, and goes through
 * `runWithConfig` as LangGraph's wrapper does otherwise (Node with an AsyncLocalStorage, where a custom middleware may
 * call those functions). Callbacks are untouched: the node's config carries the run's handlers (streamed tokens,
 * token usage) to the model and tool calls as before. An edge condition, which LangGraph would make a RunnableLambda,
 * no longer reports a chain run of its own to the callbacks (nothing of deeptab listens for one; a tracer or
 * `streamEvents()` would no longer list the routing function).
 */
import { Runnable, type RunnableConfig } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton, MockAsyncLocalStorage } from "@langchain/core/singletons";
import type { LangGraphRunnableConfig } from "@langchain/langgraph/web";

/** Whether an AsyncLocalStorage is installed (LangChain falls back to its mock, which stores nothing, without one). */
function hasAsyncLocalStorage(): boolean {
  return !(AsyncLocalStorageProviderSingleton.getInstance() instanceof MockAsyncLocalStorage);
}

/** A node or edge condition `fn` as a Runnable named `name`, for StateGraph's `addNode` and `addConditionalEdges`. */
export class DirectNode<I, O> extends Runnable<I, O> {
  lc_namespace = ["deeptab", "harness"];

  constructor(
    readonly fn: (input: I, config: LangGraphRunnableConfig) => O | Promise<O>,
    name: string,
  ) {
    super();
    this.name = name;
  }

  override async invoke(input: I, options?: Partial<RunnableConfig>): Promise<O> {
    const config = (options ?? {}) as LangGraphRunnableConfig;
    if (!hasAsyncLocalStorage()) return this.fn(input, config);
    return (await AsyncLocalStorageProviderSingleton.runWithConfig(config, async () => this.fn(input, config))) as O;
  }
}
