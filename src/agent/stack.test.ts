import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { DeeptabError } from "../core/errors.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { createDeepAgent } from "./create-deep-agent.ts";
import { assembleStack } from "./stack.ts";
import type { AgentMiddleware, AgentState, AgentTool } from "../harness/types.ts";

const mw = (name: string, extra: Partial<AgentMiddleware> = {}): AgentMiddleware => ({ name, ...extra });

describe("middleware stack", () => {
  const builtins = [
    { middleware: mw("FilesystemMiddleware"), required: true, position: "head" as const },
    { middleware: mw("PatchToolCallsMiddleware"), position: "head" as const },
    { middleware: mw("MemoryMiddleware"), position: "tail" as const },
  ];

  it("puts user middleware after the head and before the tail, in order", () => {
    const names = assembleStack(builtins, [mw("A"), mw("B")]).map((m) => m.name);
    expect(names).toEqual(["FilesystemMiddleware", "PatchToolCallsMiddleware", "A", "B", "MemoryMiddleware"]);
  });

  it("replaces a built-in in place when a user middleware has its name", () => {
    const mine = mw("PatchToolCallsMiddleware");
    const stack = assembleStack(builtins, [mw("A"), mine]);
    expect(stack.map((m) => m.name)).toEqual(["FilesystemMiddleware", "PatchToolCallsMiddleware", "A", "MemoryMiddleware"]);
    expect(stack[1]).toBe(mine);
  });

  it("removes excluded built-ins but refuses to remove required ones", () => {
    expect(assembleStack(builtins, [], ["PatchToolCallsMiddleware"]).map((m) => m.name)).toEqual([
      "FilesystemMiddleware",
      "MemoryMiddleware",
    ]);
    expect(() => assembleStack(builtins, [], ["FilesystemMiddleware"])).toThrow(expect.objectContaining({ code: "required_middleware" }));
  });

  it("rejects two user middleware with one name", () => {
    expect(() => assembleStack(builtins, [mw("A"), mw("A")])).toThrow(/unique/);
  });

  it("runs wrapModelCall outermost-first and wrapToolCall likewise", async () => {
    const order: string[] = [];
    const tracer = (name: string): AgentMiddleware => ({
      name,
      async wrapModelCall(req, next) {
        order.push(`${name}:model:in`);
        const res = await next(req);
        order.push(`${name}:model:out`);
        return res;
      },
      async wrapToolCall(req, next) {
        order.push(`${name}:tool:in`);
        const res = await next(req);
        order.push(`${name}:tool:out`);
        return res;
      },
    });
    const model = new ScriptedChatModel({ script: [{ toolCalls: [{ name: "ls", args: { path: "/" } }] }, { text: "ok" }] });
    await createDeepAgent({ model, middleware: [tracer("outer"), tracer("inner")] }).invoke({ messages: [new HumanMessage("x")] });
    expect(order).toEqual([
      "outer:model:in",
      "inner:model:in",
      "inner:model:out",
      "outer:model:out",
      "outer:tool:in",
      "inner:tool:in",
      "inner:tool:out",
      "outer:tool:out",
      "outer:model:in",
      "inner:model:in",
      "inner:model:out",
      "outer:model:out",
    ]);
  });

  it("lets wrapModelCall reshape one request without touching stored state, and add state updates", async () => {
    const shaper: AgentMiddleware = {
      name: "Shaper",
      stateSchema: { shaped: { default: () => 0, reducer: (a, b) => (a as number) + (b as number) } },
      async wrapModelCall(req, next) {
        const res = await next({ ...req, systemPrompt: req.systemPrompt + " [shaped]", messages: req.messages.slice(-1), tools: [] });
        return { ...res, update: { shaped: 1 } };
      },
    };
    const model = new ScriptedChatModel({ script: [{ text: "a" }] });
    const out = await createDeepAgent({ model, systemPrompt: "base", middleware: [shaper] }).invoke({
      messages: [new HumanMessage("first"), new HumanMessage("second")],
    });
    expect(model.calls[0]!.messages.map((m) => m.content)).toEqual(["base [shaped]", "second"]);
    expect(model.calls[0]!.tools).toEqual([]);
    expect(out.messages.map((m: { content: unknown }) => m.content)).toEqual(["first", "second", "a"]);
    expect((out as AgentState).shaped).toBe(1);
  });

  it("replacing the filesystem middleware by name keeps the agent working with the replacement", async () => {
    const calls: string[] = [];
    const custom: AgentMiddleware = {
      name: "FilesystemMiddleware",
      tools: [],
      async wrapToolCall(req, next) {
        calls.push(req.toolCall.name);
        return next(req);
      },
    };
    const model = new ScriptedChatModel({ script: [{ text: "no tools" }] });
    await createDeepAgent({ model, middleware: [custom] }).invoke({ messages: [new HumanMessage("x")] });
    expect(model.calls[0]!.tools).toEqual(["task", "compact_conversation"]);
    expect(() => createDeepAgent({ model, excludeMiddleware: ["FilesystemMiddleware"] })).toThrow(
      expect.objectContaining({ code: "required_middleware" }),
    );
  });

  it("rejects a user tool whose name collides with a built-in", () => {
    const model = new ScriptedChatModel({ script: [] });
    const clash: AgentTool = { name: "read_file", description: "x", schema: { type: "object", properties: {} }, run: async () => "" };
    expect(() => createDeepAgent({ model, tools: [clash] })).toThrow(
      expect.objectContaining({ code: "tool_name_collision", message: expect.stringContaining("read_file") }),
    );
  });

  it("refuses user tools named like built-ins when the agent is built, in deepagentsjs' words (TOOL_NAME_COLLISION)", () => {
    const model = new ScriptedChatModel({ script: [] });
    const named = (name: string): AgentTool => ({
      name,
      description: "x",
      schema: { type: "object", properties: {} },
      run: async () => "",
    });
    // `execute` and `write_todos` collide although this agent (no sandbox, no todos) does not offer them.
    let thrown: unknown;
    try {
      createDeepAgent({ model, tools: [named("mine"), named("execute"), named("write_todos")] });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DeeptabError);
    expect(thrown).toMatchObject({
      code: "tool_name_collision",
      message: "Tool name(s) [execute, write_todos] conflict with built-in tools. Rename your custom tools to avoid this.",
    });
    expect(() =>
      createDeepAgent({ model, subagents: [{ name: "s", description: "d", systemPrompt: "p", tools: [named("task")] }] }),
    ).toThrow(
      expect.objectContaining({
        code: "tool_name_collision",
        message: "Subagent 's': Tool name(s) [task] conflict with built-in tools. Rename your custom tools to avoid this.",
      }),
    );
    expect(() => createDeepAgent({ model, tools: [named("mine")] })).not.toThrow();
  });
});
