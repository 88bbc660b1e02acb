import { EmptyChannelError } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { OptionalValueChannel } from "./optional-channel.ts";

describe("OptionalValueChannel", () => {
  const sum = (a: number, b: number) => a + b;

  it("reads undefined without throwing, and is otherwise LangGraph's reducer channel", () => {
    const channel = new OptionalValueChannel<number | undefined, number>(
      (a, b) => sum(a ?? 0, b),
      () => undefined,
    );
    expect(channel.get()).toBeUndefined();
    expect(channel.isAvailable()).toBe(false);
    // An empty channel stays out of checkpoints, as before.
    expect(() => channel.checkpoint()).toThrow(EmptyChannelError);
    // The first update replaces the missing value; later ones go through the reducer.
    expect(channel.update([2, 3])).toBe(true);
    expect([channel.get(), channel.isAvailable(), channel.checkpoint()]).toEqual([5, true, 5]);
  });

  it("restores from a checkpoint as itself, empty or with a value", () => {
    const channel = new OptionalValueChannel<number | undefined, number>(
      (a, b) => sum(a ?? 0, b),
      () => undefined,
    );
    const empty = channel.fromCheckpoint(undefined);
    expect(empty).toBeInstanceOf(OptionalValueChannel);
    expect(empty.get()).toBeUndefined();
    const restored = channel.fromCheckpoint(7);
    expect(restored).toBeInstanceOf(OptionalValueChannel);
    expect(restored.get()).toBe(7);
  });
});
