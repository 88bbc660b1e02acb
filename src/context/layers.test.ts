import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { truncateOldToolArgs } from "./truncate-args.ts";

describe("old tool-call arguments", () => {
  const write = (i: number, size: number) =>
    new AIMessage({
      content: "",
      id: `ai-${i}`,
      tool_calls: [{ id: `w${i}`, name: "write_file", args: { file_path: `/f${i}.md`, content: "c".repeat(size) }, type: "tool_call" }],
    });
  const result = (i: number) => new ToolMessage({ content: "Updated file", tool_call_id: `w${i}`, id: `t-${i}` });

  it("shortens write/edit content over 2,000 chars outside the last 20 messages, in the request only", () => {
    const view = [new HumanMessage("go"), write(0, 5_000), result(0), write(1, 100), result(1)];
    for (let i = 2; i < 12; i++) view.push(write(i, 5_000), result(i));
    const shaped = truncateOldToolArgs(view);
    const old = shaped[1] as AIMessage;
    expect(old.tool_calls![0]!.args.content).toBe("cccccccccccccccccccc...(argument truncated)");
    expect(old.tool_calls![0]!.args.file_path).toBe("/f0.md");
    expect(old.id).toBe("ai-0");
    expect((shaped[3] as AIMessage).tool_calls![0]!.args.content).toHaveLength(100);
    const recent = shaped.slice(-20).filter((m) => AIMessage.isInstance(m)) as AIMessage[];
    for (const m of recent) expect(String(m.tool_calls![0]!.args.content)).toHaveLength(5_000);
    expect(((view[1] as AIMessage).tool_calls![0]!.args.content as string).length).toBe(5_000);
  });
});

describe("a user message over 50,000 tokens", () => {
  it("is saved to /conversation_history/ and shortened in the request; state keeps it whole", async () => {
    const huge = Array.from({ length: 3_000 }, (_, i) => `line ${i} ${"z".repeat(70)}`).join("\n");
    expect(huge.length).toBeGreaterThan(200_000);
    const model = new ScriptedChatModel({ script: [{ text: "got it" }, { text: "still here" }] });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "big-user" } };
    const out = await agent.invoke({ messages: [new HumanMessage(huge)] }, config);
    const stored = out.messages[0]!;
    expect(stored.content).toBe(huge);
    const path = stored.additional_kwargs.lc_evicted_to as string;
    expect(path).toMatch(/^\/conversation_history\/[0-9a-f]{12}$/);
    expect(out.files[path].content).toBe(huge);
    const sent = String(model.calls[0]!.messages[0]!.content);
    expect(sent.length).toBeLessThan(2_000);
    expect(sent).toContain(`Message content too large and was saved to the filesystem at: ${path}`);
    expect(sent).toContain("... [2990 lines truncated] ...");
    await agent.invoke({ messages: [new HumanMessage("small")] }, config);
    expect(String(model.calls[1]!.messages[0]!.content).length).toBeLessThan(2_000);
    const after = await agent.getState(config);
    expect(Object.keys(after.values.files)).toEqual([path]);
  });
});
