import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { COMPACT_PROFILE_BELOW, toolProfileFor, type ToolProfile } from "../context/budget.ts";
import { textFile } from "../testing/runtime.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import type { AgentTool } from "../harness/types.ts";
import { createDeepAgent } from "./create-deep-agent.ts";
import { BUILTIN_TOOL_NAMES } from "../core/tool-names.ts";

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

describe("createDeepAgent options: the tool profile", () => {
  /** The tools of the first request an agent makes in `window` tokens, with `toolProfile` if given. */
  async function firstTools(window: number, toolProfile?: ToolProfile) {
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    const agent = createDeepAgent({ model, summarization: { maxInputTokens: window }, ...(toolProfile ? { toolProfile } : {}) });
    await agent.invoke({ messages: [new HumanMessage("hi")] });
    const call = model.calls[0]!;
    const ls = call.toolDefinitions.map((t) => convertToOpenAITool(t).function).find((f) => f.name === "ls")!;
    return { names: call.tools, ls: ls.description ?? "" };
  }
  const COMPACT_LS = "List a directory.";

  it("is chosen by the window: compact just below COMPACT_PROFILE_BELOW, full from it on", async () => {
    expect(toolProfileFor(COMPACT_PROFILE_BELOW - 1)).toBe("compact");
    expect(toolProfileFor(COMPACT_PROFILE_BELOW)).toBe("default");
    expect(toolProfileFor(undefined)).toBe("default");
    const below = await firstTools(COMPACT_PROFILE_BELOW - 1);
    expect(below.ls).toBe(COMPACT_LS);
    expect(below.names).not.toContain("compact_conversation");
    const at = await firstTools(COMPACT_PROFILE_BELOW);
    expect(at.ls).not.toBe(COMPACT_LS);
    expect(at.ls.length).toBeGreaterThan(COMPACT_LS.length * 3);
    expect(at.names).toContain("compact_conversation");
  });

  it("an explicit toolProfile wins both ways", async () => {
    expect(toolProfileFor(4_096, "default")).toBe("default");
    expect(toolProfileFor(200_000, "compact")).toBe("compact");
    const fullInSmall = await firstTools(4_096, "default");
    expect(fullInSmall.ls).toBe((await firstTools(200_000)).ls);
    expect(fullInSmall.names).toContain("compact_conversation");
    const compactInLarge = await firstTools(200_000, "compact");
    expect(compactInLarge.ls).toBe(COMPACT_LS);
    expect(compactInLarge.names).not.toContain("compact_conversation");
  });
});

describe("createDeepAgent options: tools by name (allowedTools, disallowedTools)", () => {
  const lookup: AgentTool = {
    name: "lookup",
    description: "Looks a word up.",
    schema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    run: async (args) => `found ${String(args.word)}`,
  };
  const results = (messages: readonly BaseMessage[]) => messages.filter(ToolMessage.isInstance).map((m) => String(m.content));

  it("offers the main agent only its allowed tools; a call to another is an error result naming the ones it has", async () => {
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "write_file", args: { file_path: "/a.md", content: "x" } }] }, { text: "ok" }],
    });
    const out = await createDeepAgent({ model, tools: [lookup], allowedTools: ["read_file", "lookup", "task"] }).invoke({
      messages: [new HumanMessage("go")],
    });
    expect(model.calls[0]!.tools).toEqual(["read_file", "task", "lookup"]);
    expect(results(out.messages)).toEqual(["Error: write_file is not a valid tool, try one of [read_file, task, lookup]."]);
    expect(out.files).toEqual({});
  });

  it("holds a subagent to its own allow-list, with the parent's tools untouched", async () => {
    const child = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "write_file", args: { file_path: "/a.md", content: "x" } }] }, { text: "could not write" }],
    });
    const parent = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "task", args: { description: "write it", subagent_type: "reader" } }] }, { text: "ok" }],
    });
    const out = await createDeepAgent({
      model: parent,
      subagents: [{ name: "reader", description: "reads", systemPrompt: "Read only.", model: child, allowedTools: ["read_file", "grep"] }],
    }).invoke({ messages: [new HumanMessage("go")] });
    expect(child.calls[0]!.tools).toEqual(["read_file", "grep"]);
    expect(results(child.calls[1]!.messages)).toEqual(["Error: write_file is not a valid tool, try one of [read_file, grep]."]);
    expect(parent.calls[0]!.tools).toEqual(expect.arrayContaining(["write_file", "edit_file", "task", "read_file"]));
    expect(results(out.messages)).toEqual(["could not write"]);
    expect(out.files).toEqual({});
  });

  it("takes disallowed tools from the agent and every subagent; without write_todos the todo list and its prompt go too", async () => {
    const gp = new ScriptedChatModel({ script: [{ text: "done" }] });
    const mine = new ScriptedChatModel({ script: [{ text: "done" }] });
    const parent = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: "a", subagent_type: "general-purpose" } },
            { name: "task", args: { description: "b", subagent_type: "mine" } },
          ],
        },
        { text: "ok" },
      ],
    });
    await createDeepAgent({
      model: parent,
      todos: true,
      disallowedTools: ["write_todos", "edit_file"],
      subagents: [
        { name: "general-purpose", description: "gp", systemPrompt: "gp", model: gp },
        { name: "mine", description: "m", systemPrompt: "m", model: mine, disallowedTools: ["grep"] },
      ],
    }).invoke({ messages: [new HumanMessage("go")] });
    for (const model of [parent, gp, mine]) {
      expect(model.calls[0]!.tools).not.toContain("write_todos");
      expect(model.calls[0]!.tools).not.toContain("edit_file");
      expect(model.calls[0]!.tools).toContain("read_file");
      expect(String(model.calls[0]!.messages[0]!.content)).not.toContain("write_todos");
    }
    expect(gp.calls[0]!.tools).toContain("grep");
    expect(mine.calls[0]!.tools).not.toContain("grep");
  });

  it("knows every built-in tool by name (BUILTIN_TOOL_NAMES is what the middleware builds)", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    const remote = { name: "far", description: "Runs on a server.", graphId: "deeptab", url: "http://127.0.0.1:9" };
    await createDeepAgent({ model, todos: true, subagents: [remote] }).invoke({ messages: [new HumanMessage("hi")] });
    // execute is offered only with a sandbox (fs-tools.test.ts holds the file tools to FILE_TOOL_NAMES).
    expect([...model.calls[0]!.tools, "execute"].sort()).toEqual([...BUILTIN_TOOL_NAMES].sort());
  });

  it("refuses a name no tool has, but not a built-in one this agent lacks, nor a parent's tool a subagent inherits", () => {
    const model = new ScriptedChatModel({ script: [] });
    expect(() => createDeepAgent({ model, allowedTools: ["read_fille"] })).toThrow(
      expect.objectContaining({ code: "invalid_option", message: expect.stringMatching(/allowedTools.*'read_fille', which no tool has/) }),
    );
    expect(() => createDeepAgent({ model, disallowedTools: ["nope"] })).toThrow(/'nope', which no tool has/);
    expect(() =>
      createDeepAgent({ model, subagents: [{ name: "x", description: "x", systemPrompt: "x", allowedTools: ["lookup"] }] }),
    ).toThrow(/Subagent 'x' names 'lookup', which no tool has/);
    // write_todos without todos, task in a subagent, compact_conversation in the compact profile: built-in names.
    expect(() =>
      createDeepAgent({
        model,
        tools: [lookup],
        allowedTools: ["lookup", "write_todos", "compact_conversation", "task"],
        summarization: { maxInputTokens: 4_096 },
        subagents: [{ name: "x", description: "x", systemPrompt: "x", tools: [] }],
      }),
    ).not.toThrow();
  });
});
