import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { copyToolMessage, isSteered, messageText, queuedUserMessage, STEERED_KEY, transcriptText } from "./messages.ts";

describe("message text", () => {
  it("is the text blocks for the model, and every block (as JSON) for the history transcript", () => {
    const content = [
      { type: "text" as const, text: "Look at " },
      { type: "image_url" as const, image_url: { url: "data:image/png;base64,AAAA" } },
      { type: "text" as const, text: "this." },
    ];
    const message = new HumanMessage({ content });
    expect(messageText(message)).toBe("Look at this.");
    expect(transcriptText(message)).toBe(JSON.stringify(content));
    expect(JSON.parse(transcriptText(message))).toEqual(content);

    const plain = new AIMessage("plain answer");
    expect(messageText(plain)).toBe("plain answer");
    expect(transcriptText(plain)).toBe("plain answer");
  });
});

describe("copyToolMessage", () => {
  it("replaces what it is given and keeps every other field", () => {
    const kept = {
      tool_call_id: "call_0",
      name: "read_file",
      status: "error" as const,
      id: "m1",
      artifact: { raw: true },
      additional_kwargs: { extra: 1 },
      response_metadata: { evicted_to: "/large_tool_results/call_0" },
    };
    const original = new ToolMessage({ content: "x".repeat(5_000), ...kept });
    const copy = copyToolMessage(original, { content: "a note" });
    expect(copy).not.toBe(original);
    expect(copy.content).toBe("a note");
    expect(original.content).toHaveLength(5_000);
    expect(copy).toMatchObject(kept);
    // Fields a message does not have stay absent.
    const bare = copyToolMessage(new ToolMessage({ content: "r", tool_call_id: "c" }));
    expect(bare.name).toBeUndefined();
    expect(bare.id).toBeUndefined();
    expect(bare.artifact).toBeUndefined();
  });
});

describe("queuedUserMessage", () => {
  it("is the queued text as a user message with the queued id, marked steered only when it lands inside a turn", () => {
    const steered = queuedUserMessage({ id: "q1", text: "use tabs" }, true);
    expect(HumanMessage.isInstance(steered)).toBe(true);
    expect(steered).toMatchObject({ id: "q1", content: "use tabs", additional_kwargs: { [STEERED_KEY]: true } });
    expect(isSteered(steered)).toBe(true);
    const starting = queuedUserMessage({ id: "q2", text: "then this" }, false);
    expect(starting).toMatchObject({ id: "q2", content: "then this" });
    expect(isSteered(starting)).toBe(false);
    expect(starting.additional_kwargs).toEqual({});
  });
});
