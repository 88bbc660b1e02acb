/**
 * The rubric loop in the app's terms: a run's stream becomes grade events and the grader's feedback message, the
 * timeline shows each grade under the answer it graded and the feedback as the grader's (not the person's), and a
 * thread read back from its state shows the same.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../../agent/create-deep-agent.ts";
import { GRADER_RESPONSE } from "../../middleware/rubric-grade.ts";
import { rubricMiddleware } from "../../middleware/rubric.ts";
import { ScriptedChatModel } from "../../models/scripted.ts";
import { applyEvent, beginTurn, emptyLive, type LiveThread } from "../../ui/chat/live.ts";
import { buildTimeline } from "../../ui/chat/timeline.ts";
import { createTranslator } from "./events.ts";
import { gradeInfo, toMessageInfo } from "./messages.ts";
import { threadUsage, withGrades } from "../threads/thread-view.ts";
import { turnUsageText } from "../../ui/chat/turn-usage.ts";
import { readerAgent } from "./agents.ts";
import { StateBackend } from "../../backends/state.ts";

const verdict = (args: Record<string, unknown>) => ({ toolCalls: [{ name: GRADER_RESPONSE, args }] });

describe("the rubric loop in the timeline", () => {
  it("grades show under the answers they graded and the feedback shows as the grader's, live and read back", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "A draft." }, { text: "The final answer." }] });
    const grader = new ScriptedChatModel({
      script: [
        verdict({ result: "needs_revision", explanation: "Too short.", criteria: [{ name: "length", passed: false, gap: "Say more." }] }),
        verdict({ result: "satisfied", explanation: "Good.", criteria: [{ name: "length", passed: true }] }),
      ],
    });
    const checkpointer = new MemorySaver();
    const agent = createDeepAgent({
      model,
      checkpointer,
      middleware: [rubricMiddleware({ model: grader, rubric: "- at least two sentences" })],
    });
    const config = { configurable: { thread_id: "t" } };
    const translator = createTranslator("r", "t");
    let live: LiveThread = beginTurn(emptyLive(), "Explain it.");
    const stream = await agent.stream(
      { messages: [new HumanMessage("Explain it.")] },
      { ...config, streamMode: ["messages", "updates", "custom"] },
    );
    for await (const chunk of stream) for (const event of translator.translate(chunk)) live = applyEvent(live, event);

    const shown = (items: ReturnType<typeof buildTimeline>) =>
      items.map((i) =>
        i.kind === "grade" ? `grade:${i.grade.result}` : i.kind === "grader" ? "grader" : i.kind === "usage" ? "usage" : `${i.kind}`,
      );
    const expected = ["user", "assistant", "grade:needs_revision", "grader", "assistant", "grade:satisfied"];
    expect(shown(buildTimeline(live.messages)).filter((k) => k !== "usage")).toEqual(expected);
    const feedback = buildTimeline(live.messages).find((i) => i.kind === "grader");
    expect(feedback && "text" in feedback ? feedback.text : "").toContain("- length: Say more.");

    // Read back from the thread's state, as the worker's thread view does: through the app's reader agent, which
    // has no grader but must still see the evaluations' channel.
    const reader = readerAgent({ checkpointer, store: undefined, backend: () => (rt) => new StateBackend(rt) });
    const state = await reader.getState(config);
    const messages = (state.values.messages as HumanMessage[]).map(toMessageInfo);
    withGrades(messages, (state.values as Record<string, unknown>)._rubric_evaluations);
    expect(shown(buildTimeline(messages)).filter((k) => k !== "usage")).toEqual(expected);
    expect(messages.find((m) => m.grade?.result === "needs_revision")?.grade?.criteria).toEqual([
      { name: "length", passed: false, gap: "Say more." },
    ]);
    // The grader's feedback does not start a turn of its own: one usage line for the person's one message at most.
    expect(shown(buildTimeline(messages)).filter((k) => k === "usage").length).toBeLessThanOrEqual(1);
  });

  it("takes only well-formed evaluations from the stream or the state", () => {
    expect(gradeInfo({ result: "satisfied", explanation: "ok", criteria: [{ name: "a", passed: true }], iteration: 1 })).toEqual({
      result: "satisfied",
      explanation: "ok",
      criteria: [{ name: "a", passed: true }],
      iteration: 1,
    });
    expect(gradeInfo({ result: "<img src=x onerror=alert(1)>" })).toBeUndefined();
    expect(gradeInfo(null)).toBeUndefined();
    expect(gradeInfo({ result: "failed", criteria: "nope" })).toEqual({ result: "failed", explanation: "", criteria: [], iteration: 0 });
    const messages = [toMessageInfo(new HumanMessage("q"))];
    withGrades(messages, [{ result: "satisfied", afterMessage: 0 }, { result: "satisfied", afterMessage: 5 }, "junk"]);
    // A grade never lands on a message that is not an answer, nor outside the thread.
    expect(messages[0]!.grade).toBeUndefined();
  });

  it("counts the grader's calls in the turn's usage (named on their own) and in the thread's", async () => {
    const model = new ScriptedChatModel({
      script: [
        { text: "A draft.", usage: { input_tokens: 100, output_tokens: 10 } },
        { text: "The final answer.", usage: { input_tokens: 150, output_tokens: 20 } },
      ],
    });
    const grader = new ScriptedChatModel({
      script: [
        { ...verdict({ result: "needs_revision", explanation: "Short.", criteria: [] }), usage: { input_tokens: 40, output_tokens: 4 } },
        { ...verdict({ result: "satisfied", explanation: "Good.", criteria: [] }), usage: { input_tokens: 60, output_tokens: 6 } },
      ],
    });
    const checkpointer = new MemorySaver();
    const agent = createDeepAgent({ model, checkpointer, middleware: [rubricMiddleware({ model: grader, rubric: "- detailed" })] });
    const config = { configurable: { thread_id: "u" } };
    const translator = createTranslator("r", "u");
    let live: LiveThread = beginTurn(emptyLive(), "Explain.");
    const stream = await agent.stream(
      { messages: [new HumanMessage("Explain.")] },
      { ...config, streamMode: ["messages", "updates", "custom"] },
    );
    for await (const chunk of stream) for (const event of translator.translate(chunk)) live = applyEvent(live, event);

    // The turn's usage: on its last answer, or an item of its own after the last grade.
    const turnLine = (items: ReturnType<typeof buildTimeline>) =>
      items.flatMap((i) => (i.kind === "usage" ? [i.usage] : i.kind === "assistant" && i.usage ? [i.usage] : [])).map(turnUsageText);
    const expected = "4 model calls · 350 in · 40 out (grader: 2 calls · 100 in · 10 out)";
    expect(turnLine(buildTimeline(live.messages))).toEqual([expected]);

    const reader = readerAgent({ checkpointer, store: undefined, backend: () => (rt) => new StateBackend(rt) });
    const state = await reader.getState(config);
    const stored = state.values.messages as HumanMessage[];
    const evaluations = (state.values as Record<string, unknown>)._rubric_evaluations as unknown[];
    const messages = stored.map(toMessageInfo);
    withGrades(messages, evaluations);
    expect(turnLine(buildTimeline(messages))).toEqual([expected]);
    expect(threadUsage(stored, { input: 0, output: 0 }, undefined, evaluations.map(gradeInfo))).toEqual({ input: 350, output: 40 });
    // A stored usage that is not plain numbers is dropped, not trusted.
    expect(gradeInfo({ result: "satisfied", usage: { input: "9", output: 1 } })?.usage).toBeUndefined();
  });
});
