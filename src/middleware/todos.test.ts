import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { AgentState } from "../harness/types.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { PARALLEL_WRITE_TODOS_ERROR, todosMiddleware, writeTodosTool, WRITE_TODOS_SYSTEM_PROMPT } from "./todos.ts";

const toolResults = (messages: readonly BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

async function run(script: ScriptedTurn[], threadId: string) {
  const model = new ScriptedChatModel({ script });
  const agent = createDeepAgent({ model, systemPrompt: "BASE.", checkpointer: new MemorySaver(), middleware: [todosMiddleware()] });
  const config = { configurable: { thread_id: threadId } };
  const out = (await agent.invoke({ messages: [new HumanMessage("plan it")] }, config)) as AgentState;
  const state = (await agent.getState(config)).values as AgentState;
  return { model, out, state };
}

const plan = [
  { content: "read the code", status: "completed" },
  { content: "write the fix", status: "in_progress" },
  { content: "run the tests", status: "pending" },
];

describe("write_todos", () => {
  it("stores the list in state and answers with deepagents' text", async () => {
    const { model, out, state } = await run([{ toolCalls: [{ name: "write_todos", args: { todos: plan } }] }, { text: "planned" }], "t1");
    expect(state.todos).toEqual(plan);
    const [result] = toolResults(out.messages);
    expect(result!.status).toBe("success");
    expect(result!.name).toBe("write_todos");
    expect(result!.content).toBe(`Updated todo list to ${JSON.stringify(plan)}`);
    expect(model.calls[0]!.tools).toContain("write_todos");
    const system = String(model.calls[0]!.messages[0]!.content);
    expect(system).toBe(`BASE.\n\n${WRITE_TODOS_SYSTEM_PROMPT}`);
  });

  it("replaces the whole list on each call", async () => {
    const second = [{ content: "ship it", status: "in_progress" }];
    const { state } = await run(
      [
        { toolCalls: [{ name: "write_todos", args: { todos: plan } }] },
        { toolCalls: [{ name: "write_todos", args: { todos: second } }] },
        { text: "ok" },
      ],
      "t2",
    );
    expect(state.todos).toEqual(second);
  });

  it("rejects parallel write_todos calls in one message, as LangChain does", async () => {
    const { out, state } = await run(
      [
        {
          toolCalls: [
            { name: "write_todos", args: { todos: plan } },
            { name: "write_todos", args: { todos: [{ content: "other", status: "pending" }] } },
          ],
        },
        { text: "ok" },
      ],
      "t3",
    );
    const results = toolResults(out.messages);
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.status).toBe("error");
      expect(r.content).toBe(PARALLEL_WRITE_TODOS_ERROR);
    }
    expect(state.todos).toEqual([]);
  });

  it("turns malformed items into an error result and keeps the old list", async () => {
    const { out, state } = await run(
      [
        { toolCalls: [{ name: "write_todos", args: { todos: plan } }] },
        { toolCalls: [{ name: "write_todos", args: { todos: [{ content: "x", status: "done" }] } }] },
        { toolCalls: [{ name: "write_todos", args: { todos: [{ status: "pending" }] } }] },
        { text: "ok" },
      ],
      "t4",
    );
    const [, badStatus, noContent] = toolResults(out.messages);
    expect(badStatus!.status).toBe("error");
    // The tool's JSON schema catches both before the tool runs, naming the item and what is allowed.
    expect(badStatus!.content).toContain(`argument 'todos[0].status' must be one of "pending", "in_progress", "completed"`);
    expect(noContent!.status).toBe("error");
    expect(noContent!.content).toContain("missing required argument 'todos[0].content'");
    expect(state.todos).toEqual(plan);
  });

  it("keeps only content and status, and declares deepagents' schema", () => {
    const schema = writeTodosTool.schema as {
      properties: { todos: { items: { properties: Record<string, { enum?: string[] }>; required: string[] } } };
    };
    expect(Object.keys(schema.properties.todos.items.properties)).toEqual(["content", "status"]);
    expect(schema.properties.todos.items.properties.status!.enum).toEqual(["pending", "in_progress", "completed"]);
    expect(schema.properties.todos.items.required).toEqual(["content", "status"]);
  });

  it("is opt-in: a default agent has no write_todos", async () => {
    const model = new ScriptedChatModel({ script: [{ text: "hi" }] });
    await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("x")] });
    expect(model.calls[0]!.tools).not.toContain("write_todos");
  });
});
