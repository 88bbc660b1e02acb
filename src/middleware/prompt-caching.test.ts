import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { renderRequestMessages } from "../harness/render-request.ts";
import { ScriptedChatModel } from "../models/scripted.ts";

class ScriptedAnthropic extends ScriptedChatModel {
  override _llmType(): string {
    return "anthropic";
  }
}

describe("Anthropic prompt caching", () => {
  it("marks the stable system prompt and the last message; other models get plain strings", async () => {
    const anthropic = new ScriptedAnthropic({ script: [{ toolCalls: [{ name: "ls", args: { path: "/" } }] }, { text: "ok" }] });
    await createDeepAgent({ model: anthropic, systemPrompt: "Stable instructions." }).invoke({ messages: [new HumanMessage("hi")] });
    const [system, human] = anthropic.calls[0]!.messages;
    expect(system!.content).toEqual([{ type: "text", text: "Stable instructions.", cache_control: { type: "ephemeral" } }]);
    expect(human!.content).toEqual([{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }]);
    const second = anthropic.calls[1]!.messages;
    const lastTool = second.at(-1) as ToolMessage;
    expect(ToolMessage.isInstance(lastTool)).toBe(true);
    expect(lastTool.tool_call_id).toBe("call_0_0");
    expect((lastTool.content as Array<{ cache_control?: unknown }>).at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    // Earlier messages are untouched (only the last carries a breakpoint).
    expect(second[1]!.content).toBe("hi");

    const plain = new ScriptedChatModel({ script: [{ text: "ok" }] });
    await createDeepAgent({ model: plain, systemPrompt: "Stable instructions." }).invoke({ messages: [new HumanMessage("hi")] });
    expect(plain.calls[0]!.messages.map((m) => m.content)).toEqual(["Stable instructions.", "hi"]);
  });

  it("puts volatile system text (memory) after the breakpoint", () => {
    const model = new ScriptedChatModel({ script: [] });
    const base = { model, messages: [new HumanMessage("q")], tools: [], state: { messages: [], files: {} }, config: {} };
    const cached = renderRequestMessages({
      ...base,
      systemPrompt: "stable",
      systemPromptVolatile: "<agent_memory>x</agent_memory>",
      cacheBreakpoints: true,
    });
    expect(cached[0]!.content).toEqual([
      { type: "text", text: "stable", cache_control: { type: "ephemeral" } },
      { type: "text", text: "<agent_memory>x</agent_memory>" },
    ]);
    const uncached = renderRequestMessages({ ...base, systemPrompt: "stable", systemPromptVolatile: "<agent_memory>x</agent_memory>" });
    expect(uncached[0]!.content).toBe("stable\n\n<agent_memory>x</agent_memory>");
  });
});
