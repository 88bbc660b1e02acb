/**
 * An agent folder names a harness profile (`harness_profile` in agent.yaml): checked at load, carried into
 * createDeepAgent's options, and its prompt additions reach the model. Chromium runs this file too.
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { loadAgent } from "./load.ts";
import { agentOptions } from "./options.ts";

describe("agent.yaml harness_profile", () => {
  it("names a registered profile, which reaches the model's request", async () => {
    const result = loadAgent({ files: { "agent.yaml": "harness_profile: openai:gpt-5.3-codex\n", "AGENTS.md": "Lead." } });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.manifest.harnessProfile).toBe("openai:gpt-5.3-codex");
    const model = new ScriptedChatModel({ script: [{ text: "done" }] });
    const agent = createDeepAgent({ ...agentOptions(result.value, { model }), checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "t" } });
    const system = model.calls[0]!.messages.filter((m) => SystemMessage.isInstance(m))
      .map((m) => m.text)
      .join("\n");
    expect(system).toContain("Lead.\n\n## Codex-Specific Behavior");
  });

  it("refuses an unknown name, naming the file and the field", () => {
    const result = loadAgent({ files: { "agent.yaml": "name: A\nharness_profile: nope\n" } });
    if (result.ok) throw new Error("loaded");
    expect(result.error.problems).toMatchObject([{ code: "invalid_field", file: "agent.yaml", field: "harness_profile", line: 2 }]);
    expect(result.error.problems[0]!.message).toContain("unknown harness profile 'nope'");
  });
});
