import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { textFile } from "../testing/runtime.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

const skill = `---
name: pdf-report
description: Turns notes into a PDF-style report.
---
# PDF report
Step 1: read the notes.`;

describe("createDeepAgent options: skills, memory, todos", () => {
  it("orders the prompt stable → skills → memory, and the next call sees a memory edit (probe P6)", async () => {
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "edit_file", args: { file_path: "/memories/AGENTS.md", old_string: "likes python", new_string: "likes rust" } },
          ],
        },
        { text: "noted" },
      ],
    });
    const agent = createDeepAgent({
      model,
      systemPrompt: "Base prompt.",
      skills: ["/skills"],
      memory: ["/AGENTS.md", "/memories/AGENTS.md"],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(
      {
        messages: [new HumanMessage("I switched to rust")],
        files: { "/memories/AGENTS.md": textFile("The user likes python."), "/skills/pdf-report/SKILL.md": textFile(skill) },
      },
      { configurable: { thread_id: "opts" } },
    );
    const system = (i: number) => String(model.calls[i]!.messages[0]!.content);
    const first = system(0);
    expect(first.startsWith("Base prompt.")).toBe(true);
    expect(first.indexOf("## Skills")).toBeGreaterThan(0);
    expect(first).toContain("pdf-report: Turns notes into a PDF-style report.");
    expect(first).not.toContain("Step 1: read the notes.");
    expect(first.indexOf("<agent_memory")).toBeGreaterThan(first.indexOf("## Skills"));
    expect(first).toContain("likes python");
    expect(system(1)).toContain("likes rust");
    expect(system(1)).not.toContain("likes python");
    expect(model.calls[0]!.tools).not.toContain("write_todos");
  });

  it("adds write_todos only when asked, with the list in state", async () => {
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "write_todos", args: { todos: [{ content: "plan", status: "in_progress" }] } }] },
        { text: "planned" },
      ],
    });
    const out = await createDeepAgent({ model, todos: true }).invoke({ messages: [new HumanMessage("plan")] });
    expect(model.calls[0]!.tools).toContain("write_todos");
    expect((out as { todos?: unknown }).todos).toEqual([{ content: "plan", status: "in_progress" }]);
    expect(String(out.messages[2]!.content)).toBe('Updated todo list to [{"content":"plan","status":"in_progress"}]');
  });

  it("gives general-purpose the parent's skills; a custom subagent only its own", async () => {
    const gp = new ScriptedChatModel({ script: [{ text: "gp done" }] });
    const custom = new ScriptedChatModel({ script: [{ text: "custom done" }] });
    const parent = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: "a", subagent_type: "general-purpose" } },
            { name: "task", args: { description: "b", subagent_type: "plain" } },
          ],
        },
        { text: "ok" },
      ],
    });
    await createDeepAgent({
      model: parent,
      skills: ["/skills"],
      subagents: [
        { name: "general-purpose", description: "gp", systemPrompt: "gp", model: gp, skills: ["/skills"] },
        { name: "plain", description: "p", systemPrompt: "plain", model: custom },
      ],
    }).invoke({ messages: [new HumanMessage("go")], files: { "/skills/pdf-report/SKILL.md": textFile(skill) } });
    expect(String(gp.calls[0]!.messages[0]!.content)).toContain("pdf-report");
    expect(String(custom.calls[0]!.messages[0]!.content)).not.toContain("pdf-report");
  });
});
