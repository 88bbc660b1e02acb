/**
 * A test worker (Chromium): runs the freeze and crash cases of hostile input
 * through whole agent runs inside a Web Worker, on real IndexedDB (workspace
 * files and checkpoints), and posts back what each run left: how long it
 * took, every tool result, the final answer, and whether the stored thread
 * still pairs every call with a result.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { indexedDBBackend } from "../backends/indexeddb.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";

export interface HostileOutcome {
  name: string;
  elapsedMs: number;
  results: Array<{ status: string; content: string }>;
  final: string;
  /** Calls in the stored thread without a result (must be 0). */
  unanswered: number;
  error?: string;
}

const LONG = `/${"a".repeat(120)}`;

export const HOSTILE_CASES: Array<{ name: string; script: ScriptedTurn[] }> = [
  {
    name: "catastrophic and invalid globs",
    script: [
      { toolCalls: [{ name: "write_file", args: { file_path: LONG, content: "a" } }] },
      {
        toolCalls: [
          { name: "glob", args: { pattern: "**a**a**a**a**a**b" } },
          { name: "glob", args: { pattern: "[z-a]" } },
          { name: "grep", args: { pattern: "a", glob: "{unclosed" } },
          { name: "glob", args: { pattern: null } },
          // 256 brace alternatives times a long fixed piece, as the grep filter.
          { name: "grep", args: { pattern: "a", glob: `*${"a".repeat(40)}${"{a,b}".repeat(8)}c*` } },
        ],
      },
    ],
  },
  {
    name: "unparseable arguments, no id, an empty id, a duplicate id",
    script: [
      {
        toolCalls: [
          { name: "write_file", rawArgs: '{"file_path": "/a.md", "content": "x' },
          { name: "write_file", args: { file_path: "/b.md", content: "b" }, noId: true },
          { name: "write_file", args: { file_path: "/c.md", content: "c" }, id: "" },
          { name: "write_file", args: { file_path: "/d.md", content: "d" }, id: "dup" },
          { name: "write_file", args: { file_path: "/e.md", content: "e" }, id: "dup" },
        ],
      },
    ],
  },
  {
    name: "null and non-object arguments",
    script: [
      {
        toolCalls: [
          { name: "write_file", args: null },
          { name: "edit_file", args: ["/a.md"] },
          { name: "write_file", args: { file_path: "/n.md", content: null } },
          { name: "read_file", args: { file_path: "/missing.md", offset: null } },
        ],
      },
    ],
  },
];

async function runCase(db: string, name: string, script: ScriptedTurn[]): Promise<HostileOutcome> {
  const saver = new IndexedDBSaver(`${db}-checkpoints`);
  const agent = createDeepAgent({
    model: new ScriptedChatModel({ script: [...script, { text: "done" }] }),
    checkpointer: saver,
    backend: indexedDBBackend({ dbName: `${db}-files` }),
  });
  const config = { configurable: { thread_id: crypto.randomUUID() } };
  const started = performance.now();
  try {
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
  } catch (err) {
    return { name, elapsedMs: performance.now() - started, results: [], final: "", unanswered: -1, error: String(err) };
  }
  const elapsedMs = performance.now() - started;
  const messages = ((await agent.getState(config)).values as { messages: BaseMessage[] }).messages;
  const results = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  const answered = new Set(results.map((r) => r.tool_call_id));
  const calls = messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []));
  return {
    name,
    elapsedMs,
    results: results.map((r) => ({ status: r.status ?? "success", content: r.text })),
    final: messages.at(-1)?.text ?? "",
    unanswered: calls.filter((c) => !c.id || !answered.has(c.id)).length,
  };
}

self.onmessage = async (event: MessageEvent<{ db: string }>) => {
  const outcomes: HostileOutcome[] = [];
  for (const c of HOSTILE_CASES) outcomes.push(await runCase(event.data.db, c.name, c.script));
  self.postMessage(outcomes);
};
