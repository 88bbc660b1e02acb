/**
 * A tool result over the limit is offloaded whatever its call's id (issue 21
 * #11): ids with a NUL or over 4,096 characters made no valid file name, so
 * the whole result stayed in the context. Runs in Node and, through
 * hostile-guarantees.browser.test.ts, in Chromium.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { FileData } from "../backends/protocol.ts";
import type { AgentTool } from "../harness/types.ts";
import { LARGE_RESULTS_DIR } from "../middleware/eviction.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

const BIG = Array.from({ length: 5_000 }, (_, i) => `row ${i} ${"y".repeat(20)}`).join("\n");
const big: AgentTool = { name: "big", description: "a large result", schema: { type: "object", properties: {} }, run: async () => BIG };

const IDS: Array<[string, string, RegExp]> = [
  ["an ordinary id keeps deepagents' file name", "call_0", /^\/large_tool_results\/call_0$/],
  ["dots and slashes become underscores, as in deepagents", "a/b.c", /^\/large_tool_results\/a_b_c$/],
  ["an id with a NUL", "nul\u0000id", /^\/large_tool_results\/nul_id_[0-9a-z]+$/],
  ["an id over 4,096 characters", "x".repeat(5_000), /^\/large_tool_results\/x{64}_[0-9a-z]+$/],
  ["an id that is a bare ~", "~", /^\/large_tool_results\/__[0-9a-z]+$/],
];

describe("a large result is offloaded whatever its call's id", () => {
  for (const [name, id, path] of IDS) {
    it(`${name}: the model gets a stub, the file holds the whole result`, async () => {
      const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "big", args: {}, id }] }, { text: "done" }] });
      const out = await createDeepAgent({ model, tools: [big] }).invoke({ messages: [new HumanMessage("go")] });
      const result = (out.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
      const at = result.response_metadata.evicted_to as string;
      expect(at).toMatch(path);
      expect(String(result.content).length).toBeLessThan(BIG.length / 2);
      expect(String(result.content)).toContain(at);
      expect((out.files as Record<string, FileData>)[at]?.content).toBe(BIG);
    });
  }

  it("two long ids alike in their first characters get two files", async () => {
    const ids = [`${"p".repeat(5_000)}1`, `${"p".repeat(5_000)}2`];
    const model = new ScriptedChatModel({ script: [{ toolCalls: ids.map((id) => ({ name: "big", args: {}, id })) }, { text: "done" }] });
    const out = await createDeepAgent({ model, tools: [big] }).invoke({ messages: [new HumanMessage("go")] });
    const offloaded = Object.keys(out.files as Record<string, FileData>).filter((p) => p.startsWith(`${LARGE_RESULTS_DIR}/`));
    expect(new Set(offloaded).size).toBe(2);
  });
});
