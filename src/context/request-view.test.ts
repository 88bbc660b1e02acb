import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { withClearedResults, type ClearedResults } from "./clear-results.ts";
import { requestView, requestViewTokens } from "./request-view.ts";
import { countRequestTokens } from "./tokens.ts";
import { truncateOldToolArgs } from "./truncate-args.ts";
import { renderView, summaryMessageFor, viewIndexOf, type SummarizationEvent } from "./view.ts";

/**
 * Step i of a session: a write_file call (large every third step), usage on every fourth AI message, and its result
 * (long enough to be cleared every fourth step).
 */
function step(i: number): BaseMessage[] {
  const content = i % 3 === 0 ? "c".repeat(2_500 + i) : `small ${i}`;
  const usage = i % 4 === 1 ? { input_tokens: 1_000 + i * 37, output_tokens: 20 + i, total_tokens: 1_020 + i * 38 } : undefined;
  return [
    new AIMessage({
      content: i % 5 === 0 ? "writing" : "",
      tool_calls: [{ id: `w${i}`, name: i % 2 ? "write_file" : "edit_file", args: { file_path: `/f${i}.md`, content }, type: "tool_call" }],
      ...(usage ? { usage_metadata: usage } : {}),
    }),
    new ToolMessage({ content: i % 4 === 2 ? `r${i} `.repeat(1_200) : `Updated /f${i}.md`, tool_call_id: `w${i}` }),
  ];
}

const event = (cutoffIndex: number, createdAtLength: number): SummarizationEvent => ({
  cutoffIndex,
  createdAtLength,
  summaryMessage: summaryMessageFor("so far", "/conversation_history/t.md"),
  filePath: "/conversation_history/t.md",
});

/** What the summarization middleware computed before the incremental view: the whole view, then the count over it. */
function slow(history: readonly BaseMessage[], e: SummarizationEvent | undefined, fixed: number, cleared?: ClearedResults) {
  const view = truncateOldToolArgs(renderView(withClearedResults(history, cleared), e));
  const trustFrom = Math.max(e ? viewIndexOf(e.createdAtLength, e) : 0, cleared ? viewIndexOf(cleared.createdAtLength, e) : 0);
  return { view, tokens: countRequestTokens(view, fixed, trustFrom) };
}

describe("requestView and requestViewTokens", () => {
  it("equal the view and count built from the whole history, step by step, with and without a summary", () => {
    let history: BaseMessage[] = [new HumanMessage("go")];
    for (let i = 0; i < 60; i++) {
      history = [...history, ...step(i)];
      const events = [
        undefined,
        event(Math.floor(history.length / 2), history.length - 3),
        event(1, 0),
        event(history.length, history.length),
      ];
      const clearings: (ClearedResults | undefined)[] = [
        undefined,
        { before: Math.floor(history.length * 0.7), createdAtLength: history.length - 2 },
        { before: history.length, createdAtLength: Math.floor(history.length / 3) },
      ];
      for (const e of events) {
        for (const cleared of clearings) {
          const expected = slow(history, e, 777, cleared);
          const view = requestView(history, e, cleared);
          expect(view).toHaveLength(expected.view.length);
          view.forEach((m, k) => expect(m).toBe(expected.view[k]));
          expect(requestViewTokens(history, e, 777, cleared)).toBe(expected.tokens);
        }
      }
    }
  });

  it("stay exact when the history is rewritten in the middle between two steps", () => {
    const history: BaseMessage[] = [new HumanMessage("go")];
    for (let i = 0; i < 30; i++) history.push(...step(i));
    expect(requestViewTokens(history, undefined, 0)).toBe(slow(history, undefined, 0).tokens);
    const repaired = [...history];
    repaired[10] = new AIMessage({ content: "x".repeat(9_000), usage_metadata: { input_tokens: 5, output_tokens: 1, total_tokens: 6 } });
    expect(requestViewTokens(repaired, undefined, 0)).toBe(slow(repaired, undefined, 0).tokens);
    expect(requestView(repaired, undefined)[10]).toBe(repaired[10]);
  });
});
