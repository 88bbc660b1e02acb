/**
 * deepagentsjs 1.13.2–1.14.1 and Python deepagents 0.7.x skills and read_file behaviours (issue 42), through whole
 * agent runs. Chromium runs this file too (upstream-parity-winter-2026-skills.browser.test.ts).
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { describe, expect, it } from "vitest";
import type { FileData } from "../backends/protocol.ts";
import type { AgentMiddleware, AgentState, AgentTool } from "../harness/types.ts";
import { PINNED_SKILL_CHARS } from "../middleware/pinned-skills.ts";
import { skillsMetadataValue, type SkillMetadata } from "../middleware/skills.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";
import { parseHarnessProfileConfig, serializeProfile } from "./profiles/serialization.ts";
import type { HarnessProfileOptions } from "./profiles/types.ts";

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
    const out = (await agent.invoke({
      messages: [new HumanMessage("go")],
      files: { "/skills/a/SKILL.md": skill("a", "Skill A.") },
    })) as AgentState;
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
    const reload = { messages: [new HumanMessage("3")], skillsMetadata: null };
    await agent.invoke(reload, config);
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
    const reload = { messages: [new HumanMessage("a again")], skillsMetadata: null };
    await agent.invoke(reload, one);
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

describe("read_file's output form (deepagentsjs 1.13.5 header, an option of the harness profile)", () => {
  const five = { "/w.txt": textFile("l1\nl2\nl3\nl4\nl5\n") };
  async function reads(
    harnessProfile: HarnessProfileOptions | undefined,
    calls: Record<string, unknown>[],
    files: Record<string, FileData> = five,
  ) {
    const model = new ScriptedChatModel({ script: [...calls.map((args) => call("read_file", args)), { text: "done" }] });
    const agent = createDeepAgent({ model, now, ...(harnessProfile ? { harnessProfile } : {}) });
    const out = (await agent.invoke({ messages: [new HumanMessage("go")], files })) as AgentState;
    const description = model.calls[0]!.toolDefinitions.map((t) => convertToOpenAITool(t).function).find(
      (f) => f.name === "read_file",
    )!.description;
    return { results: toolTexts(out.messages), description };
  }

  it("keeps numbered lines by default (the seeds and Python deepagents)", async () => {
    const { results, description } = await reads(undefined, [{ file_path: "/w.txt", limit: 2 }]);
    expect(results).toEqual(["     1\tl1\n     2\tl2"]);
    expect(description).toContain("cat -n format");
  });

  it("shows the file's own lines under `@@ lines A-B of T | next offset N @@` with readFormat: header", async () => {
    const { results, description } = await reads({ readFormat: "header" }, [
      { file_path: "/w.txt", limit: 2 },
      { file_path: "/w.txt", offset: 2, limit: 2 },
      { file_path: "/w.txt", offset: 4 },
    ]);
    expect(results).toEqual([
      "@@ lines 1-2 of 5 | next offset 2 @@\nl1\nl2",
      "@@ lines 3-4 of 5 | next offset 4 @@\nl3\nl4",
      "@@ lines 5-5 of 5 @@\nl5",
    ]);
    expect(description).toContain("`@@ lines A-B of T | next offset N @@`");
    expect(description).not.toContain("cat -n");
  });

  it("cuts a read too long after a whole line and resumes exactly there", async () => {
    const line = (i: number) => `${String(i).padStart(4, "0")}:${"x".repeat(95)}`;
    const big = { "/big.txt": textFile(Array.from({ length: 3_000 }, (_, i) => line(i + 1)).join("\n")) };
    const { results } = await reads({ readFormat: "header" }, [{ file_path: "/big.txt", limit: 3_000 }], big);
    const [notice, header, ...body] = results[0]!.split("\n");
    expect(notice).toMatch(/^\[Output was truncated due to size limits\./);
    const m = /^@@ lines 1-(\d+) of 3000 \| next offset (\d+) \| truncated due to size @@$/.exec(header!);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(body.length);
    expect(Number(m![2])).toBe(body.length);
    expect(body.at(-1)).toBe(line(body.length));
    expect(results[0]!.length).toBeLessThanOrEqual(80_000);
  });

  it("round-trips readFormat through a profile's JSON", () => {
    expect(serializeProfile(parseHarnessProfileConfig({ readFormat: "header" }))).toEqual({ readFormat: "header" });
    expect(() => parseHarnessProfileConfig({ readFormat: "plain" })).toThrow(/readFormat/);
  });
});

describe("pinned skills (Python deepagents 0.7 pinned_skills, as pinnedSkills)", () => {
  const files = {
    "/skills/report/SKILL.md": skill("report", "Write reports.", "Always end with a summary table (PINNED BODY)."),
    "/skills/chart/SKILL.md": textFile(
      "---\nname: chart\ndescription: Draw charts.\nallowed-tools: plot\n---\n\nPlot with plot (CHART BODY).\n",
    ),
  };
  const plot: AgentTool = { name: "plot", description: "plots", schema: { type: "object", properties: {} }, run: async () => "plotted" };

  it("puts a pinned skill's SKILL.md in every request, read by no tool call; the others stay one line", async () => {
    const model = new ScriptedChatModel({ script: [call("ls", { path: "/" }), { text: "done" }] });
    const agent = createDeepAgent({ model, now, skills: ["/skills"], pinnedSkills: ["report"] });
    const out = (await agent.invoke({ messages: [new HumanMessage("go")], files })) as AgentState;
    for (const c of model.calls) {
      const system = systemOf(c.messages);
      expect(system).toContain("## Pinned skills");
      expect(system).toContain("### report (/skills/report/SKILL.md)\n\nAlways end with a summary table (PINNED BODY).");
      expect(system).toContain("- chart: Draw charts. (/skills/chart/SKILL.md)");
      expect(system).not.toContain("CHART BODY");
    }
    expect(out.skillErrors).toEqual([]);
  });

  it("discloses a pinned skill's tools from the start, and lists a pinned name no source has", async () => {
    const model = new ScriptedChatModel({ script: [call("plot", {}), { text: "done" }] });
    const agent = createDeepAgent({ model, now, skills: ["/skills"], skillTools: [plot], pinnedSkills: ["chart", "nowhere"] });
    const out = (await agent.invoke({ messages: [new HumanMessage("go")], files })) as AgentState;
    expect(model.calls[0]!.tools).toContain("plot");
    expect(toolTexts(out.messages)).toEqual(["plotted"]);
    expect(out.skillErrors).toEqual([{ path: "nowhere", message: "pinned skill 'nowhere' is in none of the skill sources" }]);
    // Unpinned, the same tool is hidden until the SKILL.md is read.
    const plain = new ScriptedChatModel({ script: [{ text: "done" }] });
    await createDeepAgent({ model: plain, now, skills: ["/skills"], skillTools: [plot] }).invoke({
      messages: [new HumanMessage("go")],
      files,
    });
    expect(plain.calls[0]!.tools).not.toContain("plot");
  });

  it("cuts a long pinned SKILL.md and says where the rest is", async () => {
    const long = Array.from({ length: 2_000 }, (_, i) => `step ${i}: ${"y".repeat(20)}`).join("\n");
    const model = new ScriptedChatModel({ script: [{ text: "done" }] });
    const agent = createDeepAgent({ model, now, skills: ["/skills"], pinnedSkills: ["long"] });
    await agent.invoke({ messages: [new HumanMessage("go")], files: { "/skills/long/SKILL.md": skill("long", "Long.", long) } });
    const system = systemOf(model.calls[0]!.messages);
    expect(system).toContain("[Cut at 20,000 characters: read the rest of /skills/long/SKILL.md with read_file.]");
    expect(system.length).toBeLessThan(PINNED_SKILL_CHARS + 5_000);
  });
});
