/**
 * Checkpoint storage: a scripted tool-calling thread of 100/200/300 steps
 * (each step: an AI message with a tool call, then a ~1 KB ToolMessage) run
 * through a bare `@langchain/langgraph/web` StateGraph, once with
 * IndexedDBSaver over fake-indexeddb and once with MemorySaver. Reports the
 * bytes each saver stored next to the raw bytes of the messages themselves,
 * and the wall time of the 300-step thread.
 *
 *   node --import tsx scripts/bench/checkpoint.ts
 */
import "fake-indexeddb/auto";
import { pathToFileURL } from "node:url";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer, MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph/web";
import { IndexedDBSaver } from "../../src/storage/indexeddb-saver.ts";

const SIZES = [100, 200, 300];
const TOOL_RESULT = "0123456789abcdef".repeat(64); // 1 KB

/** model -> tools -> model ... for `steps` tool calls, then a final answer. */
function scriptedThread(checkpointer: BaseCheckpointSaver, steps: number) {
  let calls = 0;
  return new StateGraph(MessagesAnnotation)
    .addNode("model", async () => {
      calls += 1;
      // Chat models return ids (e.g. "msg_..."); ToolMessages from tools usually have none.
      return calls <= steps
        ? {
            messages: [
              new AIMessage({
                id: `msg_${calls}`,
                content: "",
                tool_calls: [{ id: `call_${calls}`, name: "lookup", args: { query: `record ${calls}` } }],
              }),
            ],
          }
        : { messages: [new AIMessage({ id: `msg_${calls}`, content: "finished" })] };
    })
    .addNode("tools", async (state) => {
      const last = state.messages.at(-1) as AIMessage;
      return {
        messages: (last.tool_calls ?? []).map(
          (call) => new ToolMessage({ tool_call_id: call.id!, name: call.name, content: `${String(call.args.query)}: ${TOOL_RESULT}` }),
        ),
      };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (s) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
    .addEdge("tools", "model")
    .compile({ checkpointer })
    .withConfig({ recursionLimit: 10_000 });
}

async function run(checkpointer: BaseCheckpointSaver, steps: number): Promise<{ ms: number; messages: BaseMessage[] }> {
  const graph = scriptedThread(checkpointer, steps);
  const t0 = performance.now();
  const out = await graph.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: `bench-${steps}` } });
  const ms = performance.now() - t0;
  const messages = out.messages as BaseMessage[];
  if (messages.length !== 2 + steps * 2) throw new Error(`thread of ${steps} steps produced ${messages.length} messages`);
  return { ms, messages };
}

/** Bytes of each final message serialized once, the floor any saver could reach. */
async function rawMessageBytes(messages: BaseMessage[]): Promise<number> {
  const serde = new JsonPlusSerializer();
  let n = 0;
  for (const m of messages) n += (await serde.dumpsTyped(m))[1].byteLength;
  return n;
}

/** Sum of the serialized byte lengths held in MemorySaver's `storage` and `writes` maps. */
function memorySaverBytes(saver: MemorySaver): number {
  let n = 0;
  const walk = (v: unknown): void => {
    if (v instanceof Uint8Array) n += v.byteLength;
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(saver.storage);
  walk(saver.writes);
  return n;
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`.padStart(9);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let dbCounter = 0;
const freshSaver = () => new IndexedDBSaver(`bench-${dbCounter++}`);

export async function benchCheckpoints(rounds = 3): Promise<string[]> {
  const lines = [
    "checkpoints: scripted thread, each step = AI tool call + ~1 KB ToolMessage (bare StateGraph, MessagesAnnotation)",
    "  steps   raw msgs   IndexedDBSaver  (x raw)   MemorySaver  (x raw)   Memory/ours",
  ];
  for (const steps of SIZES) {
    const ours = freshSaver();
    const { messages } = await run(ours, steps);
    const memory = new MemorySaver();
    await run(memory, steps);
    await ours.close();
    const raw = await rawMessageBytes(messages);
    const o = ours.stats.bytesWritten;
    const m = memorySaverBytes(memory);
    lines.push(
      `  ${String(steps).padStart(5)}  ${kb(raw)}  ${kb(o).padStart(14)}  ${(o / raw).toFixed(2).padStart(6)}x  ` +
        `${kb(m).padStart(12)}  ${(m / raw).toFixed(2).padStart(6)}x  ${(m / o).toFixed(1).padStart(9)}x`,
    );
  }
  lines.push("  target: IndexedDBSaver < 3x raw message bytes, and linear in steps");

  const steps = SIZES.at(-1)!;
  await run(new MemorySaver(), steps); // warm-up
  await run(freshSaver(), steps);
  const oursMs: number[] = [];
  const memMs: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    memMs.push((await run(new MemorySaver(), steps)).ms);
    const saver = freshSaver();
    oursMs.push((await run(saver, steps)).ms);
    await saver.close();
  }
  const o = median(oursMs);
  const b = median(memMs);
  lines.push(
    `  ${steps}-step wall time (median of ${rounds}): IndexedDBSaver/fake-indexeddb ${o.toFixed(0)} ms, ` +
      `MemorySaver ${b.toFixed(0)} ms, ratio ${(o / b).toFixed(2)}x`,
  );
  return lines;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchCheckpoints()) console.log(line);
}
