/**
 * interrupt.ts relies on LangGraph internals (the per-task scratchpad and the
 * send function in `config.configurable`). package.json pins
 * @langchain/langgraph to the minor range this was tested with; these tests
 * fail loudly, naming what changed, if an upgrade moves those internals.
 */
import { Annotation, Command, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { interruptWithConfig } from "./interrupt.ts";

const State = Annotation.Root({ answer: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }) });

describe("the LangGraph internals interruptWithConfig relies on", () => {
  it("are pinned to a minor range in package.json", () => {
    expect(pkg.dependencies["@langchain/langgraph"]).toMatch(/^~1\.7\./);
  });

  it("give a node's config the scratchpad and send function, with the fields interruptWithConfig reads", async () => {
    let seen: Record<string, unknown> | undefined;
    const graph = new StateGraph(State)
      .addNode("inspect", (_s: typeof State.State, config: LangGraphRunnableConfig) => {
        seen = config.configurable;
        return {};
      })
      .addEdge(START, "inspect")
      .compile({ checkpointer: new MemorySaver() });
    await graph.invoke({}, { configurable: { thread_id: "internals" } });
    const scratchpad = seen?.__pregel_scratchpad as Record<string, unknown> | undefined;
    expect(scratchpad, "LangGraph no longer puts __pregel_scratchpad in a node's config").toBeDefined();
    expect(typeof scratchpad!.interruptCounter, "scratchpad.interruptCounter changed").toBe("number");
    expect(Array.isArray(scratchpad!.resume), "scratchpad.resume changed").toBe(true);
    expect(typeof scratchpad!.consumeNullResume, "scratchpad.consumeNullResume changed").toBe("function");
    expect(typeof seen!.__pregel_send, "__pregel_send changed").toBe("function");
    expect(seen!.__pregel_checkpointer, "__pregel_checkpointer changed").toBeDefined();
  });

  it("pause a node and hand it the resume value, as interrupt() does", async () => {
    const graph = new StateGraph(State)
      .addNode("ask", (_s: typeof State.State, config: LangGraphRunnableConfig) => ({
        answer: interruptWithConfig<string>({ question: "ok?" }, config),
      }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "pause" } };
    const paused = (await graph.invoke({}, config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(paused.__interrupt__?.[0]?.value).toEqual({ question: "ok?" });
    const done = await graph.invoke(new Command({ resume: "yes" }), config);
    expect(done.answer).toBe("yes");
  });

  it("with a check, refuse a resume value without taking or recording it: the pause stays for a good one", async () => {
    const graph = new StateGraph(State)
      .addNode("ask", (_s: typeof State.State, config: LangGraphRunnableConfig) => ({
        answer: interruptWithConfig<string>({ question: "ok?" }, config, (v) => (v === "yes" || v === "no" ? undefined : "say yes or no")),
      }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "checked" } };
    await graph.invoke({}, config);
    await expect(graph.invoke(new Command({ resume: "maybe" }), config)).rejects.toMatchObject({ code: "invalid_decision" });
    await expect(graph.invoke(new Command({ resume: 42 }), config)).rejects.toThrow("say yes or no");
    const state = await graph.getState(config);
    expect(state.tasks.flatMap((t) => t.interrupts).map((i) => i.value)).toEqual([{ question: "ok?" }]);
    const done = await graph.invoke(new Command({ resume: "no" }), config);
    expect(done.answer).toBe("no");
  });
});
