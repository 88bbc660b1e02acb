import { readdirSync } from "node:fs";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { FileData } from "../backends/protocol.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { EXAMPLE_AGENTS, folderFiles } from "../testing/agent-folders.ts";
import { textFile } from "../testing/runtime.ts";
import type { AgentDefinition } from "./definition.ts";
import { agentHosts } from "./hosts.ts";
import { loadAgent } from "./load.ts";
import { agentOptions, agentSeedFiles, mergeInterruptOn } from "./options.ts";

const decoder = new TextDecoder();

const folder = {
  "agent.yaml": "name: Researcher\ntools: { disallowed: [execute] }\ninterrupt_on: { execute: false, write_file: true }\n",
  "AGENTS.md": "You research questions from the notes in /notes.",
  "agents/critic.md":
    "---\ndescription: Reviews a draft against its sources.\ntools: [read_file, grep]\nmodel: small-model\n---\nYou are a critic.",
  "skills/report/SKILL.md": "---\nname: report\ndescription: Writes a cited report.\n---\n# Report\nUse template.md.",
  "skills/report/template.md": "# Title",
  "files/notes/a.md": "Note A.",
};

function agent(): AgentDefinition {
  const result = loadAgent({ files: folder });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** A thread's first files, as state (the composition root writes them into its backend the same way). */
function seedState(def: AgentDefinition): Record<string, FileData> {
  return Object.fromEntries([...agentSeedFiles(def)].map(([path, bytes]) => [path, textFile(decoder.decode(bytes))]));
}

function example(name: string): AgentDefinition {
  const result = loadAgent({ files: folderFiles(join(EXAMPLE_AGENTS, name)) });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("agent folders as createDeepAgent options", () => {
  it.each(readdirSync(EXAMPLE_AGENTS))(
    "the %s example runs a turn: its instructions, skills and subagents reach the model",
    async (name) => {
      const def = example(name);
      const model = new ScriptedChatModel({ script: [{ text: "Ready." }] });
      const deep = createDeepAgent({
        ...agentOptions(def, { model, interruptOn: { execute: true } }),
        todos: true,
        checkpointer: new MemorySaver(),
      });
      await deep.invoke(
        { messages: [new HumanMessage(def.manifest.suggestions[0]!)], files: seedState(def) },
        { configurable: { thread_id: name } },
      );
      const system = String(model.calls[0]!.messages[0]!.content);
      expect(system.startsWith(def.instructions)).toBe(true);
      for (const skill of def.skills) expect(system).toContain(`${skill.name}: ${skill.description}`);
      const task = JSON.stringify(model.calls[0]!.toolDefinitions);
      for (const sub of def.subagents) expect(task).toContain(`${sub.name}: ${sub.description}`);
      expect(model.calls[0]!.tools).toEqual(expect.arrayContaining(["read_file", "write_file", "task", "write_todos"]));
    },
  );

  it("seeds starter files at their workspace paths and skills under /agent-skills/", () => {
    expect([...agentSeedFiles(agent()).keys()]).toEqual([
      "/notes/a.md",
      "/agent-skills/report/SKILL.md",
      "/agent-skills/report/template.md",
    ]);
  });

  it("runs it: instructions as the system prompt, its skill listed, its subagent in task with its own tools and model", async () => {
    const main = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "task", args: { description: "Review /notes/a.md", subagent_type: "critic" } }] },
        { text: "The critic found nothing." },
      ],
    });
    const small = new ScriptedChatModel({ script: [{ text: "No problems." }] });
    const resolved: unknown[] = [];
    const def = agent();
    const options = agentOptions(def, {
      model: main,
      resolveModel: (ref, sub) => {
        resolved.push([ref, sub.name]);
        return small;
      },
    });
    const deep = createDeepAgent({ ...options, checkpointer: new MemorySaver() });
    const out = await deep.invoke(
      { messages: [new HumanMessage("Check my notes")], files: seedState(def) },
      { configurable: { thread_id: "folder" } },
    );
    expect(resolved).toEqual([[{ model: "small-model" }, "critic"]]);
    const system = String(main.calls[0]!.messages[0]!.content);
    expect(system.startsWith("You research questions from the notes in /notes.")).toBe(true);
    expect(system).toContain("report: Writes a cited report.");
    expect(main.calls[0]!.tools).toContain("task");
    expect(main.calls[0]!.tools).not.toContain("execute");
    expect(JSON.stringify(main.calls[0]!.toolDefinitions)).toContain("critic: Reviews a draft against its sources.");
    expect(small.calls).toHaveLength(1);
    expect(small.calls[0]!.tools.sort()).toEqual(["grep", "read_file"]);
    expect(String(small.calls[0]!.messages[0]!.content)).toContain("You are a critic.");
    expect(String(out.messages.at(-1)!.content)).toBe("The critic found nothing.");
  });

  it("uses the parent's model when the resolver builds none, and no skills source for an agent without skills", () => {
    const def = loadAgent({ files: { "AGENTS.md": "Hi.", "agents/a.md": "---\ndescription: d\nmodel: other\n---\nA." } });
    if (!def.ok) throw new Error(def.error.message);
    const model = new ScriptedChatModel({ script: [] });
    const options = agentOptions(def.value, { model, resolveModel: () => undefined });
    expect(options.subagents[0]).toEqual({ name: "a", description: "d", systemPrompt: "A." });
    expect(options.skills).toEqual([]);
    expect(options).not.toHaveProperty("allowedTools");
  });

  it("adds the agent's approval rules to the app's but never loosens one (execute stays approved)", () => {
    const app = { execute: true, delete: { allowedDecisions: ["approve" as const, "reject" as const] } };
    expect(mergeInterruptOn(app, { execute: false, delete: true, write_file: { description: "Write?" }, grep: false })).toEqual({
      execute: true,
      delete: { allowedDecisions: ["approve", "reject"] },
      write_file: { description: "Write?" },
      grep: false,
    });
    expect(agentOptions(agent(), { model: new ScriptedChatModel({ script: [] }), interruptOn: { execute: true } }).interruptOn).toEqual({
      execute: true,
      write_file: true,
    });
  });

  it("refuses a starter file aimed at the thread's skills folder, its own skill's or another (a skill shown only as a file)", () => {
    const result = loadAgent({
      files: { ...folder, "files/agent-skills/report/SKILL.md": "x", "files/agent-skills/extra/SKILL.md": "---\nname: extra\n---" },
    });
    expect(!result.ok && result.error.problems.map((p) => [p.code, p.file])).toEqual([
      ["reserved_path", "files/agent-skills/extra/SKILL.md"],
      ["reserved_path", "files/agent-skills/report/SKILL.md"],
    ]);
  });

  it("lists every host the agent would contact, by origin, with what names it", () => {
    const def = loadAgent({
      files: {
        "agent.yaml": [
          "model: { provider: openai-compatible, base_url: 'http://localhost:8080/v1' }",
          "mcp_servers:",
          "  - { name: docs, url: 'https://mcp.example.org/mcp' }",
          "  - { name: search, url: 'https://mcp.example.org/search' }",
        ].join("\n"),
        "agents/a.md": "---\ndescription: d\nmodel: { base_url: 'http://localhost:8080/v2' }\n---\nA.",
      },
    });
    if (!def.ok) throw new Error(def.error.message);
    expect(agentHosts(def.value)).toEqual([
      { origin: "http://localhost:8080", by: ["agent.yaml model", "agents/a.md model"] },
      { origin: "https://mcp.example.org", by: ["agent.yaml mcp_servers docs", "agent.yaml mcp_servers search"] },
    ]);
    expect(agentHosts(agent())).toEqual([]);
  });
});
