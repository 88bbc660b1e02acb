/**
 * Small context windows (4k, 8k and 32k tokens): a 100-step session that
 * keeps reading a large file (2,000 lines at a time, as a small model does),
 * listing and searching. At every model call: the request fits the window,
 * and the results of the previous call are in it (cut to the budget if need
 * be, with a pointer to their full text). At the end the fact the user gave
 * in the first message is still there: in the request itself (old results
 * were cleared, nothing was summarized) or found through the history file.
 *
 * Token counts are deeptab's estimate (4 characters a token, what the
 * harness budgets with), over everything a provider would receive: system
 * prompt, tool definitions and messages.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { resultTokenBudget } from "../context/budget.ts";
import { SUMMARY_PROMPT } from "../context/summarize.ts";
import { CHARS_PER_TOKEN, estimateMessagesTokens } from "../context/tokens.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

const STEPS = 100;
const FACT = "FACT-8231: the launch code is 4471";

const bigFile = Array.from({ length: 5_000 }, (_, i) => `line ${i}: ${"lorem ipsum ".repeat(3)}`).join("\n");

function isSummaryCall(ctx: ScriptContext): boolean {
  const first = ctx.messages[0];
  return ctx.tools.length === 0 && !!first && SystemMessage.isInstance(first) && first.text === SUMMARY_PROMPT;
}

function stepCall(step: number): ScriptedTurn {
  switch (step % 4) {
    case 0:
      return { toolCalls: [{ name: "read_file", args: { file_path: "/big.md", offset: (step * 37) % 4_000, limit: 2_000 } }] };
    case 1:
      return { toolCalls: [{ name: "grep", args: { pattern: "lorem", path: "/", output_mode: "content" } }] };
    case 2:
      return {
        toolCalls: [
          { name: "ls", args: { path: "/" } },
          { name: "glob", args: { pattern: "**/*" } },
        ],
      };
    default:
      return { toolCalls: [{ name: "write_file", args: { file_path: `/notes/n${step}.md`, content: `note ${step}\n`.repeat(30) } }] };
  }
}

async function session(window: number) {
  const violations: string[] = [];
  let step = 0;
  let lastIds: string[] = [];
  let factResult = "";
  let factInRequest = false;
  const model = new ScriptedChatModel({
    script: (ctx) => {
      if (isSummaryCall(ctx)) return { text: "- The user asked to work through /big.md.\n- Progress: many reads done." };
      const call = model.calls.at(-1)!;
      const tokens = Math.ceil(JSON.stringify(call.toolDefinitions).length / 4) + estimateMessagesTokens(ctx.messages);
      if (tokens > window) violations.push(`step ${step}: request of ${tokens} tokens in a ${window}-token window`);
      const answered = new Set(ctx.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => m.tool_call_id));
      for (const id of lastIds) if (!answered.has(id)) violations.push(`step ${step}: the result of ${id} is not in the request`);
      const last = ctx.messages.at(-1);
      if (last && ToolMessage.isInstance(last) && step === STEPS + 1) factResult = last.text;
      if (step === STEPS + 1) factInRequest = ctx.messages.some((m) => m.text.includes(FACT));
      step++;
      let turn: ScriptedTurn;
      if (step <= STEPS) turn = stepCall(step);
      else if (step === STEPS + 1)
        turn = { toolCalls: [{ name: "grep", args: { pattern: "FACT-8231", path: "/conversation_history", output_mode: "content" } }] };
      else turn = { text: "finished" };
      lastIds = (turn.toolCalls ?? []).map((_, i) => `call_${ctx.call}_${i}`);
      return turn;
    },
  });
  const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), summarization: { maxInputTokens: window } });
  const config = { configurable: { thread_id: `w${window}` }, recursionLimit: 10_000 };
  const out = await agent.invoke(
    { messages: [new HumanMessage(`Remember this: ${FACT}. Then work through /big.md.`)], files: { "/big.md": textFile(bigFile) } },
    config,
  );
  return { violations, fact: factInRequest ? FACT : factResult, out: out as { messages: BaseMessage[] } };
}

describe("small context windows", () => {
  for (const window of [4_096, 8_192, 32_768]) {
    it(`${window} tokens: every request fits, the newest results are always in it, and the first fact stays findable`, async () => {
      const { violations, fact, out } = await session(window);
      expect(violations).toEqual([]);
      expect(fact).toContain(FACT);
      expect(out.messages.at(-1)!.text).toBe("finished");
      // Every call got its result: nothing was dropped along the way.
      const calls = out.messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : []));
      const results = new Set(out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => m.tool_call_id));
      expect(calls.filter((id) => !results.has(id!))).toEqual([]);
    }, 60_000);
  }

  it("the found case: in an 8k window a 2,000-line read of the history file is still in the next request", async () => {
    const history = Array.from({ length: 3_000 }, (_, i) => `entry ${i}: ${"x".repeat(40)}`).join("\n");
    let sawRead = false;
    const model = new ScriptedChatModel({
      script: (ctx) => {
        if (isSummaryCall(ctx)) return { text: "- summary" };
        const last = ctx.messages.at(-1);
        if (last && ToolMessage.isInstance(last) && last.name === "read_file") {
          sawRead = last.text.startsWith("     1\tentry 0:");
          return { text: "done" };
        }
        return { toolCalls: [{ name: "read_file", args: { file_path: "/conversation_history/t.md", limit: 2_000 } }] };
      },
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), summarization: { maxInputTokens: 8_000 } });
    const filler = Array.from({ length: 30 }, (_, i) => new HumanMessage(`earlier message ${i} ${"y".repeat(600)}`));
    await agent.invoke(
      { messages: [...filler, new HumanMessage("read it")], files: { "/conversation_history/t.md": textFile(history) } },
      { configurable: { thread_id: "found" } },
    );
    expect(sawRead).toBe(true);
  });

  it("parallel results too large together are cut in the request, each with a pointer to its full text", async () => {
    const window = 4_096;
    let checked: { tokens: number; results: string[] } | undefined;
    const model = new ScriptedChatModel({
      script: (ctx) => {
        if (isSummaryCall(ctx)) return { text: "- summary" };
        const last = ctx.messages.at(-1);
        if (last && ToolMessage.isInstance(last)) {
          const call = model.calls.at(-1)!;
          checked = {
            tokens: Math.ceil(JSON.stringify(call.toolDefinitions).length / 4) + estimateMessagesTokens(ctx.messages),
            results: ctx.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => m.text),
          };
          return { text: "done" };
        }
        return {
          toolCalls: [0, 1, 2, 3, 4, 5].map((k) => ({ name: "read_file", args: { file_path: "/big.md", offset: k * 500, limit: 400 } })),
        };
      },
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), summarization: { maxInputTokens: window } });
    const out = await agent.invoke(
      { messages: [new HumanMessage("read six parts")], files: { "/big.md": textFile(bigFile) } },
      { configurable: { thread_id: "parallel" } },
    );
    expect(checked!.tokens).toBeLessThanOrEqual(window);
    expect(checked!.results).toHaveLength(6);
    for (const r of checked!.results) expect(r).toMatch(/the full text is in \/large_tool_results\/call_0_\d; read it with read_file/);
    // The full texts were saved, and state keeps every result whole.
    const files = (out as { files: Record<string, unknown> }).files;
    expect(Object.keys(files).filter((p) => p.startsWith("/large_tool_results/"))).toHaveLength(6);
  });

  it("one read_file in a 4k window returns at most the result budget and ends saying how to page on; paging on continues", async () => {
    const window = 4_096;
    const reads: string[] = [];
    const model = new ScriptedChatModel({
      script: (ctx) => {
        if (isSummaryCall(ctx)) return { text: "- summary" };
        const last = ctx.messages.at(-1);
        if (last && ToolMessage.isInstance(last)) reads.push(last.text);
        if (reads.length === 0) return { toolCalls: [{ name: "read_file", args: { file_path: "/big.md", limit: 2_000 } }] };
        if (reads.length === 1) {
          // Follow the note, as a model would.
          const next = /read_file\(file_path='\/big\.md', offset=(\d+), limit=(\d+)\)/.exec(reads[0]!);
          if (!next) return { text: "no note" };
          return { toolCalls: [{ name: "read_file", args: { file_path: "/big.md", offset: Number(next[1]), limit: Number(next[2]) } }] };
        }
        return { text: "done" };
      },
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), summarization: { maxInputTokens: window } });
    await agent.invoke(
      { messages: [new HumanMessage("read it")], files: { "/big.md": textFile(bigFile) } },
      { configurable: { thread_id: "read-4k" } },
    );
    expect(reads).toHaveLength(2);
    const [first, second] = reads as [string, string];
    const budget = resultTokenBudget(window);
    expect(budget).toBe(819);
    expect(Math.ceil(first.length / CHARS_PER_TOKEN)).toBeLessThanOrEqual(budget);
    // Well short of the 2,000 lines asked for, cut at a whole line, with the note last.
    const lastShown = Number(/^\s*(\d+)\t/m.exec(first.split("\n\n[Output cut")[0]!.split("\n").at(-1)!)![1]);
    expect(lastShown).toBeGreaterThan(10);
    expect(lastShown).toBeLessThan(2_000);
    expect(first).toMatch(
      new RegExp(
        `\\n\\n\\[Output cut at line ${lastShown} of 5000 to fit the model's context window\\. ` +
          `Read on with read_file\\(file_path='/big\\.md', offset=${lastShown}, limit=${lastShown}\\)\\.\\]$`,
      ),
    );
    // Paging on as the note says gives the next page whole: it starts at the next line and fits the budget.
    const rows = second.split("\n");
    expect(rows[0]!.startsWith(`${String(lastShown + 1).padStart(6)}\tline ${lastShown}:`)).toBe(true);
    expect(rows).toHaveLength(lastShown);
    expect(second).not.toContain("[Output cut");
    expect(Math.ceil(second.length / CHARS_PER_TOKEN)).toBeLessThanOrEqual(budget);
  });
});
