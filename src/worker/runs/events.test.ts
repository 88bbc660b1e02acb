import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { TOOL_DURATION_KEY } from "../../core/messages.ts";
import { TOOL_RESULT_EVENT } from "../../harness/loop.ts";
import { ScriptedChatModel } from "../../models/scripted.ts";
import { buildTimeline } from "../../ui/chat/timeline.ts";
import { applyEvent, beginTurn, emptyLive, type LiveThread } from "../../ui/chat/live.ts";
import { evictionStub } from "../../middleware/eviction.ts";
import { EXECUTE_OUTPUT } from "../../middleware/fs-tools.ts";
import { RETRY_EVENT } from "../../middleware/provider-retry.ts";
import { createTranslator, mergeTokens } from "./events.ts";
import { STOPPED_KEY } from "../../protocol/message-marks.ts";
import { toMessageInfo, toPendingApproval } from "./messages.ts";

describe("toMessageInfo", () => {
  it("flattens messages to plain, cloneable data with usage, stop marks, offloads and durations", () => {
    const ai = new AIMessage({
      content: "ok",
      id: "m1",
      tool_calls: [{ id: "c1", name: "ls", args: { path: "/" } }],
      usage_metadata: { input_tokens: 10, output_tokens: 2, total_tokens: 12, input_token_details: { cache_read: 4 } },
    });
    const stopped = new AIMessage({ content: "half", response_metadata: { [STOPPED_KEY]: true } });
    const tool = new ToolMessage({
      content: "x",
      tool_call_id: "c1",
      name: "ls",
      status: "error",
      response_metadata: { evicted_to: "/large_tool_results/c1", [TOOL_DURATION_KEY]: 12 },
    });
    const infos = [toMessageInfo(new HumanMessage("q")), toMessageInfo(ai), toMessageInfo(stopped), toMessageInfo(tool)];
    expect(infos).toEqual([
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "ok",
        id: "m1",
        toolCalls: [{ id: "c1", name: "ls", args: { path: "/" } }],
        usage: { input: 10, output: 2, cacheRead: 4 },
      },
      { role: "assistant", content: "half", stopped: true },
      { role: "tool", content: "x", toolCallId: "c1", name: "ls", status: "error", offloadedTo: "/large_tool_results/c1", durationMs: 12 },
    ]);
    expect(structuredClone(infos)).toEqual(infos);
  });

  it("gives an offloaded result's head and tail from its stub, not the stub's instructions", () => {
    const stub = evictionStub("c9", "/large_tool_results/c9", "     1\tfirst\n... [98 lines truncated] ...\n   100\tlast");
    const info = toMessageInfo(
      new ToolMessage({ content: stub, tool_call_id: "c9", name: "execute", response_metadata: { evicted_to: "/large_tool_results/c9" } }),
    );
    expect(info.offloadedTo).toBe("/large_tool_results/c9");
    expect(info.offloadPreview).toBe("     1\tfirst\n... [98 lines truncated] ...\n   100\tlast");
    expect(info.content).toBe(stub);
  });
});

describe("toPendingApproval", () => {
  it("reads deepagents' interrupt value, the subagent that paused, and defaults missing decisions to all", () => {
    const value = {
      actionRequests: [
        { name: "execute", args: { command: "ls" }, description: "run" },
        { name: "delete", args: { file_path: "/a" } },
      ],
      reviewConfigs: [{ actionName: "execute", allowedDecisions: ["approve", "reject", "bogus"] }],
      subagent: "general-purpose",
      taskId: "t1",
    };
    expect(toPendingApproval(value)).toEqual({
      id: expect.stringMatching(/^task:t1:[0-9a-z]+$/),
      actions: [
        { name: "execute", args: { command: "ls" }, description: "run", allowedDecisions: ["approve", "reject"] },
        { name: "delete", args: { file_path: "/a" }, description: "", allowedDecisions: ["approve", "edit", "reject", "respond"] },
      ],
      subagent: { type: "general-purpose", taskId: "t1" },
    });
    expect(toPendingApproval({ something: 1 })).toBeUndefined();
    expect(toPendingApproval({ actionRequests: [] })).toBeUndefined();
  });

  it("gives each pause an id from its origin and what it asks: other arguments or another task is another id", () => {
    const request = (args: Record<string, unknown>, taskId?: string) =>
      toPendingApproval({
        actionRequests: [{ name: "write_file", args }],
        reviewConfigs: [],
        ...(taskId ? { subagent: "w", taskId } : {}),
      })!.id;
    expect(request({ file_path: "/a" })).toBe(request({ file_path: "/a" }));
    expect(request({ file_path: "/a" })).toMatch(/^main:/);
    expect(request({ file_path: "/b" })).not.toBe(request({ file_path: "/a" }));
    expect(request({ file_path: "/a" }, "tA")).not.toBe(request({ file_path: "/a" }, "tB"));
  });
});

describe("createTranslator", () => {
  it("turns updates into messages, todos and summaries, and chunks into tokens", () => {
    const t = createTranslator("r", "t");
    const call = { id: "c1", name: "write_file", args: { file_path: "/a" } };
    const ai = new AIMessage({ content: "", id: "m0", tool_calls: [call] });
    expect(t.translate(["updates", { model: { messages: [ai] } }])).toEqual([
      { type: "messages", runId: "r", messages: [{ role: "assistant", content: "", id: "m0", toolCalls: [call] }] },
    ]);
    const result = new ToolMessage({ content: "done", tool_call_id: "c1", name: "write_file" });
    const todos = [{ content: "plan", status: "in_progress" }];
    expect(t.translate(["updates", { tools: [{ messages: [result], files: {}, todos }] }])).toEqual([
      {
        type: "messages",
        runId: "r",
        messages: [{ role: "tool", content: "done", toolCallId: "c1", name: "write_file", status: "success" }],
      },
      { type: "todos", runId: "r", todos },
    ]);
    const summary = { cutoffIndex: 4, filePath: "/conversation_history/t.md", summaryMessage: new HumanMessage("s"), createdAtLength: 6 };
    expect(t.translate(["updates", { model: { _summarizationEvent: summary } }])).toEqual([
      { type: "summarized", runId: "r", historyPath: "/conversation_history/t.md", cutoff: 4 },
    ]);
    expect(t.translate(["messages", [new AIMessageChunk({ content: "He", id: "m1" }), { langgraph_node: "model" }]])).toEqual([
      { type: "token", runId: "r", messageId: "m1", text: "He", chunks: 1 },
    ]);
    expect(t.partial).toBe("He");
    expect(t.translate(["messages", [new AIMessageChunk({ content: "x" }), { deeptab_task_id: "task1" }]])).toEqual([
      { type: "token", runId: "r", text: "x", chunks: 1, taskId: "task1" },
    ]);
    expect(t.partial).toBe("He");
    expect(t.translate(["messages", [result, {}]])).toEqual([]);
    expect(t.translate(["messages", [result, { deeptab_task_id: "task1" }]])).toEqual([
      {
        type: "messages",
        runId: "r",
        taskId: "task1",
        messages: [{ role: "tool", content: "done", toolCallId: "c1", name: "write_file", status: "success" }],
      },
    ]);
    expect(t.translate(["updates", { before_agent: {} }])).toEqual([]);
    t.translate(["updates", { model: { messages: [new AIMessage({ content: "Hello", id: "m1" })] } }]);
    expect(t.partial).toBe("");
    expect(t.interrupted).toBe(false);
  });

  it("reports command output and retries from custom events", () => {
    const t = createTranslator("r", "t");
    expect(t.translate(["custom", { type: EXECUTE_OUTPUT, toolCallId: "c1", chunk: "hi\n" }])).toEqual([
      { type: "tool_output", runId: "r", toolCallId: "c1", chunk: "hi\n" },
    ]);
    expect(
      t.translate(["custom", { type: RETRY_EVENT, attempt: 1, maxAttempts: 4, waitMs: 1000, kind: "rate_limit", status: 429 }]),
    ).toEqual([{ type: "retry", runId: "r", attempt: 1, maxAttempts: 4, waitMs: 1000, kind: "rate_limit", status: 429 }]);
    expect(t.translate(["custom", { type: "other" }])).toEqual([]);
  });

  it("reports a tool call's result as soon as it finishes, for the run's own thread only", () => {
    const t = createTranslator("r", "t");
    const result = new ToolMessage({ content: "report", tool_call_id: "c1", name: "task", id: "tm1" });
    expect(t.translate(["custom", { type: TOOL_RESULT_EVENT, threadId: "t", message: result }])).toEqual([
      {
        type: "messages",
        runId: "r",
        messages: [{ role: "tool", content: "report", id: "tm1", toolCallId: "c1", name: "task", status: "success" }],
      },
    ]);
    // A subagent's (its own thread), or something that is not a tool result: nothing at the top level.
    expect(t.translate(["custom", { type: TOOL_RESULT_EVENT, threadId: "t::c1", message: result }])).toEqual([]);
    expect(t.translate(["custom", { type: TOOL_RESULT_EVENT, threadId: "t", message: "report" }])).toEqual([]);
  });

  it("reports an approval interrupt and remembers it; a subagent's finished model call becomes its message", () => {
    const t = createTranslator("r", "t");
    const events = t.translate([
      "updates",
      { __interrupt__: [{ id: "i1", value: { actionRequests: [{ name: "write_file", args: {} }] } }] },
    ]);
    expect(events).toEqual([
      {
        type: "interrupt",
        runId: "r",
        approval: {
          id: expect.stringMatching(/^main:/),
          actions: [{ name: "write_file", args: {}, description: "", allowedDecisions: ["approve", "edit", "reject", "respond"] }],
        },
      },
    ]);
    expect(t.interrupted).toBe(true);
    expect(t.approval?.actions[0]?.name).toBe("write_file");
    expect(t.childMessage("task1", new AIMessage({ content: "found it" }))).toEqual([
      { type: "messages", runId: "r", taskId: "task1", messages: [{ role: "assistant", content: "found it" }] },
    ]);
  });
});

describe("parallel subagents, each with its own status", () => {
  it("the quick subagent's task card is done while the slow one still runs; the step's update then replaces the early result", async () => {
    const lastHuman = (messages: readonly { getType(): string; text: string }[]) => messages.findLast((m) => m.getType() === "human")?.text;
    const model = new ScriptedChatModel({
      script: ({ messages }) => {
        const asked = lastHuman(messages);
        if (asked === "quick job") return { text: "quick done" };
        if (asked === "slow job") return { text: "slow done", delayMs: 1_500 };
        if (messages.some((m) => ToolMessage.isInstance(m))) return { text: "both done" };
        return {
          toolCalls: [
            { name: "task", id: "quick", args: { description: "quick job", subagent_type: "general-purpose" } },
            { name: "task", id: "slow", args: { description: "slow job", subagent_type: "general-purpose" } },
          ],
        };
      },
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    const t = createTranslator("r", "p");
    let live: LiveThread = beginTurn(emptyLive(), "go");
    const statuses = () =>
      buildTimeline(live.messages, { running: true }).flatMap((i) => (i.kind === "tool" ? [`${i.call.args.description}:${i.status}`] : []));
    /** The cards' statuses after each stream chunk (a chunk's events all applied), when they changed, and when. */
    const seen: Array<{ cards: string[]; at: number; slowAnswered: boolean }> = [];
    const stream = await agent.stream(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "p" }, streamMode: ["messages", "updates", "custom"] },
    );
    for await (const chunk of stream) {
      for (const event of t.translate(chunk)) live = applyEvent(live, event);
      const cards = statuses();
      if (cards.length && cards.join() !== seen.at(-1)?.cards.join())
        seen.push({ cards, at: performance.now(), slowAnswered: Boolean(live.children.slow?.text) });
    }
    expect(seen.map((s) => s.cards)).toEqual([
      ["quick job:running", "slow job:running"],
      // The quick one finished: its card is done while the slow one runs on (its subagent has not answered yet).
      ["quick job:done", "slow job:running"],
      ["quick job:done", "slow job:done"],
    ]);
    expect(seen[1]!.slowAnswered).toBe(false);
    // Done as it finished, not when its sibling did (the slow subagent waits 1.5 s before answering).
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThan(1_000);
    // One result per call in the end: the step's update replaced the early ones (same ids), nothing doubled.
    const results = live.messages.filter((m) => m.role === "tool");
    expect(results.map((m) => [m.toolCallId, m.content])).toEqual([
      ["quick", "quick done"],
      ["slow", "slow done"],
    ]);
    expect(results.every((m) => typeof m.id === "string" && typeof m.durationMs === "number")).toBe(true);
    expect(results[0]!.durationMs!).toBeLessThan(results[1]!.durationMs!);
    expect(live.messages.at(-1)).toMatchObject({ role: "assistant", content: "both done" });
  });
});

describe("summarization", () => {
  it("the summary the model writes is not streamed as the answer; the answer after it is", async () => {
    const model = new ScriptedChatModel({
      script: [{ text: "word ".repeat(3_000) }, { text: "SUMMARY OF THE EARLIER TALK" }, { text: "The short answer." }],
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver(), summarization: { maxInputTokens: 4_000 } });
    const config = { configurable: { thread_id: "s" } };
    await agent.invoke({ messages: [new HumanMessage("write a lot")] }, config);
    const t = createTranslator("r", "s");
    const events = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("and now?")] },
      { ...config, streamMode: ["messages", "updates", "custom"] },
    ))
      events.push(...t.translate(chunk));
    // The summary was written (the model got its request), and the turn was summarized.
    expect(model.calls).toHaveLength(3);
    expect(events.some((e) => e.type === "summarized")).toBe(true);
    const streamed = events.flatMap((e) => (e.type === "token" ? [e.text] : [])).join("");
    expect(streamed).toBe("The short answer.");
    expect(t.partial).toBe("");
  });
});

describe("mergeTokens", () => {
  it("merges tokens of one message only", () => {
    const a = { type: "token" as const, runId: "r", messageId: "m", text: "a", chunks: 1 };
    expect(mergeTokens(a, { ...a, text: "b" })).toEqual({ ...a, text: "ab", chunks: 2 });
    expect(mergeTokens(a, { ...a, messageId: "n" })).toBeUndefined();
    expect(mergeTokens(a, { ...a, taskId: "s" })).toBeUndefined();
  });
});
