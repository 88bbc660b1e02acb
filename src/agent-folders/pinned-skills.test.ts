/**
 * An agent folder pins skills (`pinned_skills` in agent.yaml, Python deepagents 0.7's `pinned_skills`): checked at
 * load against the folder's skills/, carried into createDeepAgent's options, and the SKILL.md body reaches every
 * request. Chromium runs this file too.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { loadAgent } from "./load.ts";
import { agentOptions, agentSeedFiles } from "./options.ts";

const report = "---\nname: report\ndescription: Write reports.\n---\n\nEnd every answer with a summary table (PINNED).\n";

describe("agent.yaml pinned_skills", () => {
  it("pins a skill of the folder: its SKILL.md body is in the first request, unread", async () => {
    const result = loadAgent({
      files: { "agent.yaml": "pinned_skills: [report]\n", "AGENTS.md": "Lead.", "skills/report/SKILL.md": report },
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.manifest.pinnedSkills).toEqual(["report"]);
    const model = new ScriptedChatModel({ script: [{ text: "done" }] });
    const options = agentOptions(result.value, { model });
    expect(options.pinnedSkills).toEqual(["report"]);
    const files = Object.fromEntries(
      [...agentSeedFiles(result.value)].map(([path, bytes]) => [path, textFile(new TextDecoder().decode(bytes))]),
    );
    await createDeepAgent(options).invoke({ messages: [new HumanMessage("hi")], files });
    const system = String(model.calls[0]!.messages[0]!.content);
    expect(system).toContain("### report (/agent-skills/report/SKILL.md)\n\nEnd every answer with a summary table (PINNED).");
  });

  it("refuses a pinned name the folder has no skill of, naming the file and the field", () => {
    const result = loadAgent({
      files: { "agent.yaml": "pinned_skills: [report, nope]\n", "AGENTS.md": "Lead.", "skills/report/SKILL.md": report },
    });
    if (result.ok) throw new Error("loaded");
    expect(result.error.problems).toMatchObject([{ code: "invalid_field", file: "agent.yaml", field: "pinned_skills.1" }]);
    const [first] = result.error.problems;
    expect(first!.message).toContain("pinned skill 'nope' is not one of the folder's skills (the folder's skills: report)");
  });
});
