/**
 * Fork subagents (deepagentsjs' `ForkedSubAgent`, `mode: "fork"`, 1.13): the child starts from the parent's
 * conversation and system prompt; isolated children (`"handoff"`, the old name) see only their task; invalid modes are
 * refused when the agent is built. The 1.14 changes have their rows in agent/upstream-parity-winter-2026-subagents.test.ts.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent, type ForkedSubAgent, type SubAgent } from "../agent/create-deep-agent.ts";
import { DeeptabError } from "../core/errors.ts";
import { clearedNote } from "../context/clear-results.ts";
import { summaryMessageFor, type SummarizationEvent } from "../context/view.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { FORK_TASK_PREAMBLE, forkMessages, taskDescription } from "./subagents.ts";
import { CLEARED_KEY, EVENT_KEY } from "./summarization.ts";

const typed = (messages: readonly BaseMessage[]) => messages.map((m) => [m.getType(), String(m.content)]);
const system = (messages: readonly BaseMessage[]) => String(messages.find((m) => SystemMessage.isInstance(m))?.content ?? "");

describe("fork subagents", () => {
  it("a fork child starts from the parent's conversation and system prompt; a handoff child from the description alone", async () => {
    const forkModel = new ScriptedChatModel({ script: [{ text: "fork report" }] });
    const handoffModel = new ScriptedChatModel({ script: [{ text: "handoff report" }] });
    const parent = new ScriptedChatModel({
      script: [
        { text: "first answer" },
        {
          toolCalls: [
            { name: "task", args: { description: "carry on", subagent_type: "continuer" }, id: "t1" },
            { name: "task", args: { description: "look alone", subagent_type: "isolated" }, id: "t2" },
          ],
        },
        { text: "all done" },
      ],
    });
    const agent = createDeepAgent({
      model: parent,
      systemPrompt: "PARENT PROMPT",
      checkpointer: new MemorySaver(),
      subagents: [
        { name: "continuer", description: "Continues with the whole context.", mode: "fork", model: forkModel },
        { name: "isolated", description: "Works alone.", systemPrompt: "ISOLATED PROMPT", model: handoffModel },
      ],
    });
    const config = { configurable: { thread_id: crypto.randomUUID() } };
    await agent.invoke({ messages: [new HumanMessage("the secret plan is X")] }, config);
    const out = await agent.invoke({ messages: [new HumanMessage("now delegate")] }, config);

    // The fork child: the parent's history as its model saw it, without the in-flight AI message with both task
    // calls, then the task; under the parent's system prompt.
    const forkRequest = forkModel.calls[0]!.messages;
    expect(typed(forkRequest.filter((m) => !SystemMessage.isInstance(m)))).toEqual([
      ["human", "the secret plan is X"],
      ["ai", "first answer"],
      ["human", "now delegate"],
      ["human", FORK_TASK_PREAMBLE + "carry on"],
    ]);
    expect(system(forkRequest)).toContain("PARENT PROMPT");
    expect(system(forkRequest)).not.toContain("ISOLATED PROMPT");
    // It keeps the parent's task tool (which refuses: upstream-parity-winter-2026.test.ts); the isolated child has none.
    expect(forkModel.calls[0]!.tools).toEqual(parent.calls[0]!.tools);
    expect(handoffModel.calls[0]!.tools).not.toContain("task");
    // The handoff child saw only its task, under its own prompt.
    expect(typed(handoffModel.calls[0]!.messages)).toEqual([
      ["system", "ISOLATED PROMPT"],
      ["human", "look alone"],
    ]);
    // The parent gets one result per call, as for any subagent; the child's history stays out of the parent's.
    const results = out.messages.filter((m: BaseMessage): m is ToolMessage => ToolMessage.isInstance(m));
    expect(results.map((m: ToolMessage) => [m.tool_call_id, m.content])).toEqual([
      ["t1", "fork report"],
      ["t2", "handoff report"],
    ]);
    expect(typed(out.messages)).toEqual([
      ["human", "the secret plan is X"],
      ["ai", "first answer"],
      ["human", "now delegate"],
      ["ai", ""],
      ["tool", "fork report"],
      ["tool", "handoff report"],
      ["ai", "all done"],
    ]);
  });

  it("a fork child sees the parent's summarized view, not the raw history it replaced", () => {
    const messages: BaseMessage[] = [
      new HumanMessage("old 1"),
      new AIMessage("old 2"),
      new HumanMessage("recent question"),
      new AIMessage({ content: "", tool_calls: [{ id: "t1", name: "task", args: {} }] }),
    ];
    const event: SummarizationEvent = {
      cutoffIndex: 2,
      summaryMessage: summaryMessageFor("SUMMARY OF OLD", "/conversation_history/t.md"),
      filePath: "/conversation_history/t.md",
      createdAtLength: 4,
    };
    const start = forkMessages({ messages, [EVENT_KEY]: event }, "the task");
    expect(start.map((m) => m.getType())).toEqual(["human", "human", "human"]);
    expect(String(start[0]!.content)).toContain("SUMMARY OF OLD");
    expect(start.slice(1).map((m) => m.content)).toEqual(["recent question", FORK_TASK_PREAMBLE + "the task"]);
    // Without a summary and without an in-flight call, the whole history is kept.
    expect(typed(forkMessages({ messages: messages.slice(0, 3) }, "t"))).toEqual([
      ["human", "old 1"],
      ["ai", "old 2"],
      ["human", "recent question"],
      ["human", FORK_TASK_PREAMBLE + "t"],
    ]);
  });

  it("a fork child sees the parent's cleared results as the notes the parent's model saw", () => {
    const result = new ToolMessage({ content: "long output ".repeat(400), tool_call_id: "r1" });
    const messages: BaseMessage[] = [
      new HumanMessage("run it"),
      new AIMessage({ content: "", tool_calls: [{ id: "r1", name: "run", args: {} }] }),
      result,
      new AIMessage({ content: "", tool_calls: [{ id: "t1", name: "task", args: {} }] }),
    ];
    const start = forkMessages({ messages, [CLEARED_KEY]: { before: 3, createdAtLength: 3 } }, "the task");
    expect(start[2]!.content).toBe(clearedNote("/large_tool_results/r1"));
    expect(forkMessages({ messages }, "the task")[2]).toBe(result);
  });

  it("a fork child gets the parent's memory in its prompt; a handoff child does not", async () => {
    const forkModel = new ScriptedChatModel({ script: [{ text: "f" }] });
    const handoffModel = new ScriptedChatModel({ script: [{ text: "h" }] });
    const parent = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: "a", subagent_type: "f" }, id: "t1" },
            { name: "task", args: { description: "b", subagent_type: "h" }, id: "t2" },
          ],
        },
        { text: "ok" },
      ],
    });
    const agent = createDeepAgent({
      model: parent,
      memory: ["/AGENTS.md"],
      subagents: [
        { name: "f", description: "fork", mode: "fork", model: forkModel },
        { name: "h", description: "handoff", systemPrompt: "H", model: handoffModel },
      ],
    });
    await agent.invoke({ messages: [new HumanMessage("go")], files: { "/AGENTS.md": textFile("- likes tea") } });
    expect(system(forkModel.calls[0]!.messages)).toContain("- likes tea");
    expect(system(handoffModel.calls[0]!.messages)).not.toContain("- likes tea");
  });

  it("a fork child that pauses for approval resumes from its checkpoint, not from a second copy of the history", async () => {
    const forkModel = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "write_file", args: { file_path: "/f.md", content: "x" } }] }, { text: "wrote it" }],
    });
    const parent = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "task", args: { description: "write", subagent_type: "f" }, id: "t1" }] }, { text: "ok" }],
    });
    const agent = createDeepAgent({
      model: parent,
      checkpointer: new MemorySaver(),
      interruptOn: { write_file: true },
      subagents: [{ name: "f", description: "fork", mode: "fork", model: forkModel }],
    });
    const config = { configurable: { thread_id: crypto.randomUUID() } };
    const paused = await agent.invoke({ messages: [new HumanMessage("please write")] }, config);
    expect((paused as { __interrupt__?: unknown[] }).__interrupt__?.length).toBe(1);
    const out = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
    expect(out.files["/f.md"]).toBeDefined();
    // The child's second request: its one history (no duplicated parent messages) and the approved write's result.
    expect(typed(forkModel.calls[1]!.messages.filter((m) => !SystemMessage.isInstance(m))).map(([t]) => t)).toEqual([
      "human",
      "human",
      "ai",
      "tool",
    ]);
  });

  it("the task tool says which agents see the conversation", () => {
    const text = taskDescription([
      { name: "a", description: "A." },
      { name: "b", description: "B.", fork: true },
    ]);
    expect(text).toContain("The subagent sees only the description you write (except b, which also see this conversation)");
    expect(taskDescription([{ name: "a", description: "A." }])).toContain("The subagent sees only the description you write, so");
  });

  it("refuses an unknown mode and a fork that names skills when the agent is built; isolated, handoff and fork pass", () => {
    const model = new ScriptedChatModel({ script: [] });
    const build = (sub: unknown) => () => createDeepAgent({ model, subagents: [sub as SubAgent | ForkedSubAgent] });
    expect(build({ name: "x", description: "d", systemPrompt: "p", mode: "branch" })).toThrow(
      `SubAgent 'x' has invalid mode 'branch' — must be "isolated" or "fork".`,
    );
    expect(build({ name: "y", description: "d", mode: "fork", skills: ["/skills/"] })).toThrow(
      `SubAgent 'y' cannot set skills under mode: "fork"; the parent's skills are inherited instead.`,
    );
    try {
      build({ name: "x", description: "d", systemPrompt: "p", mode: 3 })();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DeeptabError);
      expect((e as DeeptabError).code).toBe("invalid_option");
    }
    expect(build({ name: "z", description: "d", systemPrompt: "p", mode: "handoff" })).not.toThrow();
    expect(build({ name: "z", description: "d", systemPrompt: "p", mode: "isolated" })).not.toThrow();
    expect(build({ name: "f", description: "d", systemPrompt: "p", mode: "fork" })).not.toThrow();
    expect(build({ name: "f", description: "d", mode: "fork", skills: [] })).not.toThrow();
  });
});
