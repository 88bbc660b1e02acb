/**
 * The conversation's state without the app (Chromium, for the runes), over a fixed Chat: the newest items only
 * until "Show earlier", an unanswered or cut-off last message (not while a run goes on), the retry notice, the model
 * chip, the todos' progress, the announcement once a run ends, and starter prompts told apart when repeated.
 */
import { describe, expect, it } from "vitest";
import type { MessageInfo, Todo } from "../../protocol/messages.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import { SERVER_AGENT_PREFIX } from "../../page/langgraph-runtime.ts";
import { Conversation, EARLIER_STEP, type ConversationSource } from "./conversation.svelte.ts";
import { emptyLive, type LiveThread } from "./live.ts";

const user = (content: string): MessageInfo => ({ role: "user", content });
const ai = (content: string, more: Partial<MessageInfo> = {}): MessageInfo => ({ role: "assistant", content, ...more });

function conversationOf(live: Partial<LiveThread>, running = false, view: Partial<ThreadView> | null = null): Conversation {
  const source: ConversationSource = { live: { ...emptyLive(), ...live }, running, view: view as ThreadView | null };
  return new Conversation(source);
}

describe("the conversation", () => {
  it("renders the newest items, and Show earlier adds the older ones a step at a time", () => {
    const messages = Array.from({ length: EARLIER_STEP + 30 }, (_, i) => (i % 2 ? ai(`answer ${i}`) : user(`question ${i}`)));
    const conversation = conversationOf({ messages });
    expect(conversation.items.length).toBe(EARLIER_STEP + 30);
    expect(conversation.visible.length).toBe(EARLIER_STEP);
    expect(conversation.visible.at(-1)).toBe(conversation.items.at(-1));
    expect(conversation.earlier).toBe(30);
    conversation.showEarlier();
    expect([conversation.visible.length, conversation.earlier]).toEqual([EARLIER_STEP + 30, 0]);
  });

  it("sees a last message without an answer, or an answer cut off, only while nothing runs", () => {
    expect(conversationOf({ messages: [user("hi")] }).unanswered).toBe(true);
    expect(conversationOf({ messages: [user("hi")] }, true).unanswered).toBe(false);
    expect(conversationOf({ messages: [user("hi"), ai("he")] }).unanswered).toBe(false);
    expect(conversationOf({ messages: [user("hi"), ai("he", { cutOff: true })] }).cutOff).toBe(true);
    expect(conversationOf({ messages: [user("hi"), ai("he", { cutOff: true })] }, true).cutOff).toBe(false);
  });

  it("words the retry notice and the model chip, and knows a server's thread", () => {
    const retrying = conversationOf(
      { retry: { type: "retry", runId: "r", attempt: 0, maxAttempts: 3, waitMs: 1_500, kind: "network" } },
      true,
    );
    expect(retrying.retryText).toBe("Network failure: retrying in 2 s (attempt 1 of 3).");
    expect(conversationOf({}).retryText).toBe("");
    expect(conversationOf({}).modelLabel).toBe("");
    const demo = conversationOf({}, false, { model: { provider: "demo", model: "scripted" } });
    expect([demo.modelLabel, demo.onServer]).toEqual(["Demo · scripted", false]);
    const server = conversationOf({}, false, {
      model: { provider: "openai", model: "gpt" },
      agent: { id: `${SERVER_AGENT_PREFIX}agent`, name: "A" },
    } as Partial<ThreadView>);
    expect(server.onServer).toBe(true);
  });

  it("counts the todos done, and announces the finished answer as plain words once the run ends", () => {
    const todos: Todo[] = [
      { content: "a", status: "completed" },
      { content: "b", status: "in_progress" },
    ];
    expect(conversationOf({ todos }).todosLabel).toBe("Todos 1/2");
    expect(conversationOf({}).todosLabel).toBe("Todos");
    expect(conversationOf({ finished: "**Done**, see [the file](https://example.com)." }).announced).toBe("Done, see the file.");
    expect(conversationOf({ finished: "**Done**" }, true).announced).toBe("");
  });

  it("puts a starter prompt in the message box, the same one twice as two prompts", () => {
    const conversation = conversationOf({});
    conversation.suggest("Plan a trip");
    const first = conversation.prefill;
    conversation.suggest("Plan a trip");
    expect(first).toEqual({ text: "Plan a trip", seq: 1 });
    expect(conversation.prefill).toEqual({ text: "Plan a trip", seq: 2 });
  });

  it("adds a command shared from the terminal after the draft", () => {
    const conversation = conversationOf({});
    conversation.suggest("Look at this:");
    conversation.share("I ran this in the terminal (exit code 0):");
    expect(conversation.prefill).toEqual({ text: "I ran this in the terminal (exit code 0):", seq: 2, append: true });
  });
});
