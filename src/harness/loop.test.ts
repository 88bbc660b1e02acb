import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedChatModel } from "../models/scripted.ts";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { FILE_TOOLS, FILE_TOOLS_WITHOUT_SHELL } from "../testing/tool-names.ts";
import { ToolError, type AgentTool } from "./types.ts";

const human = (text: string) => ({ messages: [new HumanMessage(text)] });

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

describe("the loop", () => {
  it("ends when the last AI message has no tool calls", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "hello there" }] });
    const out = await createDeepAgent({ model }).invoke(human("hi"));
    expect(out.messages).toHaveLength(2);
    expect(out.messages[1]!.content).toBe("hello there");
    expect(model.calls).toHaveLength(1);
  });

  it("routes model → tools → model until no tool calls, with the system prompt first", async () => {
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "ls", args: { path: "/" } }] },
        { toolCalls: [{ name: "write_file", args: { file_path: "/x.txt", content: "x" } }] },
        { text: "done" },
      ],
    });
    const agent = createDeepAgent({ model, systemPrompt: "You are terse." });
    const out = await agent.invoke(human("go"));
    expect(out.messages.map((m: BaseMessage) => m.getType())).toEqual(["human", "ai", "tool", "ai", "tool", "ai"]);
    expect(model.calls).toHaveLength(3);
    const first = model.calls[0]!.messages;
    expect(first[0]!.getType()).toBe("system");
    expect(first[0]!.content).toBe("You are terse.");
    expect(model.calls[2]!.messages.map((m) => m.getType())).toEqual(["system", "human", "ai", "tool", "ai", "tool"]);
  });

  it("hides execute from the model when the backend cannot execute", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    await createDeepAgent({ model }).invoke(human("hi"));
    expect(model.calls[0]!.tools).toEqual([...FILE_TOOLS_WITHOUT_SHELL, "task", "compact_conversation"]);
  });

  it("answers an unknown tool with an error result naming the valid tools", async () => {
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "nope", args: {} }] }, { text: "sorry" }] });
    const out = await createDeepAgent({ model }).invoke(human("hi"));
    const [result] = toolMessages(out.messages);
    expect(result!.status).toBe("error");
    expect(result!.content).toBe(
      `Error: nope is not a valid tool, try one of [${[...FILE_TOOLS, "task", "compact_conversation"].join(", ")}].`,
    );
  });

  it("answers invalid arguments with an error result the model can act on", async () => {
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "read_file", args: { filename: "/a" } }] }, { text: "retry" }],
    });
    const out = await createDeepAgent({ model }).invoke(human("hi"));
    const [result] = toolMessages(out.messages);
    expect(result!.status).toBe("error");
    expect(result!.content).toContain("missing required argument 'file_path'");
    expect(result!.content).toContain("unknown argument 'filename'");
  });

  it("reports a thrown ToolError as an error result, and a tool's own bug too, keeping its kind and text", async () => {
    const failing: AgentTool = {
      name: "flaky",
      description: "fails",
      schema: { type: "object", properties: { kind: { type: "string" } }, required: ["kind"] },
      async run(args) {
        if (args.kind === "expected") throw new ToolError("quota of the service reached");
        throw new TypeError("cannot read properties of undefined");
      },
    };
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "flaky", args: { kind: "expected" } },
            { name: "flaky", args: { kind: "bug" } },
          ],
        },
        { text: "ok" },
      ],
    });
    const out = await createDeepAgent({ model, tools: [failing] }).invoke(human("hi"));
    const [expected, bug] = toolMessages(out.messages);
    expect(expected!.content).toBe("Error: quota of the service reached");
    expect(bug!.content).toBe("Error: TypeError: cannot read properties of undefined");
    expect(bug!.status).toBe("error");
    expect(out.messages.at(-1)!.content).toBe("ok");
  });

  it("runs a LangChain tool with its own schema validation", async () => {
    const add = tool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
      name: "add",
      description: "Adds two numbers.",
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "add", args: { a: 2, b: 3 } },
            { name: "add", args: { a: "x", b: 1 } },
          ],
        },
        { text: "5" },
      ],
    });
    const out = await createDeepAgent({ model, tools: [add] }).invoke(human("add"));
    const [ok, bad] = toolMessages(out.messages);
    expect(ok!.content).toBe("5");
    expect(ok!.status).toBe("success");
    expect(bad!.status).toBe("error");
    expect(model.calls[0]!.tools).toContain("add");
  });

  it("runs 8 parallel tool calls concurrently, each seeing its own call and config", async () => {
    let active = 0;
    let peak = 0;
    const seen: Array<{ arg: number; runtimeId: string; configId: string | undefined; thread: unknown }> = [];
    const probe: AgentTool = {
      name: "probe",
      description: "records what it sees",
      schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      async run(args, rt) {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 20));
        const configCall = (rt.config as { toolCall?: { id?: string } }).toolCall;
        seen.push({
          arg: args.n as number,
          runtimeId: rt.toolCall.id,
          configId: configCall?.id,
          thread: rt.config.configurable?.thread_id,
        });
        active--;
        return `probe ${args.n}`;
      },
    };
    const calls = Array.from({ length: 8 }, (_, i) => ({ name: "probe", args: { n: i }, id: `call-${i}` }));
    const model = new ScriptedChatModel({ script: [{ toolCalls: calls }, { text: "all done" }] });
    const agent = createDeepAgent({ model, tools: [probe], checkpointer: new MemorySaver() });
    const out = await agent.invoke(human("fan out"), { configurable: { thread_id: "t-8" } });
    expect(peak).toBe(8);
    expect(seen).toHaveLength(8);
    for (const s of seen) {
      expect(s.runtimeId).toBe(`call-${s.arg}`);
      expect(s.configId).toBe(`call-${s.arg}`);
      expect(s.thread).toBe("t-8");
    }
    const results = toolMessages(out.messages);
    expect(results.map((m) => [m.tool_call_id, m.content])).toEqual(calls.map((c, i) => [c.id, `probe ${i}`]));
  });

  it("has a recursion limit of 10,000", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    const agent = createDeepAgent({ model });
    expect(agent.config?.recursionLimit).toBe(10_000);
  });

  it("streams tokens with streamMode 'messages'", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "one two three four" }] });
    const agent = createDeepAgent({ model });
    const chunks: string[] = [];
    for await (const [chunk] of await agent.stream(human("hi"), { streamMode: "messages" })) {
      if (AIMessage.isInstance(chunk) || chunk.getType() === "ai") chunks.push(String(chunk.content));
    }
    expect(chunks.filter(Boolean)).toEqual(["one ", "two ", "three ", "four"]);
  });

  it("with a checkpointer, starts a step only once the step before it is saved (durability sync)", async () => {
    /** A saver whose writes take a while, and which says which steps it has finished saving. */
    class SlowSaver extends MemorySaver {
      saved: number[] = [];
      override async put(...args: Parameters<MemorySaver["put"]>) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const config = await super.put(...args);
        this.saved.push(args[2].step);
        return config;
      }
    }
    const saver = new SlowSaver();
    const seen: Array<{ step: number; saved: number }> = [];
    const probe = tool(
      async (_args, config) => {
        seen.push({ step: config.metadata?.langgraph_step as number, saved: Math.max(...saver.saved) });
        return "ok";
      },
      { name: "probe", description: "Says when it runs.", schema: z.object({}) },
    );
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "probe", args: {} }] }, { toolCalls: [{ name: "probe", args: {} }] }, { text: "done" }],
    });
    await createDeepAgent({ model, tools: [probe], checkpointer: saver }).invoke(human("go"), { configurable: { thread_id: "t" } });
    expect(seen).toHaveLength(2);
    // The model's step (the one before each tools step) was saved before the tools ran.
    for (const { step, saved } of seen) expect(saved).toBeGreaterThanOrEqual(step - 1);
  });

  it("keeps state across turns with a checkpointer", async () => {
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "write_file", args: { file_path: "/n.md", content: "v1" } }] }, { text: "saved" }, { text: "again" }],
    });
    const agent = createDeepAgent({ model, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "keep" } };
    await agent.invoke(human("save"), config);
    const out = await agent.invoke(human("more"), config);
    expect(out.messages).toHaveLength(6);
    expect(out.files["/n.md"].content).toBe("v1");
    const snapshot = await agent.getState(config);
    expect(snapshot.values.files["/n.md"].content).toBe("v1");
  });

  it("never lets a new AI message replace an earlier one that reused its id", async () => {
    class SameIdModel extends ScriptedChatModel {
      override async _generate(...args: Parameters<ScriptedChatModel["_generate"]>) {
        const result = await super._generate(...args);
        result.generations[0]!.message.id = "same-id";
        return result;
      }
    }
    const model = new SameIdModel({ script: [{ toolCalls: [{ name: "ls", args: { path: "/" } }] }, { text: "done" }] });
    const out = await createDeepAgent({ model }).invoke(human("go"));
    expect(out.messages.map((m: BaseMessage) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect((out.messages[1] as AIMessage).tool_calls).toHaveLength(1);
    expect(out.messages[3]!.content).toBe("done");
  });
});
