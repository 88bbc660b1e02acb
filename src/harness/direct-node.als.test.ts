/**
 * With an AsyncLocalStorage (in Node, as LangGraph's main entry installs one; installed here), the harness's nodes run inside LangChain's
 * `runWithConfig` as LangGraph's own wrapper does: a custom middleware may read the node's config through
 * `getConfig()`, and `interrupt()` finds its task. (Without one: direct-node.test.ts.)
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { HumanMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton, MockAsyncLocalStorage } from "@langchain/core/singletons";
import { Command, getConfig, interrupt, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import type { AgentMiddleware } from "./types.ts";

AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());

describe("harness nodes with an AsyncLocalStorage", () => {
  it("runs where one is installed", () => {
    expect(AsyncLocalStorageProviderSingleton.getInstance()).not.toBeInstanceOf(MockAsyncLocalStorage);
  });

  it("a middleware reads the node's config with getConfig() and pauses with LangGraph's interrupt()", async () => {
    const seen: unknown[] = [];
    const asks: AgentMiddleware = {
      name: "asks",
      beforeAgent: () => {
        seen.push(getConfig().configurable?.thread_id);
        const answer = interrupt<string, string>("may I?");
        return { messages: [new HumanMessage(`answer: ${answer}`)] };
      },
    };
    const model = new ScriptedChatModel({ script: [{ text: "ok" }] });
    const agent = createDeepAgent({ model, middleware: [asks], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "als" } };
    const paused = (await agent.invoke({ messages: [new HumanMessage("hi")] }, config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(paused.__interrupt__?.[0]?.value).toBe("may I?");
    const done = await agent.invoke(new Command({ resume: "yes" }), config);
    expect(seen).toEqual(["als", "als"]);
    expect(done.messages.map((m) => m.content)).toEqual(["hi", "answer: yes", "ok"]);
  });
});
