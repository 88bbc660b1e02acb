import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ContextOverflowError } from "@langchain/core/errors";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { SUMMARY_PROMPT } from "../context/summarize.ts";
import { estimateMessagesTokens } from "../context/tokens.ts";
import type { SummarizationEvent } from "../context/view.ts";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { AgentState, AgentTool } from "../harness/types.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";
import { resolveSummarizationSettings } from "./summarization.ts";

const isSummaryCall = (ctx: ScriptContext) => SystemMessage.isInstance(ctx.messages[0]!) && ctx.messages[0]!.content === SUMMARY_PROMPT;

/** A tool returning ~1,600 chars (about 400 tokens) per call; call 3 carries a fact. */
const fetchTool: AgentTool = {
  name: "fetch_page",
  description: "fetches a page",
  schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  run: async (args) => (args.n === 3 ? "the secret code is 7421. " : "") + `page ${args.n} `.repeat(200),
};

function agentScript(steps: number, after: (ctx: ScriptContext) => ScriptedTurn | undefined = () => undefined) {
  let step = 0;
  return (ctx: ScriptContext): ScriptedTurn => {
    if (isSummaryCall(ctx)) return { text: `Summary #${ctx.call}: the user wants pages fetched; pages were read.` };
    const extra = after(ctx);
    if (extra) return extra;
    if (step < steps) return { toolCalls: [{ name: "fetch_page", args: { n: step++ } }] };
    return { text: "all pages fetched" };
  };
}

describe("summarization (seed probes)", () => {
  it("P5: state keeps 44 messages while the model sees the summary plus the recent few", async () => {
    const model = new ScriptedChatModel({ script: agentScript(21) });
    const agent = createDeepAgent({
      model,
      systemPrompt: "You fetch pages.",
      tools: [fetchTool],
      checkpointer: new MemorySaver(),
      summarization: { trigger: { tokens: 3_000 }, keep: { messages: 6 } },
    });
    const config = { configurable: { thread_id: "p5" } };
    const out = await agent.invoke({ messages: [new HumanMessage("fetch 21 pages")] }, config);
    expect(out.messages).toHaveLength(44);
    const event = (out as AgentState)._summarizationEvent as SummarizationEvent;
    expect(event.filePath).toBe("/conversation_history/p5.md");
    const last = model.calls.at(-1)!.messages;
    expect(last[0]!.getType()).toBe("system");
    expect(String(last[1]!.content)).toMatch(/^Here is a summary of the conversation to date:\n\nSummary #\d+/);
    expect(String(last[1]!.content)).toContain("/conversation_history/p5.md");
    expect(last.length).toBeLessThanOrEqual(2 + 8);
    // The tail the model saw is exactly the end of state before its answer, untouched.
    const tail = last.slice(2);
    const before = out.messages.slice(0, -1);
    expect(tail.map((m) => m.id)).toEqual(before.slice(before.length - tail.length).map((m: BaseMessage) => m.id));
    // Never separates an AI message from its tool results.
    expect(ToolMessage.isInstance(out.messages[event.cutoffIndex])).toBe(false);
    // The evicted span is in the history file, whole.
    const history = out.files["/conversation_history/p5.md"].content as string;
    expect(history).toMatch(/^## Summarized at \d{4}-\d\d-\d\dT/);
    expect(history).toContain("the secret code is 7421");
  });

  it("a result over the keep budget that the model has not seen stays whole; only seen results are folded, whole, in history", async () => {
    // Each result is about 2,000 tokens, twice the keep budget: keeping by tokens alone would fold the newest result
    // into the summary before the model saw it (what once made the context bench read 25.2x instead of 21.5x).
    const bigTool: AgentTool = {
      name: "run_tests",
      description: "runs the tests",
      schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      run: async (args) => `run ${args.n}: ` + `case ok ${args.n} `.repeat(700),
    };
    let step = 0;
    const model = new ScriptedChatModel({
      script: (ctx) => {
        if (isSummaryCall(ctx)) return { text: `Summary #${ctx.call}: tests were run.` };
        return step < 12 ? { toolCalls: [{ name: "run_tests", args: { n: step++ } }] } : { text: "done" };
      },
    });
    const trigger = 10_000;
    const out = await createDeepAgent({
      model,
      tools: [bigTool],
      summarization: { trigger: { tokens: trigger }, keep: { tokens: 1_000 } },
    }).invoke({ messages: [new HumanMessage("run the tests")] }, { configurable: { thread_id: "unseen" } });

    const requests = model.calls.filter(
      (c) => !(c.messages[0] && SystemMessage.isInstance(c.messages[0]) && c.messages[0].content === SUMMARY_PROMPT),
    );
    expect(model.calls.length - requests.length).toBeGreaterThanOrEqual(2);
    const results = out.messages.filter((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage[];
    expect(results).toHaveLength(12);
    const history = out.files["/conversation_history/unseen.md"].content as string;
    for (const [i, result] of results.entries()) {
      // Every result reached the model whole, in the request right after its call.
      const next = requests[i + 1]!.messages.filter((m) => ToolMessage.isInstance(m)).at(-1)!;
      expect(next.tool_call_id).toBe(result.tool_call_id);
      expect(next.content).toBe(result.content);
    }
    // What was folded is in the history file, whole; the newest results were never folded before being seen.
    const folded = results.filter((r) => history.includes(`(${r.tool_call_id})`));
    expect(folded.length).toBeGreaterThan(0);
    for (const r of folded) expect(history).toContain(String(r.content));
    for (const req of requests) expect(estimateMessagesTokens(req.messages)).toBeLessThan(trigger);
  });

  it("at the trigger, old write_file bodies outside the keep are shortened first, so no summary is needed; files hold them", async () => {
    // A 20,000-token window: trigger 17,000, keep 2,000 (deepagents' 85% / 10%). Each body is about 1,750 tokens, so
    // nine steps reach the trigger while all of them are still among the last 20 messages (always kept whole).
    const body = (i: number) => `file ${i}\n` + `line ${i} of the report\n`.repeat(300);
    const steps = 14;
    let step = 0;
    const model = new ScriptedChatModel({
      script: (ctx) => {
        if (isSummaryCall(ctx)) return { text: "Summary: files were written." };
        if (step >= steps) return { text: "done" };
        const i = step++;
        return { toolCalls: [{ name: "write_file", args: { file_path: `/r${i}.md`, content: body(i) } }] };
      },
    });
    const out = await createDeepAgent({ model, summarization: { maxInputTokens: 20_000 } }).invoke(
      { messages: [new HumanMessage("write the reports")] },
      { configurable: { thread_id: "args" } },
    );
    expect(model.calls.filter((c) => SystemMessage.isInstance(c.messages[0]!) && c.messages[0]!.content === SUMMARY_PROMPT)).toHaveLength(
      0,
    );
    expect((out as AgentState)._summarizationEvent).toBeUndefined();
    for (const c of model.calls) expect(estimateMessagesTokens(c.messages)).toBeLessThan(17_000);
    const calls = (m: BaseMessage) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []);
    const sent = model.calls.at(-1)!.messages.flatMap(calls);
    expect(sent).toHaveLength(steps);
    // The newest body is whole; the oldest is cut as deepagents cuts it (its first 20 characters and a marker).
    expect(sent.at(-1)!.args.content).toBe(body(steps - 1));
    expect(sent[0]!.args.content).toBe(`${body(0).slice(0, 20)}...(argument truncated)`);
    // Only the request is shortened: state keeps the calls whole, and every body is in its file.
    expect(out.messages.flatMap(calls)[0]!.args.content).toBe(body(0));
    for (let i = 0; i < steps; i++) expect(out.files[`/r${i}.md`].content).toBe(body(i));
  });

  it("a fact that survives only in the history file is found again with grep and read_file", async () => {
    let phase = 0;
    const model = new ScriptedChatModel({
      script: agentScript(12, (ctx) => {
        const lastMsg = ctx.messages.at(-1)!;
        if (phase === 0 && lastMsg.getType() === "human" && String(lastMsg.content).includes("secret")) {
          phase = 1;
          return { toolCalls: [{ name: "grep", args: { pattern: "secret code", path: "/conversation_history", output_mode: "content" } }] };
        }
        if (phase === 1) {
          phase = 2;
          const line = Number(String(lastMsg.content).match(/^ {2}(\d+): /m)?.[1]);
          return { toolCalls: [{ name: "read_file", args: { file_path: "/conversation_history/recall.md", offset: line - 1, limit: 1 } }] };
        }
        if (phase === 2) {
          phase = 3;
          const found = String(lastMsg.content).match(/secret code is (\d+)/)?.[1];
          return { text: `The secret code was ${found}.` };
        }
        return undefined;
      }),
    });
    const agent = createDeepAgent({
      model,
      systemPrompt: "You fetch pages.",
      tools: [fetchTool],
      checkpointer: new MemorySaver(),
      summarization: { trigger: { tokens: 3_000 }, keep: { messages: 6 } },
    });
    const config = { configurable: { thread_id: "recall" } };
    await agent.invoke({ messages: [new HumanMessage("fetch pages")] }, config);
    const out = await agent.invoke({ messages: [new HumanMessage("what was the secret code?")] }, config);
    const visible = model.calls
      .at(-1)!
      .messages.map((m) => String(m.content))
      .join("\n");
    expect(visible).toContain("/conversation_history/recall.md:\n");
    expect(out.messages.at(-1)!.content).toBe("The secret code was 7421.");
    // The fact is not in what the model sees apart from the tool results it fetched back.
    const summaryOnly = String(model.calls.at(-1)!.messages[1]!.content);
    expect(summaryOnly).not.toContain("7421");
  });

  it("chained summarizations translate indices onto the original list", async () => {
    const model = new ScriptedChatModel({ script: agentScript(30) });
    const agent = createDeepAgent({
      model,
      systemPrompt: "You fetch pages.",
      tools: [fetchTool],
      checkpointer: new MemorySaver(),
      summarization: { trigger: { tokens: 3_000 }, keep: { messages: 4 } },
    });
    const config = { configurable: { thread_id: "chain" } };
    const events: SummarizationEvent[] = [];
    for await (const update of await agent.stream({ messages: [new HumanMessage("go")] }, { ...config, streamMode: "updates" })) {
      const e = (update as { model?: { _summarizationEvent?: SummarizationEvent } }).model?._summarizationEvent;
      if (e) events.push(e);
    }
    expect(events.length).toBeGreaterThanOrEqual(2);
    const state = (await agent.getState(config)).values as AgentState;
    const history = state.files["/conversation_history/chain.md"]!.content;
    expect(history.match(/^## Summarized at /gm)).toHaveLength(events.length);
    for (let i = 1; i < events.length; i++) expect(events[i]!.cutoffIndex).toBeGreaterThan(events[i - 1]!.cutoffIndex);
    // The second section holds exactly the messages between the two cutoffs.
    const sections = history.split(/^## Summarized at .*$/m).slice(1);
    const between = state.messages.slice(events[0]!.cutoffIndex, events[1]!.cutoffIndex);
    const toolIds = between.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id);
    for (const id of toolIds) expect(sections[1]).toContain(`(${id})`);
    expect(sections[1]).not.toContain(`(${(state.messages[events[0]!.cutoffIndex - 1] as ToolMessage).tool_call_id})`);
    // Every model request after the last event is [system, summary, ...state.messages[cutoff:]] at that time.
    const lastEvent = events.at(-1)!;
    const lastCall = model.calls.at(-1)!.messages;
    expect(lastCall[1]!.content).toBe(lastEvent.summaryMessage.content);
    expect(lastCall[2]!.id).toBe(state.messages[lastEvent.cutoffIndex]!.id);
    expect(state.messages).toHaveLength(2 + 30 * 2);
  });

  it("each event carries the usage of every summarization call so far (those calls leave no message)", async () => {
    const script = agentScript(30);
    const model = new ScriptedChatModel({
      script: (ctx) => (isSummaryCall(ctx) ? { ...script(ctx), usage: { input_tokens: 1_000, output_tokens: 50 } } : script(ctx)),
    });
    const agent = createDeepAgent({
      model,
      tools: [fetchTool],
      checkpointer: new MemorySaver(),
      summarization: { trigger: { tokens: 3_000 }, keep: { messages: 4 } },
    });
    const config = { configurable: { thread_id: "usage" } };
    const events: SummarizationEvent[] = [];
    for await (const update of await agent.stream({ messages: [new HumanMessage("go")] }, { ...config, streamMode: "updates" })) {
      const e = (update as { model?: { _summarizationEvent?: SummarizationEvent } }).model?._summarizationEvent;
      if (e) events.push(e);
    }
    expect(events.length).toBeGreaterThanOrEqual(2);
    events.forEach((e, i) => expect(e.usage).toEqual({ input: 1_000 * (i + 1), output: 50 * (i + 1) }));
    // A model that reports no usage leaves none.
    const quiet = createDeepAgent({
      model: new ScriptedChatModel({ script: agentScript(30) }),
      tools: [fetchTool],
      checkpointer: new MemorySaver(),
      summarization: { trigger: { tokens: 3_000 }, keep: { messages: 4 } },
    });
    const out = await quiet.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "quiet" } });
    const last = (out as { _summarizationEvent?: SummarizationEvent })._summarizationEvent;
    expect(last).toBeDefined();
    expect(last!.usage).toBeUndefined();
  });
});

describe("context overflow recovery", () => {
  it("summarizes and retries exactly once", async () => {
    let overflowed = 0;
    const model = new ScriptedChatModel({
      script: agentScript(8, (ctx) => {
        if (ctx.messages.at(-1)!.getType() === "human" && String(ctx.messages.at(-1)!.content) === "next" && overflowed === 0) {
          overflowed++;
          return { error: { message: "This model's maximum context length is 8192 tokens", status: 400, code: "context_length_exceeded" } };
        }
        return undefined;
      }),
    });
    const agent = createDeepAgent({
      model,
      tools: [fetchTool],
      checkpointer: new MemorySaver(),
      summarization: { trigger: { tokens: 100_000 }, keep: { messages: 2 } },
    });
    const config = { configurable: { thread_id: "of" } };
    await agent.invoke({ messages: [new HumanMessage("fetch")] }, config);
    const before = model.calls.length;
    const out = await agent.invoke({ messages: [new HumanMessage("next")] }, config);
    const calls = model.calls.slice(before);
    expect(
      calls.map((c) => (SystemMessage.isInstance(c.messages[0]!) && c.messages[0]!.content === SUMMARY_PROMPT ? "summary" : "agent")),
    ).toEqual(["agent", "summary", "agent"]);
    expect(calls[2]!.messages.length).toBeLessThan(calls[0]!.messages.length);
    expect(out.messages.at(-1)!.content).toBe("all pages fetched");
  });

  it("fails with a clear error when the retry overflows too", async () => {
    const model = new ScriptedChatModel({
      script: (ctx) =>
        isSummaryCall(ctx)
          ? { text: "short summary" }
          : { error: { message: "prompt is too long: 250000 tokens > 200000 maximum", name: "ContextOverflowError" } },
    });
    const agent = createDeepAgent({ model, summarization: { trigger: { tokens: 100_000 }, keep: { messages: 1 } } });
    const history = Array.from({ length: 6 }, (_, i) => new HumanMessage(`message ${i} ${"x".repeat(400)}`));
    await expect(agent.invoke({ messages: history })).rejects.toMatchObject({ code: "context_overflow" });
    expect(
      model.calls.filter((c) => !(SystemMessage.isInstance(c.messages[0]!) && c.messages[0]!.content === SUMMARY_PROMPT)),
    ).toHaveLength(2);
  });

  it("recognizes LangChain's ContextOverflowError", async () => {
    const { isContextOverflow } = await import("../context/overflow.ts");
    expect(isContextOverflow(new ContextOverflowError("too long"))).toBe(true);
    expect(
      isContextOverflow({
        status: 400,
        error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
      }),
    ).toBe(true);
    expect(isContextOverflow({ status: 400, message: "Error: context window exceeded (requested 140000 tokens)" })).toBe(true);
    expect(isContextOverflow({ status: 429, message: "rate limited: too many tokens per minute" })).toBe(false);
    expect(isContextOverflow(new Error("network down"))).toBe(false);
  });
});

describe("settings", () => {
  const known = new ScriptedChatModel({ script: [] });
  it("defaults to 85% / 10% of a known window, else 170,000 tokens / 6 messages; clears old results at half the window", () => {
    expect(resolveSummarizationSettings({ model: known, maxInputTokens: 200_000 })).toEqual({
      triggerTokens: 170_000,
      keep: { tokens: 20_000 },
      window: 200_000,
      clearTokens: 100_000,
    });
    expect(resolveSummarizationSettings({ model: known })).toEqual({
      triggerTokens: 170_000,
      keep: { messages: 6 },
      window: undefined,
      clearTokens: 100_000,
    });
    expect(resolveSummarizationSettings({ model: known, maxInputTokens: 8_000, clearToolResults: false }).clearTokens).toBeUndefined();
    expect(() => resolveSummarizationSettings({ model: known, clearToolResults: { fraction: 0.5 } })).toThrow(
      expect.objectContaining({ code: "invalid_option" }),
    );
  });
  it("rejects a keep that is not clearly below the trigger", () => {
    expect(() => resolveSummarizationSettings({ model: known, trigger: { tokens: 10_000 }, keep: { tokens: 9_000 } })).toThrow(
      expect.objectContaining({ code: "invalid_option" }),
    );
    expect(() =>
      createDeepAgent({ model: known, summarization: { trigger: { fraction: 0.5 }, keep: { fraction: 0.5 }, maxInputTokens: 100_000 } }),
    ).toThrow(/clearly below/);
  });
});

describe("compact_conversation", () => {
  it("answers that there is nothing to compact below half the trigger", async () => {
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "compact_conversation", args: {} }] }, { text: "ok" }] });
    const out = await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("compact")] });
    expect(String(out.messages[2]!.content)).toMatch(
      /^Nothing to compact: the conversation uses about \d+ tokens, below half of the summarization trigger \(170000 tokens\)\.$/,
    );
  });

  it("compacts when asked above half the trigger", async () => {
    const model = new ScriptedChatModel({
      script: agentScript(6, (ctx) => (ctx.call === 6 ? { toolCalls: [{ name: "compact_conversation", args: {} }] } : undefined)),
    });
    const out = await createDeepAgent({
      model,
      tools: [fetchTool],
      // At the ask the view is about 2,200 tokens (above half the trigger) and, with the tools' descriptions (about 1,900),
      // still below the trigger, so no automatic summary comes first.
      summarization: { trigger: { tokens: 4_200 }, keep: { messages: 2 } },
    }).invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "cc" } });
    const result = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m) && m.name === "compact_conversation");
    expect(String(result!.content)).toContain("Conversation compacted");
    expect((out as AgentState)._summarizationEvent).toBeDefined();
  });
});
