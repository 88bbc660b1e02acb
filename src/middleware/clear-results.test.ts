/**
 * Clearing old tool results (context/clear-results.ts) through a whole agent:
 * past the clearing trigger, results the model has already seen, outside the
 * keep, reach it as notes naming the file that holds them, while state keeps
 * every result whole.
 */
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { clearedNote, clearedPath, clearedResultFiles, type ClearedResults } from "../context/clear-results.ts";
import { SUMMARY_PROMPT } from "../context/summarize.ts";
import { estimateMessagesTokens } from "../context/tokens.ts";
import type { AgentTool } from "../harness/types.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { largeResultPath } from "./eviction.ts";

/** About 2,000 tokens a result: 10% of the 20,000-token window, the summarization's keep. */
const runTests: AgentTool = {
  name: "run_tests",
  description: "runs the tests",
  schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  run: async (args) => `run ${args.n}: ` + `case ok ${args.n} `.repeat(600),
};

const isSummary = (messages: readonly BaseMessage[]) => SystemMessage.isInstance(messages[0]!) && messages[0]!.content === SUMMARY_PROMPT;

async function session(clearToolResults?: false) {
  let step = 0;
  const model = new ScriptedChatModel({
    script: (ctx) => {
      if (isSummary(ctx.messages)) return { text: "Summary: tests were run." };
      return step < 14 ? { toolCalls: [{ name: "run_tests", args: { n: step++ } }] } : { text: "done" };
    },
  });
  const out = await createDeepAgent({
    model,
    tools: [runTests],
    summarization: { maxInputTokens: 20_000, ...(clearToolResults === false ? { clearToolResults } : {}) },
  }).invoke({ messages: [new HumanMessage("run the tests")] }, { configurable: { thread_id: "clear" } });
  const requests = model.calls.filter((c) => !isSummary(c.messages)).map((c) => c.messages);
  return { out, requests, summaries: model.calls.length - requests.length };
}

describe("clearing old tool results", () => {
  it("past half the window, seen results become notes naming a file that holds them; state keeps every result whole", async () => {
    const { out, requests, summaries } = await session();
    const results = out.messages.filter((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage[];
    expect(results).toHaveLength(14);
    // State keeps every result whole.
    for (const r of results) expect(String(r.content)).toMatch(/^run \d+: case ok/);
    const clearedAt = new Map<string, number>();
    requests.forEach((messages, k) => {
      // Every request stays below half the window plus one result, far from the summarization trigger (17,000).
      expect(estimateMessagesTokens(messages)).toBeLessThan(10_000 + 2_100);
      const shown = messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
      // The newest result (the one this request answers with) is always whole.
      if (k > 0) expect(String(shown.at(-1)!.content)).toMatch(/^run \d+: case ok/);
      for (const m of shown) {
        if (String(m.content).startsWith("run ")) {
          // Once cleared, a result stays cleared in every later request.
          expect(clearedAt.has(m.tool_call_id)).toBe(false);
          continue;
        }
        const path = largeResultPath(m.tool_call_id);
        expect(m.content).toBe(clearedNote(path));
        if (!clearedAt.has(m.tool_call_id)) clearedAt.set(m.tool_call_id, k);
        const whole = results.find((r) => r.tool_call_id === m.tool_call_id)!;
        expect(out.files[path]!.content).toBe(whole.content);
      }
    });
    expect(clearedAt.size).toBeGreaterThanOrEqual(8);
    // The record of how far results are cleared is kept in state (so a request does not clear them again).
    const record = (out as Record<string, unknown>)._clearedResults as ClearedResults | undefined;
    expect(record?.before).toBeGreaterThan(20);
    // What the page marks on the cards (worker/threads/thread-view.ts): exactly the results the last request showed as notes,
    // each with the file its note names.
    const marked = clearedResultFiles(out.messages, record);
    const lastNotes = requests.at(-1)!.filter((m) => ToolMessage.isInstance(m) && String(m.content).startsWith("[Tool result cleared"));
    expect(marked.size).toBe(lastNotes.length);
    for (const [i, path] of marked) {
      const m = out.messages[i] as ToolMessage;
      expect(path).toBe(largeResultPath(m.tool_call_id));
      expect(lastNotes.map((n) => (n as ToolMessage).tool_call_id)).toContain(m.tool_call_id);
    }
    // Clearing kept the conversation far enough below the trigger that it needed no summary.
    expect(summaries).toBe(0);
  });

  it("clearToolResults: false keeps seen results whole until a summary folds them", async () => {
    const { requests, summaries } = await session(false);
    for (const messages of requests) {
      for (const m of messages) if (ToolMessage.isInstance(m)) expect(String(m.content)).toMatch(/^run \d+: case ok/);
    }
    expect(summaries).toBeGreaterThan(0);
  });

  it("a result offloaded when it arrived is cleared to a note naming its offloaded file", () => {
    const evicted = new ToolMessage({ content: "stub", tool_call_id: "c1", response_metadata: { evicted_to: "/large_tool_results/c1" } });
    expect(clearedPath(evicted)).toBe("/large_tool_results/c1");
    expect(clearedPath(new ToolMessage({ content: "x", tool_call_id: "a/b.c" }))).toBe("/large_tool_results/a_b_c");
  });
});
