import { describe, expect, it } from "vitest";
import type { MessageInfo } from "../../protocol/messages.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import { applyEvent, beginTurn, emptyLive, withEarlier } from "./live.ts";

const user = (content: string, id?: string): MessageInfo => ({ role: "user", content, ...(id ? { id } : {}) });
const ai = (content: string, id: string): MessageInfo => ({ role: "assistant", content, id });

function view(messages: MessageInfo[], todos: ThreadView["todos"] = []): ThreadView {
  return {
    threadId: "t",
    messages,
    todos,
    approval: null,
    model: { provider: "openai-compatible", model: "m", baseUrl: "http://127.0.0.1:9/v1" },
    usage: { input: 0, output: 0 },
    branches: [],
    agent: { id: "general", name: "deeptab" },
  };
}

const contents = (messages: readonly MessageInfo[]) => messages.map((m) => `${m.role}: ${m.content}`);

describe("withEarlier: a message sent before the thread's view loaded", () => {
  const earlier = [user("first", "h1"), ai("first answer", "a1")];

  it("puts the earlier conversation in front of the turn, which keeps running", () => {
    const live = withEarlier(beginTurn(emptyLive(), "second"), view(earlier, [{ content: "plan", status: "pending" }]));
    expect(contents(live.messages)).toEqual(["user: first", "assistant: first answer", "user: second"]);
    expect(live.runId).not.toBeNull();
    expect(live.todos).toEqual([{ content: "plan", status: "pending" }]);
  });

  it("does not repeat what the turn shows already: the stored copy of its message, and messages it streamed", () => {
    let live = beginTurn(emptyLive(), "second");
    live = { ...live, messages: [...live.messages, ai("second answer", "a2")] };
    const merged = withEarlier(live, view([...earlier, user("second", "h2"), ai("second answer", "a2")]));
    expect(contents(merged.messages)).toEqual(["user: first", "assistant: first answer", "user: second", "assistant: second answer"]);
  });

  it("keeps an earlier message with the same text when the view answered it (the same words sent twice)", () => {
    const merged = withEarlier(beginTurn(emptyLive(), "first"), view(earlier));
    expect(contents(merged.messages)).toEqual(["user: first", "assistant: first answer", "user: first"]);
  });
});

describe("applyEvent: steered", () => {
  it("adds a steered message after what is shown, and moves one shown already (a queued run on a server) to where it ran", () => {
    // A turn of two queued messages, the second shown with its queued id; the first one's answer streams.
    let live = beginTurn(emptyLive(), "one");
    live = { ...live, messages: [...live.messages, user("two", "run-2")] };
    live = applyEvent(live, { type: "messages", runId: "run-1", messages: [ai("answer one", "a1")] });
    live = applyEvent(live, { type: "steered", runId: "run-1", ids: ["run-2"], messages: [user("two", "run-2")] });
    live = applyEvent(live, { type: "messages", runId: "run-1", messages: [ai("answer two", "a2")] });
    expect(contents(live.messages)).toEqual(["user: one", "assistant: answer one", "user: two", "assistant: answer two"]);
    // A message steered into the run that was not shown before (the tab's runtime) goes after everything.
    live = applyEvent(live, { type: "steered", runId: "run-1", ids: ["q3"], messages: [user("three", "q3")] });
    expect(contents(live.messages).at(-1)).toBe("user: three");
    expect(live.messages).toHaveLength(5);
  });
});
