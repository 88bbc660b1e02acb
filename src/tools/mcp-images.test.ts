/**
 * Images from MCP tools, end to end in Node: a real SDK server on loopback returns images, the harness keeps the
 * checked ones beside the result's text, and the real provider clients send them against the loopback provider
 * servers: Anthropic's `tool_result` carries the image, OpenAI's tool message (text only in chat completions) carries
 * the text naming the saved file. Hostile images (SVG, HTML called an image, bytes that are not what they say) are
 * saved as files and never kept as images.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { PROVIDERS } from "../models/catalog.ts";
import { toolImageProblem } from "../core/tool-image-check.ts";
import { TOOL_IMAGES_KEY } from "../core/tool-images.ts";
import { HOSTILE_IMAGES, RED_PIXEL_PNG, startMcpServer, type McpTestServer } from "../testing/mcp-servers.ts";
import { startScriptedServer, type ScriptedServer } from "../testing/provider-servers.ts";
import { toMessageInfo } from "../worker/runs/messages.ts";
import { connectMcpServer, type McpConnection } from "./mcp-tools.ts";

const closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

async function mcp(): Promise<{ server: McpTestServer; connection: McpConnection }> {
  const server = await startMcpServer();
  closers.push(server);
  const result = await connectMcpServer({ url: server.url, name: "t" });
  if (!result.ok) throw new Error(result.error.message);
  closers.push(result.value);
  return { server, connection: result.value };
}

async function provider(dialect: "openai" | "anthropic", tool: string): Promise<ScriptedServer> {
  const server = await startScriptedServer(dialect, [{ toolCalls: [{ id: "img1", name: tool, args: {} }] }, { text: "I see it." }]);
  closers.push(server);
  return server;
}

async function run(model: ChatAnthropic | ChatOpenAI, connection: McpConnection, toolImages?: boolean): Promise<BaseMessage[]> {
  const agent = createDeepAgent({
    model,
    tools: connection.tools,
    checkpointer: new MemorySaver(),
    ...(toolImages === undefined ? {} : { toolImages }),
  });
  const out = await agent.invoke({ messages: [new HumanMessage("look")] }, { configurable: { thread_id: crypto.randomUUID() } });
  return out.messages as BaseMessage[];
}

const toolMessage = (messages: BaseMessage[]) => messages.find((m): m is ToolMessage => ToolMessage.isInstance(m))!;

describe("images from MCP tools", () => {
  it("Anthropic gets the image in the tool_result beside the text; the stored message keeps text, the page gets the image", async () => {
    const { connection } = await mcp();
    const server = await provider("anthropic", "t__image");
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-test", anthropicApiUrl: server.url, maxRetries: 0 });
    const messages = await run(model, connection);
    const stored = toolMessage(messages);
    expect(typeof stored.content).toBe("string");
    expect(stored.content).toMatch(/here is the pixel[\s\S]*saved at \/large_tool_results\/img1-1\.png/);
    expect(stored.response_metadata[TOOL_IMAGES_KEY]).toEqual([{ mimeType: "image/png", data: RED_PIXEL_PNG }]);
    expect(toMessageInfo(stored).images).toEqual([{ mimeType: "image/png", data: RED_PIXEL_PNG }]);

    const second = server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const results = second.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []));
    const toolResult = results.find((b) => b.type === "tool_result")!;
    expect(toolResult.tool_use_id).toBe("img1");
    expect(toolResult.content).toEqual([
      expect.objectContaining({ type: "text", text: expect.stringContaining("here is the pixel") }),
      expect.objectContaining({ type: "image", source: { type: "base64", media_type: "image/png", data: RED_PIXEL_PNG } }),
    ]);
  });

  it("OpenAI (text-only tool messages) gets the text naming the saved file, and no image", async () => {
    const { connection } = await mcp();
    const server = await provider("openai", "t__image");
    const model = new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-test", configuration: { baseURL: server.baseUrl() }, maxRetries: 0 });
    await run(model, connection);
    const second = server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const tool = second.find((m) => m.role === "tool")!;
    const text = JSON.stringify(tool.content);
    expect(text).toContain("saved at /large_tool_results/img1-1.png");
    expect(text).not.toContain(RED_PIXEL_PNG);
    expect(JSON.stringify(second)).not.toContain("image_url");
  });

  it("the app sends images to the providers whose catalog row says they take them in tool results: Anthropic", () => {
    expect(PROVIDERS.filter((p) => p.toolResultImages).map((p) => p.id)).toEqual(["anthropic"]);
  });

  it("toolImages: false keeps an Anthropic model to the text", async () => {
    const { connection } = await mcp();
    const server = await provider("anthropic", "t__image");
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-test", anthropicApiUrl: server.url, maxRetries: 0 });
    await run(model, connection, false);
    const body = JSON.stringify(server.requests[1]!.body.messages);
    expect(body).toContain("saved at /large_tool_results/img1-1.png");
    expect(body).not.toContain(RED_PIXEL_PNG);
  });

  it("an SVG, HTML called an image and bytes that are not a PNG are saved as files, never kept or sent as images", async () => {
    const { connection } = await mcp();
    const server = await provider("anthropic", "t__hostile_images");
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-test", anthropicApiUrl: server.url, maxRetries: 0 });
    const stored = toolMessage(await run(model, connection));
    expect(stored.content).toContain("saved at /large_tool_results/img1-1.svg");
    expect(stored.content).toContain("[image text/html");
    expect(stored.response_metadata[TOOL_IMAGES_KEY]).toBeUndefined();
    expect(toMessageInfo(stored).images).toBeUndefined();
    expect(JSON.stringify(server.requests[1]!.body.messages)).not.toContain('"type":"image"');
    expect(HOSTILE_IMAGES.map((image) => toolImageProblem(image))).toEqual([
      expect.stringContaining("image/svg+xml is not one of"),
      expect.stringContaining("text/html is not one of"),
      "its bytes are not image/png",
    ]);
  });
});
