/**
 * A state channel whose value may be `undefined` (a middleware field such as
 * the summarization event, which has none until the first summary).
 *
 * LangGraph's reducer channel (`BinaryOperatorAggregate`) counts `undefined`
 * as empty, and a read of an empty channel throws an `EmptyChannelError` that
 * LangGraph catches again: several times a step (the step's output values,
 * each task's input, each read of the state), which was the largest part of
 * the harness's own cost per step in `npm run bench` beside a bare loop. Here
 * a read returns `undefined` instead, so nodes see the key with `undefined`
 * (what `StateKey.get` returns for a field whose default is `undefined`).
 * Everything else is the parent's: updates merge as before, `isAvailable()`
 * still says no, and a checkpoint still leaves the channel out.
 */
import { BinaryOperatorAggregate } from "@langchain/langgraph/web";
import { isDeltaSnapshot } from "@langchain/langgraph-checkpoint";

export class OptionalValueChannel<V, U = V> extends BinaryOperatorAggregate<V, U> {
  override fromCheckpoint(checkpoint?: V): this {
    const channel = new OptionalValueChannel<V, U>(this.operator, this.initialValueFactory);
    if (checkpoint !== undefined) channel.value = isDeltaSnapshot(checkpoint) ? (checkpoint.value as V) : checkpoint;
    return channel as this;
  }

  override get(): V {
    return this.value as V;
  }
}
