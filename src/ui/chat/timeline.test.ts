import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../protocol/events.ts";
import type { MessageInfo } from "../../protocol/messages.ts";
import { applyEvent, beginTurn, emptyLive, failTurn } from "./live.ts";
import { buildTimeline, callKey, pairResults } from "./timeline.ts";
import { turnUsage, turnUsageText } from "./turn-usage.ts";

const user = (content: string): MessageInfo => ({ role: "user", content });
const ai = (content: string, calls: Array<[string, string]> = [], id?: string): MessageInfo => ({
  role: "assistant",
  content,
  ...(id ? { id } : {}),
  ...(calls.length ? { toolCalls: calls.map(([callId, name]) => ({ id: callId, name, args: { file_path: `/${name}` } })) } : {}),
});
const tool = (toolCallId: string, name: string, content = "ok", status: "success" | "error" = "success"): MessageInfo => ({
  role: "tool",
  content,
  toolCallId,
  name,
  status,
});

describe("pairResults", () => {
  it("pairs by id, then in order: a provider that repeats call_0 still pairs each result with its call", () => {
    const calls = [
      { id: "call_0", name: "ls", args: {} },
      { id: "call_0", name: "ls", args: {} },
    ];
    const paired = pairResults(calls, [tool("call_0", "ls", "first"), tool("call_0", "ls", "second")]);
    expect(paired.map((p) => p?.content)).toEqual(["first", "second"]);
    // A subagent's raw ids differ from its results' ids: order and name decide.
    const raw = [
      { id: "a", name: "write_file", args: {} },
      { id: "b", name: "read_file", args: {} },
    ];
    expect(pairResults(raw, [tool("a_0", "write_file", "w"), tool("b_0", "read_file", "r")]).map((p) => p?.content)).toEqual(["w", "r"]);
  });
});

describe("buildTimeline", () => {
  it("shows turns and one card per call, with statuses; repeated ids across turns stay separate", () => {
    const messages = [
      user("hello"),
      ai("", [["call_0", "write_file"]]),
      tool("call_0", "write_file"),
      ai("saved"),
      user("again"),
      ai("", [["call_0", "write_file"]]),
      tool("call_0", "write_file", "boom", "error"),
      ai("failed"),
    ];
    const items = buildTimeline(messages);
    expect(items.map((i) => i.kind)).toEqual(["user", "tool", "assistant", "user", "tool", "assistant"]);
    expect(items.filter((i) => i.kind === "tool").map((i) => (i.kind === "tool" ? [i.index, i.status, i.result] : []))).toEqual([
      [1, "done", "ok"],
      [5, "error", "boom"],
    ]);
  });

  it("carries a replayed turn's demo to its user message, and only there", () => {
    const replay = { file: "demos/a.json", title: "A", model: "gpt-4.1", scripted: false };
    const items = buildTimeline([{ ...user("go"), replay }, ai("done"), user("again"), ai("ok")]);
    expect(items.filter((i) => i.kind === "user").map((i) => (i.kind === "user" ? i.replay : null))).toEqual([replay, undefined]);
  });

  it("carries a tool's images to its card", () => {
    const images = [{ mimeType: "image/png", data: "iVBORw0KGgo=" }];
    const items = buildTimeline([user("look"), ai("", [["c1", "t__image"]]), { ...tool("c1", "t__image", "a pixel"), images }, ai("red")]);
    const card = items.find((i) => i.kind === "tool");
    expect(card?.kind === "tool" && card.images).toEqual(images);
  });

  it("carries where a cleared result's note points to its card, and only that card", () => {
    const cleared = { ...tool("c1", "read_file", "x".repeat(3_000)), clearedTo: "/large_tool_results/c1" };
    const items = buildTimeline([
      user("go"),
      ai("", [["c1", "read_file"]]),
      cleared,
      ai("", [["c2", "read_file"]]),
      tool("c2", "read_file"),
    ]);
    const cards = items.filter((i) => i.kind === "tool");
    expect(cards.map((c) => c.kind === "tool" && c.clearedTo)).toEqual(["/large_tool_results/c1", undefined]);
    // The card still has the whole result: the page shows what the tool returned.
    expect(cards[0]?.kind === "tool" && cards[0].result).toHaveLength(3_000);
  });

  it("marks a call answered at an approval Responded or Rejected, not Done or Error: the tool did not run", () => {
    const messages = [
      user("run it"),
      ai("", [
        ["c1", "execute"],
        ["c2", "execute"],
        ["c3", "execute"],
      ]),
      { ...tool("c1", "execute", "It is already built."), decision: "respond" as const },
      { ...tool("c2", "execute", "Not now.", "error"), decision: "reject" as const },
      tool("c3", "execute", "ok\n[Command succeeded with exit code 0]"),
    ];
    const items = buildTimeline(messages).flatMap((i) => (i.kind === "tool" ? [[i.status, i.result]] : []));
    // The model-facing text stays the card's result.
    expect(items).toEqual([
      ["responded", "It is already built."],
      ["rejected", "Not now."],
      ["done", "ok\n[Command succeeded with exit code 0]"],
    ]);
  });

  it("marks unanswered calls running, waiting or cancelled, adds streaming and interrupted text, and the summary marker", () => {
    const messages = [
      user("go"),
      ai("", [
        ["c1", "execute"],
        ["c2", "delete"],
      ]),
    ];
    const running = buildTimeline(messages, { running: true, outputs: { c1: "partial output" }, streamingText: "Thinking" });
    expect(running.filter((i) => i.kind === "tool").map((i) => (i.kind === "tool" ? [i.status, i.output] : []))).toEqual([
      ["running", "partial output"],
      ["running", undefined],
    ]);
    expect(running.at(-1)).toMatchObject({ kind: "assistant", text: "Thinking", streaming: true });
    const paused = buildTimeline(messages, { waiting: new Set([callKey(1, 1)]) });
    expect(paused.filter((i) => i.kind === "tool").map((i) => (i.kind === "tool" ? i.status : ""))).toEqual(["cancelled", "waiting"]);
    const cut = buildTimeline([user("a"), ai("b"), user("c")], {
      interruptedText: "Half",
      summary: { cutoff: 2, historyPath: "/conversation_history/t.md" },
    });
    expect(cut.map((i) => i.kind)).toEqual(["user", "assistant", "summary", "user", "assistant"]);
    expect(cut.at(-1)).toMatchObject({ text: "Half", interrupted: true });
  });

  it("a call the user stopped shows Stopped and one cut off shows Cancelled, never the note written for the model", () => {
    const note = "Tool call task with id t1 was cancelled - another message came in before it could be completed.";
    const items = buildTimeline([
      user("go"),
      ai("", [
        ["t1", "task"],
        ["c2", "ls"],
        ["c3", "read_file"],
      ]),
      { ...tool("t1", "task", note, "error"), stopped: true },
      tool("c2", "ls", "a.md"),
      { ...tool("c3", "read_file", note.replace("task with id t1", "read_file with id c3"), "error"), cancelled: true },
    ]);
    const cards = items.filter((i) => i.kind === "tool");
    expect(cards.map((i) => [i.status, i.result])).toEqual([
      ["stopped", undefined],
      ["done", "a.md"],
      ["cancelled", undefined],
    ]);
  });

  it("an answer a failure cut off shows what arrived, marked", () => {
    const items = buildTimeline([user("go"), { ...ai("The first part"), cutOff: true }]);
    expect(items.at(-1)).toMatchObject({ kind: "assistant", text: "The first part", cutOff: true });
  });

  it("nests a subagent's activity under its task card, from the view or from live events", () => {
    const call = { id: "t1", name: "task", args: { subagent_type: "general-purpose", description: "look" } };
    const done: MessageInfo[] = [
      user("research"),
      { role: "assistant", content: "", toolCalls: [{ ...call, children: [ai("", [["x", "ls"]]), tool("x_0", "ls"), ai("found")] }] },
      tool("t1", "task", "found"),
    ];
    const [, card] = buildTimeline(done);
    expect(card).toMatchObject({ kind: "tool", status: "done" });
    expect(card?.kind === "tool" && card.children?.map((c) => c.kind)).toEqual(["tool", "assistant"]);
    const live = buildTimeline([user("research"), { role: "assistant", content: "", toolCalls: [call] }], {
      running: true,
      children: { t1: { messages: [ai("", [["y", "read_file"]])], text: "Reading" } },
    });
    const nested = live[1]?.kind === "tool" ? live[1].children : undefined;
    expect(nested?.map((c) => [c.kind, c.kind === "tool" ? c.status : c.kind === "assistant" ? c.text : ""])).toEqual([
      ["tool", "running"],
      ["assistant", "Reading"],
    ]);
  });
});

describe("usage per turn", () => {
  const used = (m: MessageInfo, input: number, output: number, cacheRead?: number): MessageInfo => ({
    ...m,
    usage: { input, output, ...(cacheRead !== undefined ? { cacheRead } : {}) },
  });
  const task = (id: string, children?: MessageInfo[]): MessageInfo => ({
    role: "assistant",
    content: "",
    toolCalls: [{ id, name: "task", args: { subagent_type: "general-purpose", description: "look" }, ...(children ? { children } : {}) }],
  });

  it("sums every model call of the turn, tool-only ones and subagents' included, under its last answer", () => {
    const messages = [
      user("first"),
      used(ai("", [["c1", "ls"]]), 100, 10),
      tool("c1", "ls"),
      used(ai("one"), 200, 20, 150),
      user("second"),
      used(task("t1", [used(ai("", [["x", "ls"]]), 50, 5, 40), tool("x_0", "ls"), used(ai("sub answer"), 60, 6)]), 300, 30),
      tool("t1", "task", "sub answer"),
      used(ai("two"), 400, 40, 300),
    ];
    const items = buildTimeline(messages);
    const answers = items.filter((i) => i.kind === "assistant");
    expect(answers.map((a) => a.kind === "assistant" && a.usage)).toEqual([
      { input: 300, output: 30, cacheRead: 150, calls: 2 },
      { input: 810, output: 81, cacheRead: 340, calls: 4, subagents: { input: 110, output: 11, cacheRead: 40, calls: 2 } },
    ]);
    expect(answers.map((a) => a.kind === "assistant" && turnUsageText(a.usage!))).toEqual([
      "2 model calls · 300 in · 30 out · 150 cached",
      "4 model calls · 810 in · 81 out · 340 cached (subagents: 2 calls · 110 in · 11 out · 40 cached)",
    ]);
    // The subagent's own answers show no usage of their own: it is counted in the turn.
    const card = items.find((i) => i.kind === "tool" && i.call.name === "task");
    expect(card?.kind === "tool" && card.children?.some((c) => c.kind === "assistant" && c.usage)).toBe(false);
  });

  it(
    "a turn without answer text (paused, or cut off) gets a usage item after its last card; " + "live subagent calls count while it runs",
    () => {
      const paused = buildTimeline([user("go"), used(ai("", [["c1", "execute"]]), 120, 12)], { waiting: new Set([callKey(1, 0)]) });
      expect(paused.map((i) => i.kind)).toEqual(["user", "tool", "usage"]);
      expect(paused.at(-1)).toMatchObject({ kind: "usage", usage: { input: 120, output: 12, calls: 1 } });

      const running = buildTimeline([user("go"), used(task("t1"), 100, 10)], {
        running: true,
        children: { t1: { messages: [used(ai("", [["y", "ls"]]), 40, 4)], text: "Looking" } },
      });
      expect(running.at(-1)).toMatchObject({ kind: "usage", usage: { input: 140, output: 14, calls: 2, subagents: { calls: 1 } } });
      // Streaming text ends the turn: the usage so far shows under it.
      const streaming = buildTimeline([user("go"), used(ai("", [["c1", "ls"]]), 10, 1), tool("c1", "ls")], {
        running: true,
        streamingText: "Al",
      });
      expect(streaming.at(-1)).toMatchObject({ kind: "assistant", streaming: true, usage: { input: 10, output: 1, calls: 1 } });
      // No reported usage: nothing shown.
      expect(buildTimeline([user("go"), ai("hi")]).some((i) => i.kind === "usage" || (i.kind === "assistant" && i.usage))).toBe(false);
      expect(turnUsage([user("go"), ai("hi")], () => [])).toBeUndefined();
    },
  );
});

describe("the live reducer", () => {
  type WithoutRun<T> = T extends unknown ? Omit<T, "runId"> : never;
  const ev = (e: WithoutRun<AgentEvent>): AgentEvent => ({ ...e, runId: "r" }) as AgentEvent;

  it("streams tokens, replaces them by the message, upserts re-emitted AI messages by id, and ends", () => {
    let live = beginTurn(emptyLive(), "hi");
    expect(live.messages).toEqual([user("hi")]);
    live = applyEvent(live, ev({ type: "token", text: "Hel", chunks: 1, messageId: "m1" }));
    live = applyEvent(live, ev({ type: "token", text: "lo", chunks: 1, messageId: "m1" }));
    expect(live).toMatchObject({ runId: "r", streaming: "Hello" });
    live = applyEvent(live, ev({ type: "messages", messages: [ai("", [["c", "delete"]], "m0")] }));
    live = applyEvent(
      live,
      ev({
        type: "messages",
        messages: [{ ...ai("", [["c", "delete"]], "m0"), toolCalls: [{ id: "c", name: "delete", args: { file_path: "/b" } }] }],
      }),
    );
    expect(live.messages).toHaveLength(2);
    expect(live.messages[1]!.toolCalls![0]!.args).toEqual({ file_path: "/b" });
    live = applyEvent(live, ev({ type: "messages", messages: [ai("Hello", [], "m1")] }));
    expect(live).toMatchObject({ streaming: "", finished: "Hello" });
    live = applyEvent(live, ev({ type: "tool_output", toolCallId: "c", chunk: "a" }));
    live = applyEvent(live, ev({ type: "tool_output", toolCallId: "c", chunk: "b" }));
    expect(live.outputs).toEqual({ c: "ab" });
    live = applyEvent(live, ev({ type: "retry", attempt: 1, maxAttempts: 4, waitMs: 1000, kind: "rate_limit", status: 429 }));
    expect(live.retry?.status).toBe(429);
    live = applyEvent(live, ev({ type: "done", status: "complete" }));
    expect(live).toMatchObject({ runId: null, retry: null });
    // Events of another run are ignored.
    expect(applyEvent(live, ev({ type: "token", text: "x", chunks: 1 }))).toBe(live);
  });

  it("keeps subagent activity apart, and a refused message leaves the list as it was", () => {
    let live = beginTurn(emptyLive(), "research");
    live = applyEvent(live, ev({ type: "token", text: "Look", chunks: 1, taskId: "t1" }));
    live = applyEvent(live, ev({ type: "messages", taskId: "t1", messages: [ai("Looked")] }));
    expect(live.children.t1).toMatchObject({ messages: [ai("Looked")], text: "" });
    expect(live.streaming).toBe("");
    // A subagent's model call retried (its connection dropped): the new stream replaces the old one's text.
    live = applyEvent(live, ev({ type: "token", text: "Half ", chunks: 1, taskId: "t1", messageId: "a1" }));
    live = applyEvent(live, ev({ type: "token", text: "an", chunks: 1, taskId: "t1", messageId: "a1" }));
    live = applyEvent(live, ev({ type: "token", text: "Whole", chunks: 1, taskId: "t1", messageId: "a2" }));
    expect(live.children.t1?.text).toBe("Whole");
    const refused = failTurn(beginTurn(emptyLive(), "x"), { name: "StartError", code: "awaiting_approval", message: "wait" }, true);
    expect(refused).toMatchObject({ messages: [], runId: null, error: { code: "awaiting_approval" } });
  });

  it("shows a run's status until its text, its model call's message, a retry or its end; a subagent's message leaves it", () => {
    let live = beginTurn(emptyLive(), "hi");
    // The first status names the run while it is starting (loading a model comes before the run id does).
    live = applyEvent(live, ev({ type: "status", phase: "loading_model", progress: 0.5 }));
    expect(live).toMatchObject({ runId: "r", status: { phase: "loading_model", progress: 0.5 } });
    live = applyEvent(live, ev({ type: "status", phase: "reading_prompt", progress: 0.2, tokens: 900 }));
    live = applyEvent(live, ev({ type: "messages", taskId: "t1", messages: [ai("child")] }));
    expect(live.status).toMatchObject({ phase: "reading_prompt", tokens: 900 });
    live = applyEvent(live, ev({ type: "token", text: "He", chunks: 1, messageId: "m1" }));
    expect(live.status).toBeNull();
    live = applyEvent(live, ev({ type: "status", phase: "waiting" }));
    live = applyEvent(live, ev({ type: "messages", messages: [ai("", [["c", "ls"]], "m2")] }));
    expect(live.status).toBeNull();
    live = applyEvent(live, ev({ type: "status", phase: "waiting" }));
    live = applyEvent(live, ev({ type: "retry", attempt: 1, maxAttempts: 4, waitMs: 1000, kind: "server" }));
    expect(live.status).toBeNull();
    live = applyEvent(live, ev({ type: "status", phase: "waiting" }));
    expect(applyEvent(live, ev({ type: "done", status: "complete" })).status).toBeNull();
    expect(applyEvent(live, ev({ type: "error", error: { name: "Error", message: "x" } })).status).toBeNull();
    expect(beginTurn(live).status).toBeNull();
  });
});

describe("workspace notes in the timeline", () => {
  it("shows a rewind's or a revert's note as a note of its own, in the turn before it (not a turn of the person's)", () => {
    const note: MessageInfo = { role: "user", content: "[Workspace note] The person reverted these files", note: true };
    const items = buildTimeline([user("go"), ai("done"), note, user("next"), ai("ok")]);
    expect(items.map((i) => i.kind)).toEqual(["user", "assistant", "note", "user", "assistant"]);
    expect(items[2]).toEqual({ kind: "note", index: 2, text: note.content });
  });
});
