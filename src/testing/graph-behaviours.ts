/**
 * IndexedDBSaver as the checkpointer of a real `@langchain/langgraph/web`
 * graph: resume from a fresh instance, history, forks. Run in Node and in
 * Chromium. Test-only; imported by the *.test.ts files.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import type { SaverHarness } from "./saver-behaviours.ts";

export function graphBehaviours({ name }: SaverHarness): void {
  const dbName = `graph-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  describe(`IndexedDBSaver in a LangGraph graph (${name})`, () => {
    const savers: IndexedDBSaver[] = [];
    afterEach(async () => {
      await Promise.all(savers.splice(0).map((s) => s.close()));
    });

    function toolLoop(checkpointer: IndexedDBSaver | MemorySaver, steps: number) {
      let calls = 0;
      return new StateGraph(MessagesAnnotation)
        .addNode("model", async () => {
          calls += 1;
          return calls <= steps
            ? { messages: [new AIMessage({ content: "", tool_calls: [{ id: `call-${calls}`, name: "lookup", args: { n: calls } }] })] }
            : { messages: [new AIMessage("done")] };
        })
        .addNode("tools", async (state) => {
          const last = state.messages.at(-1) as AIMessage;
          return {
            messages: (last.tool_calls ?? []).map(
              (c) => new ToolMessage({ tool_call_id: c.id!, content: `result ${String(c.args.n)} ${"x".repeat(500)}` }),
            ),
          };
        })
        .addEdge(START, "model")
        .addConditionalEdges("model", (s) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
        .addEdge("tools", "model")
        .compile({ checkpointer });
    }

    it("persists a thread, resumes it from a fresh saver on the same database, and matches MemorySaver", async () => {
      const saver = new IndexedDBSaver(dbName);
      savers.push(saver);
      const config = { configurable: { thread_id: "t1" } };
      const out = await toolLoop(saver, 5).invoke({ messages: [new HumanMessage("go")] }, config);
      expect(out.messages).toHaveLength(12);

      const memory = new MemorySaver();
      const memOut = await toolLoop(memory, 5).invoke({ messages: [new HumanMessage("go")] }, config);
      const contents = (ms: BaseMessage[]) => ms.map((m) => [m.getType(), m.content]);
      expect(contents(out.messages)).toEqual(contents(memOut.messages));

      // A new saver instance (no in-memory caches) reads the same state back.
      const reopened = new IndexedDBSaver(dbName);
      savers.push(reopened);
      const graph = toolLoop(reopened, 0);
      const state = await graph.getState(config);
      const restored = state.values.messages as BaseMessage[];
      expect(restored.map((m) => m.id)).toEqual(out.messages.map((m: BaseMessage) => m.id));
      expect(restored[2]).toBeInstanceOf(ToolMessage);
      expect(restored[1]).toBeInstanceOf(AIMessage);
      expect((restored[1] as AIMessage).tool_calls?.[0]?.name).toBe("lookup");

      // Same number of checkpoints as MemorySaver, and the history walks back to the input.
      const history = [];
      for await (const s of graph.getStateHistory(config)) history.push(s);
      const memHistory = [];
      for await (const s of toolLoop(memory, 0).getStateHistory(config)) memHistory.push(s);
      expect(history).toHaveLength(memHistory.length);
      expect(history.at(-1)?.metadata?.source).toBe("input");

      // Resuming appends to the stored thread.
      const more = await graph.invoke({ messages: [new HumanMessage("again")] }, config);
      expect(more.messages).toHaveLength(14);
      expect((more.messages as BaseMessage[]).slice(0, 12).map((m) => m.id)).toEqual(out.messages.map((m: BaseMessage) => m.id));
    });

    it("forks from an earlier checkpoint without disturbing any checkpoint of the original branch", async () => {
      const saver = new IndexedDBSaver(`${dbName}-fork`);
      savers.push(saver);
      const config = { configurable: { thread_id: "f" } };
      const graph = toolLoop(saver, 2);
      await graph.invoke({ messages: [new HumanMessage("go")] }, config);
      const contents = (values: Record<string, unknown>) => ((values.messages ?? []) as BaseMessage[]).map((m) => m.content);
      const before = new Map<string, unknown>();
      for await (const s of graph.getStateHistory(config)) before.set(s.config.configurable!.checkpoint_id as string, contents(s.values));
      const early = [...before.entries()].find(([, c]) => (c as unknown[]).length === 3)!;

      // The fork's next messages version would equal the original branch's with integer versions.
      const forked = await graph.updateState(
        { configurable: { thread_id: "f", checkpoint_id: early[0] } },
        { messages: [new HumanMessage("edited branch")] },
      );
      expect(contents((await graph.getState(forked)).values)).toEqual([...(early[1] as unknown[]), "edited branch"]);

      for (const [checkpointId, expected] of before) {
        const state = await graph.getState({ configurable: { thread_id: "f", checkpoint_id: checkpointId } });
        expect(contents(state.values)).toEqual(expected);
      }
    });
  });
}
