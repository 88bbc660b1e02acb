/**
 * Approvals under hostile timing and input (issue 21 #1 and #8): a decision
 * applies only to the request it was shown for, every pending request is
 * shown, and a bad decision is refused without consuming the pause. Runs in
 * Node and, through hostile-approvals.browser.test.ts, in Chromium.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import type { FileData } from "../backends/protocol.ts";
import type { HITLRequest } from "../middleware/hitl.ts";
import { ScriptedChatModel, type ScriptContext } from "../models/scripted.ts";
import { textFile } from "../testing/runtime.ts";
import { createDeepAgent } from "./create-deep-agent.ts";

type Pause = HITLRequest & { subagent?: string; taskId?: string };
const pausesOf = (out: unknown): Pause[] => ((out as { __interrupt__?: Array<{ value: Pause }> }).__interrupt__ ?? []).map((i) => i.value);
const results = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A MemorySaver whose reads of the threads matching `slow` take a while, as
 * storage under load does: a subagent's state then resolves after its sibling's.
 */
class SlowReads extends MemorySaver {
  slow: RegExp | undefined;
  override async getTuple(config: RunnableConfig) {
    if (this.slow?.test(String(config.configurable?.thread_id))) await sleep(60);
    return super.getTuple(config);
  }
}

/** Two children in parallel, each writing the file its description names, then answering. */
function twoWriters(checkpointer: MemorySaver) {
  const child = new ScriptedChatModel({
    script: (ctx: ScriptContext) => {
      const path = String(ctx.messages.find((m) => m.getType() === "human")?.content ?? "");
      const done = ctx.messages.some((m) => ToolMessage.isInstance(m));
      return done ? { text: `wrote ${path}` } : { toolCalls: [{ name: "write_file", args: { file_path: path, content: "x" } }] };
    },
  });
  const parent = new ScriptedChatModel({
    script: [
      {
        toolCalls: [
          { name: "task", args: { description: "/shown.md", subagent_type: "writer" }, id: "tA" },
          { name: "task", args: { description: "/other.md", subagent_type: "writer" }, id: "tB" },
        ],
      },
      { text: "both answered" },
    ],
  });
  return createDeepAgent({
    model: parent,
    checkpointer,
    interruptOn: { write_file: true },
    subagents: [{ name: "writer", description: "writes", systemPrompt: "write", model: child }],
  });
}

async function childFiles(agent: ReturnType<typeof twoWriters>, checkpointer: MemorySaver, taskId: string) {
  const tuple = await checkpointer.getTuple({ configurable: { thread_id: `a::task::${taskId}`, checkpoint_ns: "" } });
  void agent;
  return Object.keys((tuple?.checkpoint.channel_values.files as Record<string, FileData> | undefined) ?? {});
}

describe("an approval applies only to the request it was shown for", () => {
  it("two parallel subagents pause: both requests are shown, and approving one never lets the other's write through", async () => {
    const checkpointer = new SlowReads();
    const agent = twoWriters(checkpointer);
    const config = { configurable: { thread_id: "a" } };
    const first = pausesOf(await agent.invoke({ messages: [new HumanMessage("go")] }, config));
    // Every pending request is shown, in call order, each naming its task.
    expect(first.map((p) => [p.taskId, p.actionRequests[0]!.args.file_path])).toEqual([
      ["tA", "/shown.md"],
      ["tB", "/other.md"],
    ]);
    // The child whose request is shown first resolves its state last (slow storage): it must still be the one answered.
    checkpointer.slow = /::task::tA$/;
    const second = pausesOf(await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }], taskId: "tA" } }), config));
    expect(await childFiles(agent, checkpointer, "tA")).toEqual(["/shown.md"]);
    expect(await childFiles(agent, checkpointer, "tB")).toEqual([]);
    expect(second.map((p) => [p.taskId, p.actionRequests[0]!.args.file_path])).toEqual([["tB", "/other.md"]]);
    const done = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "not that one" }] } }), config);
    expect(Object.keys(done.files as Record<string, FileData>)).toEqual(["/shown.md"]);
    expect(results(done.messages).map((m) => [m.tool_call_id, m.content])).toEqual([
      ["tA", "wrote /shown.md"],
      ["tB", "wrote /other.md"],
    ]);
  });

  it("a decision that does not say which of several pending requests it answers is refused, and both stay pending", async () => {
    const checkpointer = new SlowReads();
    const agent = twoWriters(checkpointer);
    const config = { configurable: { thread_id: "a" } };
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    checkpointer.slow = /::task::tA$/;
    await expect(agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config)).rejects.toMatchObject({
      code: "invalid_decision",
      message: expect.stringMatching(/2 approvals are pending.*tA, tB/),
    });
    await expect(agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }], taskId: "nope" } }), config)).rejects.toMatchObject(
      {
        code: "invalid_decision",
      },
    );
    expect(await childFiles(agent, checkpointer, "tA")).toEqual([]);
    expect(await childFiles(agent, checkpointer, "tB")).toEqual([]);
    const state = await agent.getState(config);
    expect(state.tasks.flatMap((t) => t.interrupts).map((i) => (i.value as Pause).taskId)).toEqual(["tA", "tB"]);
  });
});

/** A main agent pausing on write_file (approve or reject only) and on delete (every decision). */
function pausingAgent() {
  const model = new ScriptedChatModel({
    script: [
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/a.md", content: "A" }, id: "w" },
          { name: "delete", args: { file_path: "/keep.md" }, id: "d" },
        ],
      },
      { text: "done" },
    ],
  });
  return createDeepAgent({
    model,
    checkpointer: new MemorySaver(),
    interruptOn: { write_file: { allowedDecisions: ["approve", "reject"] }, delete: true },
  });
}

const approveBoth = { decisions: [{ type: "approve" }, { type: "approve" }] };
const BAD_DECISIONS: Array<[string, unknown, RegExp]> = [
  ["an edit where only approve and reject are allowed", [{ type: "edit", editedAction: { args: {} } }, { type: "approve" }], /not allowed/],
  ["a null decision", [null, { type: "approve" }], /a decision is an object/],
  ["[null] (too few decisions)", [null], /exactly 2 decision/],
  ["an edit without arguments", [{ type: "approve" }, { type: "edit" }], /editedAction: \{ args/],
  ["an edit whose arguments are a list", [{ type: "approve" }, { type: "edit", editedAction: { args: ["/x"] } }], /editedAction/],
  ["a reject whose message is not text", [{ type: "reject", message: 42 }, { type: "approve" }], /reject message must be text/],
  ["a respond without text", [{ type: "approve" }, { type: "respond" }], /respond needs a message/],
  ["a respond with blank text", [{ type: "approve" }, { type: "respond", message: "  " }], /respond needs a message/],
  ["an unknown decision type", [{ type: "allow" }, { type: "approve" }], /unknown decision type "allow"/],
  ["decisions that are not a list", "yes", /exactly 2 decision/],
];

describe("a bad decision is refused without consuming the pause", () => {
  for (const [name, decisions, why] of BAD_DECISIONS) {
    it(`${name}: refused with invalid_decision; the pause stays and a good decision then runs`, async () => {
      const agent = pausingAgent();
      const config = { configurable: { thread_id: "bad" } };
      await agent.invoke({ messages: [new HumanMessage("go")], files: { "/keep.md": textFile("k") } }, config);
      const before = await agent.getState(config);
      await expect(agent.invoke(new Command({ resume: { decisions } }), config)).rejects.toMatchObject({
        name: "HarnessError",
        code: "invalid_decision",
        message: expect.stringMatching(why),
      });
      // Twice: a refused answer leaves nothing behind that a later one replays.
      await expect(agent.invoke(new Command({ resume: { decisions } }), config)).rejects.toMatchObject({ code: "invalid_decision" });
      const after = await agent.getState(config);
      expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
      expect(after.tasks.flatMap((t) => t.interrupts).map((i) => i.value)).toEqual(
        before.tasks.flatMap((t) => t.interrupts).map((i) => i.value),
      );
      const done = await agent.invoke(new Command({ resume: approveBoth }), config);
      expect(results(done.messages).map((m) => m.content)).toEqual(["Updated file /a.md", "Deleted /keep.md"]);
      expect(Object.keys(done.files as Record<string, FileData>)).toEqual(["/a.md"]);
    });
  }

  it("a subagent's pause: a bad decision is refused, the child is not run, and a good one then answers it", async () => {
    const checkpointer = new SlowReads();
    const agent = twoWriters(checkpointer);
    const config = { configurable: { thread_id: "a" } };
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    for (const decisions of [[null], [{ type: "respond" }], []]) {
      await expect(agent.invoke(new Command({ resume: { decisions, taskId: "tB" } }), config)).rejects.toMatchObject({
        code: "invalid_decision",
      });
    }
    expect(await childFiles(agent, checkpointer, "tB")).toEqual([]);
    const next = pausesOf(await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }], taskId: "tB" } }), config));
    expect(await childFiles(agent, checkpointer, "tB")).toEqual(["/other.md"]);
    expect(next.map((p) => p.taskId)).toEqual(["tA"]);
  });
});
