/**
 * The real @langchain/openai and @langchain/anthropic clients against scripted
 * loopback servers speaking their wire protocols: token streaming through
 * createDeepAgent, tool calls, context-overflow recovery on the raw provider
 * error, Anthropic cache breakpoints on the wire, and the key going only to
 * the chosen provider.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { startScriptedServer, type ScriptedServer } from "./provider-servers.ts";

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(...args: Parameters<typeof startScriptedServer>) {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

const openai = (url: string) =>
  new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-test-openai", configuration: { baseURL: `${url}/v1` }, maxRetries: 0 });

describe("OpenAI over the wire", () => {
  it("runs tool calls and streams the answer token by token", async () => {
    const server = await serve("openai", [
      { toolCalls: [{ id: "call_w", name: "write_file", args: { file_path: "/a.md", content: "from openai" } }] },
      { text: "All written.", chunks: ["All ", "writ", "ten."] },
    ]);
    const agent = createDeepAgent({ model: openai(server.url), systemPrompt: "Be brief." });
    const tokens: string[] = [];
    let files: Record<string, { content: string }> = {};
    for await (const [mode, chunk] of await agent.stream(
      { messages: [new HumanMessage("write it")] },
      { streamMode: ["messages", "values"] },
    )) {
      if (mode === "messages") {
        const [msg] = chunk as unknown as [{ getType(): string; content: unknown }];
        if (msg.getType() === "ai" && typeof msg.content === "string" && msg.content) tokens.push(msg.content);
      } else files = (chunk as { files: typeof files }).files;
    }
    expect(tokens).toEqual(["All ", "writ", "ten."]);
    expect(files["/a.md"]!.content).toBe("from openai");
    const first = server.requests[0]!;
    expect(first.path).toBe("/v1/chat/completions");
    expect(first.headers.authorization).toBe("Bearer sk-test-openai");
    const toolNames = (first.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(toolNames).toContain("write_file");
    expect(toolNames).not.toContain("execute");
    expect((first.body.messages as Array<{ role: string; content: string }>)[0]).toEqual({ role: "system", content: "Be brief." });
    const second = server.requests[1]!.body.messages as Array<{ role: string; tool_call_id?: string }>;
    expect(second.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_w" });
  });

  it("recovers once from the raw context_length_exceeded error", async () => {
    const overflow = {
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      },
    };
    const server = await serve("openai", (req, n) => {
      const system = (req.body.messages as Array<{ role: string; content: string }>)[0]!;
      if (system.content.startsWith("Summarize the conversation")) return { text: "Summary: the user said many things." };
      return n === 0 ? overflow : { text: "Answered after compaction." };
    });
    const history = Array.from({ length: 8 }, (_, i) => new HumanMessage(`note ${i}: ${"x".repeat(200)}`));
    const agent = createDeepAgent({
      model: openai(server.url),
      systemPrompt: "sys",
      checkpointer: new MemorySaver(),
      summarization: { keep: { messages: 2 } },
    });
    const out = await agent.invoke({ messages: history }, { configurable: { thread_id: "of" } });
    expect(out.messages.at(-1)!.content).toBe("Answered after compaction.");
    expect(server.requests).toHaveLength(3);
    const retried = server.requests[2]!.body.messages as unknown[];
    expect(retried.length).toBeLessThan((server.requests[0]!.body.messages as unknown[]).length);
    expect(out.messages).toHaveLength(9);
  });
});

describe("Anthropic over the wire", () => {
  it("streams tokens and sends cache breakpoints after the stable system prompt", async () => {
    const server = await serve("anthropic", [{ text: "Hello from Claude.", chunks: ["Hello ", "from ", "Claude."] }]);
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-test", anthropicApiUrl: server.url, maxRetries: 0 });
    const agent = createDeepAgent({ model, systemPrompt: "Stable instructions." });
    const tokens: string[] = [];
    for await (const [msg] of await agent.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "messages" })) {
      const content = msg.content;
      if (msg.getType() === "ai" && typeof content === "string" && content) tokens.push(content);
      if (msg.getType() === "ai" && Array.isArray(content))
        for (const b of content as Array<{ text?: string }>) if (b.text) tokens.push(b.text);
    }
    expect(tokens.join("")).toBe("Hello from Claude.");
    expect(tokens.length).toBeGreaterThan(1);
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe("sk-ant-test");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body.system).toEqual([{ type: "text", text: "Stable instructions.", cache_control: { type: "ephemeral" } }]);
    const last = (req.body.messages as Array<{ content: Array<{ cache_control?: unknown }> }>).at(-1)!;
    expect(last.content.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
  });
});
