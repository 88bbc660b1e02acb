/** The library entry: the sandbox and model exports work through it (an agent gets `execute` from a ShellBackend). */
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ChatWllama, createDeepAgent, ScriptedChatModel, ShellBackend, WebContainerBackend, providerRetryMiddleware } from "./index.ts";

describe("the library entry", () => {
  it("exports the sandboxes and models; createDeepAgent({ backend: new ShellBackend() }) gives execute over the same files", async () => {
    expect(typeof ChatWllama).toBe("function");
    expect(typeof WebContainerBackend).toBe("function");
    expect(providerRetryMiddleware().name).toBe("ProviderRetryMiddleware");
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "execute", args: { command: "echo made-by-shell > /made.txt" } }] },
        { toolCalls: [{ name: "read_file", args: { file_path: "/made.txt" } }] },
        { text: "done" },
      ],
    });
    const agent = createDeepAgent({ model, backend: new ShellBackend() });
    expect(model.calls).toHaveLength(0);
    const out = (await agent.invoke({ messages: [new HumanMessage("go")] })) as { messages: BaseMessage[] };
    expect(model.calls[0]!.tools).toContain("execute");
    const results = out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => m.text);
    expect(results[0]).toContain("[Command succeeded with exit code 0]");
    expect(results[1]).toBe("     1\tmade-by-shell");
  });
});
