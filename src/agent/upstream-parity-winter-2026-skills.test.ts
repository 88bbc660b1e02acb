/**
 * deepagentsjs 1.13.2–1.14.1 and Python deepagents 0.7.x skills and read_file behaviours (issue 42), through whole
 * agent runs. Chromium runs this file too (upstream-parity-winter-2026-skills.browser.test.ts).
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import type { FileData } from "../backends/protocol.ts";
import type { AgentMiddleware, AgentState } from "../harness/types.ts";
import { skillsMetadataValue, type SkillMetadata } from "../middleware/skills.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

const now = () => FIXED_NOW;
const skill = (name: string, description: string, body = `Steps of ${name}.`): FileData =>
  textFile(`---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
const systemOf = (messages: readonly BaseMessage[]) => String(messages[0]!.content);
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({ toolCalls: [{ name, args }] });
const toolTexts = (messages: readonly BaseMessage[]) =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => String(m.content));

/** As upstream's example: a middleware that asks for a reload after the agent edited a SKILL.md. */
const reloadEditedSkills: AgentMiddleware = {
  name: "ReloadEditedSkills",
  stateSchema: { skillsMetadata: skillsMetadataValue },
  async wrapToolCall(request, next) {
    const result = await next(request);
    const path = request.toolCall.args.file_path;
    const edited = request.toolCall.name === "edit_file" && typeof path === "string" && path.endsWith("/SKILL.md");
    return edited ? { ...result, update: { ...(result.update ?? {}), skillsMetadata: null } } : result;
  },
};

describe("skills metadata (deepagentsjs 1.14.1)", () => {
  it("reloads skills mid-thread when skillsMetadata is set to null, even for an edit the listing cannot see", async () => {
    // "Skill A." → "Skill Z.": same size, and the fixed clock keeps the time: only the null tells of the change.
    const model = new ScriptedChatModel({
      script: [call("edit_file", { file_path: "/skills/a/SKILL.md", old_string: "Skill A.", new_string: "Skill Z." }), { text: "done" }],
    });
    const agent = createDeepAgent({ model, now, skills: ["/skills"], middleware: [reloadEditedSkills] });
    const out = (await agent.invoke({ messages: [new HumanMessage("go")], files: { "/skills/a/SKILL.md": skill("a", "Skill A.") } })) as AgentState;
    const systems = model.calls.map((c) => systemOf(c.messages));
    expect(systems[0]).toContain("- a: Skill A. (/skills/a/SKILL.md)");
    expect(systems[1]).toContain("- a: Skill Z. (/skills/a/SKILL.md)");
    expect((out.skillsMetadata as SkillMetadata[]).map((s) => s.description)).toEqual(["Skill Z."]);
  });

  it("reloads when a run's input or updateState sets skillsMetadata to null", async () => {
    const model = new ScriptedChatModel({ script: () => ({ text: "ok" }) });
    const agent = createDeepAgent({ model, now, checkpointer: new MemorySaver(), skills: ["/skills"] });
    const config = { configurable: { thread_id: "input" } };
    await agent.invoke({ messages: [new HumanMessage("1")], files: { "/skills/a/SKILL.md": skill("a", "Skill A.") } }, config);
    // Replaced with text of the same size at the same time: the listing cannot tell.
    await agent.invoke({ messages: [new HumanMessage("2")], files: { "/skills/a/SKILL.md": skill("a", "Skill B.") } }, config);
    await agent.invoke({ messages: [new HumanMessage("3")], skillsMetadata: null }, config);
    await agent.invoke({ messages: [new HumanMessage("4")], files: { "/skills/a/SKILL.md": skill("a", "Skill C.") } }, config);
    await agent.updateState(config, { skillsMetadata: null });
    await agent.invoke({ messages: [new HumanMessage("5")] }, config);
    const systems = model.calls.map((c) => systemOf(c.messages));
    // Runs 2 and 4 still see what was loaded (the listing did not change); runs 3 and 5 reloaded.
    expect(systems.map((s) => /- a: (Skill .)\./.exec(s)?.[1])).toEqual(["Skill A", "Skill A", "Skill B", "Skill B", "Skill C"]);
  });

  it("keeps skills metadata per thread: two threads of one agent never see each other's skills", async () => {
    const model = new ScriptedChatModel({ script: () => ({ text: "ok" }) });
    const agent = createDeepAgent({ model, now, checkpointer: new MemorySaver(), skills: ["/skills"] });
    const one = { configurable: { thread_id: "one" } };
    const two = { configurable: { thread_id: "two" } };
    await agent.invoke({ messages: [new HumanMessage("a")], files: { "/skills/alpha/SKILL.md": skill("alpha", "Alpha skill.") } }, one);
    await agent.invoke({ messages: [new HumanMessage("b")], files: { "/skills/beta/SKILL.md": skill("beta", "Beta skill.") } }, two);
    // A reload asked for in one thread is that thread's alone.
    await agent.invoke({ messages: [new HumanMessage("a again")], skillsMetadata: null }, one);
    await agent.invoke({ messages: [new HumanMessage("b again")] }, two);
    const systems = model.calls.map((c) => systemOf(c.messages));
    for (const i of [0, 2]) {
      expect(systems[i]).toContain("- alpha: Alpha skill.");
      expect(systems[i]).not.toContain("beta");
    }
    for (const i of [1, 3]) {
      expect(systems[i]).toContain("- beta: Beta skill.");
      expect(systems[i]).not.toContain("alpha");
    }
    const names = async (config: typeof one) =>
      ((await agent.getState(config)).values.skillsMetadata as SkillMetadata[]).map((s) => s.name);
    expect(await names(one)).toEqual(["alpha"]);
    expect(await names(two)).toEqual(["beta"]);
  });
});

