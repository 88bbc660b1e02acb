import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { messageText, transcriptText } from "./messages.ts";

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
