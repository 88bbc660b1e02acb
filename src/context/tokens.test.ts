import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../models/scripted.ts";
import { maxInputTokens, windowForModelName } from "./model-windows.ts";
import { countRequestTokens, estimateMessageTokens } from "./tokens.ts";

describe("token counting", () => {
  it("estimates chars/4 plus overhead, counting tool-call arguments", () => {
    expect(estimateMessageTokens(new HumanMessage("x".repeat(400)))).toBe(104);
    const ai = new AIMessage({
      content: "",
      tool_calls: [{ id: "1", name: "write_file", args: { content: "y".repeat(396) }, type: "tool_call" }],
    });
    expect(estimateMessageTokens(ai)).toBeGreaterThan(100);
  });

  it("uses the provider's usage for the prefix and estimates only what came after", () => {
    const reported = new AIMessage({ content: "ok", usage_metadata: { input_tokens: 50_000, output_tokens: 200, total_tokens: 50_200 } });
    const after = new ToolMessage({ content: "z".repeat(4_000), tool_call_id: "1" });
    const history = [new HumanMessage("x".repeat(400_000)), reported, after];
    expect(countRequestTokens(history, 0)).toBe(50_200 + estimateMessageTokens(after));
    // Usage older than `trustFrom` (made before a summarization) is ignored.
    expect(countRequestTokens(history, 10, 2)).toBe(10 + history.reduce((n, m) => n + estimateMessageTokens(m), 0));
  });
});

describe("model windows", () => {
  it("prefers the LangChain profile, then deeptab's table, overridable by prefix match", () => {
    expect(windowForModelName("claude-sonnet-4-5-20250929")).toBe(200_000);
    expect(windowForModelName("openai/gpt-4o-mini")).toBe(128_000);
    expect(windowForModelName("unknown-model")).toBeUndefined();
    const withProfile = Object.assign(new ScriptedChatModel({ script: [] }), { model: "gpt-4o" });
    Object.defineProperty(withProfile, "profile", { value: { maxInputTokens: 99_000 } });
    expect(maxInputTokens(withProfile)).toBe(99_000);
    expect(maxInputTokens(Object.assign(new ScriptedChatModel({ script: [] }), { model: "gpt-4o" }))).toBe(128_000);
  });
});
