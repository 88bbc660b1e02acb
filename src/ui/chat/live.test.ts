import { describe, expect, it } from "vitest";
import type { MessageInfo } from "../../protocol/messages.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import { beginTurn, emptyLive, withEarlier } from "./live.ts";

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
