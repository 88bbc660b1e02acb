import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it, vi } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { AgentMiddleware } from "../harness/types.ts";
import { textFile } from "../testing/runtime.ts";
import { ScriptedChatModel, type ScriptContext, type ScriptedTurn } from "../models/scripted.ts";

const results = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
const firstHuman = (ctx: ScriptContext) => String(ctx.messages.find((m) => m.getType() === "human")?.content ?? "");

/** A child that writes a report, deletes /old.md, and answers. */
function childScript(): (ctx: ScriptContext) => ScriptedTurn {
  return (ctx) => {
    const done = ctx.messages.filter((m) => ToolMessage.isInstance(m)).length;
    const topic = firstHuman(ctx);
    if (done === 0)
      return { toolCalls: [{ name: "write_file", args: { file_path: `/reports/${topic}.md`, content: `report on ${topic}` } }] };
    if (done === 1 && topic === "alpha") return { toolCalls: [{ name: "delete", args: { file_path: "/old.md" } }] };
    return { text: `Finished ${topic}.`, delayMs: 30 };
  };
}

describe("subagents", () => {
  it("isolates the child, returns its last AI text, and brings its file changes back (deletes included)", async () => {
    const child = new ScriptedChatModel({ script: childScript() });
    const parent = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "task", args: { description: "alpha", subagent_type: "researcher" }, id: "t1" }] },
        { text: "thanks" },
      ],
    });
    const agent = createDeepAgent({
      model: parent,
      systemPrompt: "parent prompt",
      subagents: [{ name: "researcher", description: "Researches a topic.", systemPrompt: "You research.", model: child }],
    });
    const out = await agent.invoke({
      messages: [new HumanMessage("secret parent context")],
      files: { "/old.md": textFile("old"), "/keep.md": textFile("k") },
    });
    // The child's first request is exactly [system, human(description)].
    expect(child.calls[0]!.messages.map((m) => [m.getType(), m.content])).toEqual([
      ["system", "You research."],
      ["human", "alpha"],
    ]);
    expect(child.calls[0]!.tools).not.toContain("task");
    expect(child.calls[0]!.tools).toContain("write_file");
    // The parent sees one result: the child's last non-empty AI text.
    expect(results(out.messages).map((m) => [m.tool_call_id, m.content])).toEqual([["t1", "Finished alpha."]]);
    expect(out.messages.map((m: BaseMessage) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    // Files: the child's write and its delete (probe P7) reach the parent.
    expect(Object.keys(out.files).sort()).toEqual(["/keep.md", "/reports/alpha.md"]);
    expect(parent.calls[0]!.tools).toContain("task");
  });

  it("offers general-purpose by default and names the valid choices on a bad call", async () => {
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: "x", subagent_type: "nope" }, id: "bad-type" },
            { name: "task", args: { description: "x", subagent_type: "general-purpose", prompt: "hidden instructions" }, id: "bad-key" },
          ],
        },
        { text: "ok" },
      ],
    });
    const out = await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("go")] });
    const [badType, badKey] = results(out.messages);
    expect(badType!.content).toBe("We cannot invoke subagent nope because it does not exist, the only allowed types are `general-purpose`");
    expect(badType!.status).toBe("error");
    expect(String(badKey!.content)).toContain("unknown argument 'prompt' (valid: description, subagent_type)");
  });

  it("runs several task calls concurrently", async () => {
    const log: string[] = [];
    const inner = childScript();
    const child = new ScriptedChatModel({
      script: (ctx) => {
        const turn = inner(ctx);
        log.push(`${firstHuman(ctx)}:${turn.text ? "answer" : "tool"}`);
        return turn;
      },
    });
    const parent = new ScriptedChatModel({
      script: [
        { toolCalls: ["beta", "gamma", "delta"].map((t) => ({ name: "task", args: { description: t, subagent_type: "researcher" } })) },
        { text: "all done" },
      ],
    });
    const agent = createDeepAgent({
      model: parent,
      subagents: [{ name: "researcher", description: "r", systemPrompt: "You research.", model: child }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(results(out.messages).map((m) => m.content)).toEqual(["Finished beta.", "Finished gamma.", "Finished delta."]);
    expect(Object.keys(out.files).sort()).toEqual(["/reports/beta.md", "/reports/delta.md", "/reports/gamma.md"]);
    // Every child made its first call before any child answered: they ran at the same time.
    const firstAnswer = log.findIndex((e) => e.endsWith(":answer"));
    expect(log.slice(0, firstAnswer).sort()).toEqual(["beta:tool", "delta:tool", "gamma:tool"]);
  });

  it("streams child tokens tagged with the subagent", async () => {
    const child = new ScriptedChatModel({ script: [{ text: "child says hello" }] });
    const parent = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "task", args: { description: "hi", subagent_type: "helper" }, id: "tk" }] }, { text: "parent done" }],
    });
    const agent = createDeepAgent({ model: parent, subagents: [{ name: "helper", description: "h", systemPrompt: "help", model: child }] });
    const tagged: Array<[string, unknown, unknown]> = [];
    for await (const [chunk, meta] of await agent.stream({ messages: [new HumanMessage("go")] }, { streamMode: "messages" })) {
      const m = meta as Record<string, unknown>;
      if (chunk.getType() === "ai" && chunk.content) tagged.push([String(chunk.content), m.deeptab_subagent, m.deeptab_task_id]);
    }
    expect(
      tagged
        .filter(([, s]) => s === "helper")
        .map(([t]) => t)
        .join(""),
    ).toBe("child says hello");
    expect(tagged.filter(([, s]) => s === "helper").every(([, , id]) => id === "tk")).toBe(true);
    expect(
      tagged
        .filter(([, s]) => s === undefined)
        .map(([t]) => t)
        .join(""),
    ).toContain("parent done");
  });

  it("inherits interruptOn: a child's approval pauses the parent and resuming finishes both", async () => {
    const child = new ScriptedChatModel({ script: childScript() });
    const parent = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "task", args: { description: "beta", subagent_type: "researcher" }, id: "t1" },
            { name: "task", args: { description: "gamma", subagent_type: "researcher" }, id: "t2" },
          ],
        },
        { text: "both reported" },
      ],
    });
    const agent = createDeepAgent({
      model: parent,
      checkpointer: new MemorySaver(),
      interruptOn: { write_file: true },
      subagents: [{ name: "researcher", description: "r", systemPrompt: "You research.", model: child }],
    });
    const config = { configurable: { thread_id: "sub-hitl" } };
    const first = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const pause1 = (
      first as {
        __interrupt__?: Array<{ value: { subagent: string; taskId: string; actionRequests: Array<{ args: { file_path: string } }> } }>;
      }
    ).__interrupt__![0]!.value;
    expect(pause1.subagent).toBe("researcher");
    expect(pause1.actionRequests[0]!.args.file_path).toMatch(/^\/reports\/(beta|gamma)\.md$/);
    expect(first.files).toEqual({});
    // Both children wait; the resume names the one it answers.
    expect((first as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(2);
    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }], taskId: pause1.taskId } }), config);
    const pause2 = (
      second as { __interrupt__?: Array<{ value: { taskId: string; actionRequests: Array<{ args: { file_path: string } }> } }> }
    ).__interrupt__![0]!.value;
    expect(pause2.taskId).not.toBe(pause1.taskId);
    const done = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "no gamma report" }] } }), config);
    const byId = Object.fromEntries(results(done.messages).map((m) => [m.tool_call_id, String(m.content)]));
    expect(Object.keys(byId).sort()).toEqual(["t1", "t2"]);
    expect(Object.keys(done.files)).toHaveLength(1);
    expect(done.messages.at(-1)!.content).toBe("both reported");
    // The parent's own history never contains child messages.
    expect(done.messages.filter((m: BaseMessage) => AIMessage.isInstance(m))).toHaveLength(2);
  });

  it("a child cut off mid-run runs on from its own checkpoint when the parent's run is continued", async () => {
    const child = new ScriptedChatModel({ script: [{ text: "never finished", delayMs: 60_000 }, { text: "child report" }] });
    const parent = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "task", args: { description: "dig", subagent_type: "helper" }, id: "tk" }] }, { text: "parent done" }],
    });
    const agent = createDeepAgent({
      model: parent,
      checkpointer: new MemorySaver(),
      subagents: [{ name: "helper", description: "h", systemPrompt: "help", model: child }],
    });
    const config = { configurable: { thread_id: "cut-child" } };
    // The run is cut while the child's model call is on its way (as a reload cuts it: nothing after that is saved).
    const cut = new AbortController();
    const first = agent.invoke({ messages: [new HumanMessage("go")] }, { ...config, signal: cut.signal });
    await vi.waitFor(() => expect(child.calls).toHaveLength(1), { timeout: 10_000 });
    cut.abort();
    await expect(first).rejects.toThrow();
    expect((await agent.getState(config)).next).toEqual(["tools"]);

    const continued = await agent.invoke(null, config);
    expect((continued as { __interrupt__?: unknown }).__interrupt__).toBeUndefined();
    expect(child.calls).toHaveLength(2);
    // The child went on from its own history (its task), not from scratch and not with the parent's messages.
    expect(child.calls[1]!.messages.map((m) => m.getType())).toEqual(["system", "human"]);
    const result = results(continued.messages);
    expect(result.map((m) => [m.tool_call_id, m.content, m.status])).toEqual([["tk", "child report", "success"]]);
    expect(continued.messages.at(-1)!.content).toBe("parent done");
  }, 30_000);

  it("keeps private state and the parent's messages out of the child, and the child's private state out of the parent", async () => {
    const seenByChild: unknown[] = [];
    const marker = (value: string): AgentMiddleware => ({
      name: "Marker",
      stateSchema: { _marker: { default: () => "", private: true }, shared_note: { default: () => "" } },
      beforeAgent(state) {
        seenByChild.push([state._marker, state.shared_note, state.messages.length]);
        return { _marker: value, shared_note: `${value} note` };
      },
    });
    const child = new ScriptedChatModel({ script: [{ text: "child done" }] });
    const parent = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "task", args: { description: "go", subagent_type: "c" }, id: "t" }] }, { text: "ok" }],
    });
    const agent = createDeepAgent({
      model: parent,
      middleware: [marker("parent")],
      subagents: [{ name: "c", description: "c", systemPrompt: "child", model: child, middleware: [marker("child")] }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("p1"), new HumanMessage("p2")] });
    // Parent's beforeAgent, then the child's: the child saw the shared field but not the private one, and one message.
    expect(seenByChild).toEqual([
      ["", "", 2],
      ["", "parent note", 1],
    ]);
    // The child's shared field came back; its private field did not.
    expect((out as Record<string, unknown>).shared_note).toBe("child note");
    expect((out as Record<string, unknown>)._marker).toBe("parent");
  });
});
