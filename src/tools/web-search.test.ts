/**
 * The providers' own web search, end to end in Node: the app's models (createRemoteModel) against the loopback
 * provider servers, through createDeepAgent. The search tool is bound only when the thread switches it on and the
 * provider runs one; the real clients parse the scripted search (Anthropic's server_tool_use and
 * web_search_tool_result blocks and cited text; OpenAI's Responses API web_search_call and url_citation
 * annotations); the page gets the searches and the citations (http(s) only); and the next turn sends the provider's
 * blocks back as they were (the loopback answers a history it could not replay with the real API's 400).
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it } from "vitest";
import { createDeepAgent, type DeepAgent } from "../agent/create-deep-agent.ts";
import { createRemoteModel, type ModelChoice } from "../models/providers.ts";
import { startScriptedServer, type ScriptedServer, type WebSearchReply } from "../testing/provider-servers.ts";
import { choiceFor } from "../testing/remote-model.ts";
import { toMessageInfo } from "../worker/runs/messages.ts";
import { webSearchBlocks } from "../core/web-search-blocks.ts";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const SEARCH: WebSearchReply = {
  query: "deep agents in the browser",
  results: [
    { url: "https://example.com/deep-agents", title: "Deep agents, explained" },
    { url: "https://docs.example.org/tabs", title: "Agents in a tab" },
  ],
  cite: [0, 1],
};

async function server(dialect: "openai" | "anthropic"): Promise<ScriptedServer> {
  const s = await startScriptedServer(dialect);
  servers.push(s);
  return s;
}

async function agentFor(choice: ModelChoice): Promise<DeepAgent> {
  const model = await createRemoteModel(choice, "sk-test");
  if (!model.ok) throw new Error(model.error);
  return createDeepAgent({ model: model.value, checkpointer: new MemorySaver() });
}

/** One turn, streamed as the app streams it (token by token), or invoked whole. */
async function turn(agent: DeepAgent, threadId: string, text: string, streamed: boolean): Promise<BaseMessage[]> {
  const config = { configurable: { thread_id: threadId } };
  const input = { messages: [new HumanMessage(text)] };
  if (streamed) for await (const _chunk of await agent.stream(input, { ...config, streamMode: "messages" }));
  else await agent.invoke(input, config);
  return ((await agent.getState(config)).values as { messages: BaseMessage[] }).messages;
}

const toolsOf = (s: ScriptedServer, i = 0) => (s.requests[i]!.body.tools ?? []) as Array<Record<string, unknown>>;
const lastAI = (messages: BaseMessage[]) => messages.findLast((m): m is AIMessage => AIMessage.isInstance(m))!;

describe("binding the provider's web search", () => {
  it("Anthropic: the server tool only when the thread switches it on", async () => {
    const s = await server("anthropic");
    await turn(await agentFor(choiceFor(s)), "a", "hi", false);
    await turn(await agentFor({ ...choiceFor(s), webSearch: true }), "b", "hi", false);
    expect(toolsOf(s, 0).some((t) => String(t.type).startsWith("web_search"))).toBe(false);
    expect(toolsOf(s, 1)).toContainEqual(expect.objectContaining({ type: "web_search_20250305", name: "web_search", max_uses: 5 }));
    // The agent's own tools stay beside it.
    expect(toolsOf(s, 1).some((t) => t.name === "read_file")).toBe(true);
  });

  it("OpenAI: the web_search tool through the Responses API only when switched on; an OpenAI-compatible server never", async () => {
    const s = await server("openai");
    await turn(await agentFor(choiceFor(s)), "a", "hi", false);
    await turn(await agentFor({ ...choiceFor(s), webSearch: true }), "b", "hi", false);
    await turn(await agentFor({ provider: "openai-compatible", model: "qwen", baseUrl: s.baseUrl(), webSearch: true }), "c", "hi", false);
    expect(s.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/responses", "/v1/chat/completions"]);
    expect(toolsOf(s, 1)).toContainEqual({ type: "web_search" });
    for (const i of [0, 2]) expect(JSON.stringify(toolsOf(s, i))).not.toContain("web_search");
  });
});

describe.each([false, true])("Anthropic's web search (streamed: %s)", (streamed) => {
  it("keeps the search blocks, shows the search and the citations, and replays them on the next turn", async () => {
    const s = await server("anthropic");
    s.script([
      { webSearch: SEARCH, text: "Deep agents plan, use files and delegate.", chunks: ["Deep agents plan, ", "use files and delegate."] },
      { text: "As I found before, yes." },
    ]);
    const agent = await agentFor({ ...choiceFor(s), webSearch: true });
    const first = lastAI(await turn(agent, "t", "What are deep agents?", streamed));
    const info = toMessageInfo(first);
    expect(info.content).toBe("Deep agents plan, use files and delegate.");
    expect(info.toolCalls).toBeUndefined();
    expect(info.searches).toEqual([{ id: "srvtoolu_0", query: SEARCH.query, results: SEARCH.results }]);
    expect(info.citations).toEqual(SEARCH.results);

    const messages = await turn(agent, "t", "Are you sure?", streamed);
    expect(s.requests).toHaveLength(2);
    expect(lastAI(messages).text).toBe("As I found before, yes.");
    const sent = s.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const assistant = sent.find((m) => m.role === "assistant")!;
    expect(assistant.content).toEqual([
      { type: "server_tool_use", id: "srvtoolu_0", name: "web_search", input: { query: SEARCH.query } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_0",
        content: SEARCH.results.map((r, i) => ({ type: "web_search_result", ...r, encrypted_content: `enc_0_${i}`, page_age: null })),
      },
      expect.objectContaining({
        type: "text",
        text: "Deep agents plan, use files and delegate.",
        citations: SEARCH.results.map((r, i) =>
          expect.objectContaining({ type: "web_search_result_location", url: r.url, encrypted_index: `idx_0_${i}` }),
        ),
      }),
    ]);
  });
});

describe("Anthropic's web search beside the agent's own tools", () => {
  it("runs the named tool call of a message that also searched, and only that one (streamed)", async () => {
    const s = await server("anthropic");
    s.script([
      {
        webSearch: SEARCH,
        text: "Saving what I found.",
        toolCalls: [{ id: "toolu_w", name: "write_file", args: { file_path: "/f.md", content: "x" } }],
      },
      { when: { toolResults: 1 }, text: "Saved." },
    ]);
    const agent = await agentFor({ ...choiceFor(s), webSearch: true });
    const messages = await turn(agent, "t", "Search and save.", true);
    const first = messages.find((m): m is AIMessage => AIMessage.isInstance(m))!;
    expect(first.tool_calls?.map((c) => [c.id, c.name])).toEqual([["toolu_w", "write_file"]]);
    expect(lastAI(messages).text).toBe("Saved.");
    const sent = s.requests[1]!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(sent.find((m) => m.role === "assistant")!.content.map((b) => b.type)).toEqual([
      "server_tool_use",
      "web_search_tool_result",
      "text",
      "tool_use",
    ]);
  });
});

describe.each([false, true])("OpenAI's web search (streamed: %s)", (streamed) => {
  it("shows the search and the citations, and the next turn goes through", async () => {
    const s = await server("openai");
    s.script([{ webSearch: SEARCH, text: "Deep agents plan.", chunks: ["Deep agents ", "plan."] }, { text: "Yes." }]);
    const agent = await agentFor({ ...choiceFor(s), webSearch: true });
    const first = lastAI(await turn(agent, "t", "What are deep agents?", streamed));
    const info = toMessageInfo(first);
    expect(info.content).toBe("Deep agents plan.");
    expect(info.searches).toEqual([{ id: "ws_0", query: SEARCH.query, results: SEARCH.results }]);
    expect(info.citations).toEqual(SEARCH.results);

    const messages = await turn(agent, "t", "Are you sure?", streamed);
    expect(lastAI(messages).text).toBe("Yes.");
    const input = s.requests[1]!.body.input as Array<Record<string, unknown>>;
    expect(input).toContainEqual(expect.objectContaining({ type: "web_search_call", id: "ws_0" }));
  });
});

describe("OpenAI with web search on", () => {
  it("runs the agent's own tools through the Responses API too: a call, its result, then the searched answer", async () => {
    const s = await server("openai");
    s.script([
      { toolCalls: [{ id: "w1", name: "write_file", args: { file_path: "/notes.md", content: "todo" } }] },
      { when: { toolResults: 1 }, webSearch: SEARCH, text: "Noted and searched." },
    ]);
    const agent = await agentFor({ ...choiceFor(s), webSearch: true });
    const messages = await turn(agent, "t", "Note it, then search.", true);
    expect(toMessageInfo(lastAI(messages))).toMatchObject({ content: "Noted and searched.", citations: SEARCH.results });
    expect(s.requests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses"]);
    const input = s.requests[1]!.body.input as Array<Record<string, unknown>>;
    expect(input).toContainEqual(expect.objectContaining({ type: "function_call", call_id: "w1", name: "write_file" }));
    expect(input).toContainEqual(expect.objectContaining({ type: "function_call_output", call_id: "w1" }));
  });
});

describe("web search blocks for the page", () => {
  it("drops links that are not http(s) and keeps titles as plain text", () => {
    const { searches, citations } = webSearchBlocks({
      content: [
        { type: "server_tool_use", id: "s1", name: "web_search", input: '{"query":"q"}' },
        {
          type: "web_search_tool_result",
          tool_use_id: "s1",
          content: [
            { type: "web_search_result", url: "javascript:alert(1)", title: "bad" },
            { type: "web_search_result", url: "https://ok.example/", title: "<b>Bold</b>\n title" },
          ],
        },
        {
          type: "text",
          text: "x",
          citations: [
            { type: "web_search_result_location", url: "data:text/html,<script>", title: "d" },
            { type: "web_search_result_location", url: "http://ok.example/a", title: "" },
          ],
        },
      ],
    });
    expect(searches).toEqual([{ id: "s1", query: "q", results: [{ url: "https://ok.example/", title: "<b>Bold</b> title" }] }]);
    expect(citations).toEqual([{ url: "http://ok.example/a", title: "ok.example" }]);
  });

  it("names a failed search's reason", () => {
    const { searches } = webSearchBlocks({
      content: [
        { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "q" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "s1",
          content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
        },
      ],
    });
    expect(searches).toEqual([{ id: "s1", query: "q", results: [], error: "max_uses_exceeded" }]);
  });
});
