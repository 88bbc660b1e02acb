/**
 * The real @langchain/openai and @langchain/anthropic clients against scripted
 * loopback servers speaking their wire protocols: token streaming through
 * createDeepAgent, tool calls, context-overflow recovery on the raw provider
 * error, Anthropic cache breakpoints on the wire, and the key going only to
 * the chosen provider. Then the servers' own behaviour as the browser app
 * meets it: CORS preflights and headers, `/v1/models` (through the app's
 * listModels), 429 with a Retry-After the client error carries, dropped
 * connections, delayed and aborted streams, the provider's 401 for a wrong
 * key, fixed tool-call ids, request matching, and the `/__control` API with
 * its scopes.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { HumanMessage, type AIMessage, type AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { classifyProviderError } from "../middleware/provider-retry.ts";
import { listModels } from "../models/providers.ts";
import { DEFAULT_MODELS, DEFAULT_REPLY_TEXT, type RecordedRequest, type ScopeState, type ScriptedServer } from "./provider-servers.ts";
import { serveScripted } from "./scripted-servers.ts";

const serve = serveScripted();

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

const openaiAt = (baseURL: string, apiKey = "sk-test-openai", model = "gpt-4o") =>
  new ChatOpenAI({ model, apiKey, configuration: { baseURL }, maxRetries: 0 });
const anthropicAt = (anthropicApiUrl: string, apiKey = "sk-ant-test", model = "claude-sonnet-4-5") =>
  new ChatAnthropic({ model, apiKey, anthropicApiUrl, maxRetries: 0 });
const clientFor = (server: ScriptedServer, key?: string, scope?: string, model?: string) =>
  server.dialect === "openai" ? openaiAt(server.baseUrl(scope), key, model) : anthropicAt(server.baseUrl(scope), key, model);

/** The plain text of a reply (Anthropic answers in blocks). */
function textOf(msg: { content: unknown }): string {
  if (typeof msg.content === "string") return msg.content;
  return (msg.content as Array<{ type: string; text?: string }>).map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
}

/** Rejection of `p` (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<Error & { status?: number; headers?: Headers; error?: unknown }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { status?: number; headers?: Headers };
  }
  throw new Error("expected a rejection");
}

async function control<T>(server: ScriptedServer, route: string, body?: unknown, scope?: string): Promise<T> {
  const res = await fetch(`${server.url}${scope ? `/s/${scope}` : ""}/__control/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const ORIGIN = "http://127.0.0.1:4317";

describe.each(["openai", "anthropic"] as const)("%s server for the browser", (dialect) => {
  const chatPath = dialect === "openai" ? "/v1/chat/completions" : "/v1/messages";
  const chatBody = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ model: "m", max_tokens: 16, messages: [{ role: "user", content: "hi" }], ...extra });

  it("answers CORS preflights for the providers' browser headers, and puts CORS and CORP on every response", async () => {
    const server = await serve(dialect);
    const requested =
      "authorization, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access, x-stainless-os, content-type";
    const pre = await fetch(`${server.url}${chatPath}`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": requested },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    const allowed = pre.headers.get("access-control-allow-headers")!.split(", ");
    // `*` does not cover Authorization (Fetch spec), so it is named; the rest are named too.
    for (const h of ["*", ...requested.split(", "), "x-stainless-retry-count", "anthropic-beta"]) expect(allowed).toContain(h);
    expect(pre.headers.get("access-control-expose-headers")).toContain("retry-after");
    expect(pre.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(server.requests).toEqual([]);

    const responses = await Promise.all([
      fetch(`${server.url}${chatPath}`, { method: "POST", headers: { origin: ORIGIN }, body: chatBody() }),
      fetch(`${server.url}${chatPath}`, { method: "POST", headers: { origin: ORIGIN }, body: chatBody({ stream: true }) }),
      fetch(`${server.url}/v1/models`, { headers: { origin: ORIGIN } }),
      fetch(`${server.url}/v1/nowhere`, { headers: { origin: ORIGIN } }),
      fetch(`${server.url}/__control/state`, { headers: { origin: ORIGIN } }),
      fetch(`${server.url}/v1/models`),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 404, 200, 200]);
    expect(responses.map((r) => r.headers.get("access-control-allow-origin"))).toEqual([ORIGIN, ORIGIN, ORIGIN, ORIGIN, ORIGIN, "*"]);
    for (const r of responses) {
      expect(r.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    }
    // A fresh connection for every request, streams included (only a stream scripted to drop keeps keep-alive framing).
    expect(responses.map((r) => r.headers.get("connection"))).toEqual(["close", "close", "close", "close", "close", "close"]);
    expect(responses[1]!.headers.get("content-type")).toBe("text/event-stream");
    await Promise.all(responses.map((r) => r.text()));
  });

  it("lists its models in the provider's shape, as the app's listModels reads them", async () => {
    const server = await serve(dialect);
    const key = dialect === "openai" ? "sk-test-openai" : "sk-ant-test";
    const choice = { provider: dialect === "openai" ? ("openai-compatible" as const) : dialect, model: "", baseUrl: server.baseUrl() };
    expect(await listModels(choice, key)).toEqual({ ok: true, value: [...DEFAULT_MODELS[dialect]].sort() });

    await control(server, "config", { models: ["m-b", "m-a"] });
    const body = (await (await fetch(`${server.url}/v1/models`)).json()) as unknown;
    if (dialect === "openai")
      expect(body).toEqual({
        object: "list",
        data: [
          { id: "m-b", object: "model", created: 1_700_000_000, owned_by: "deeptab-scripted" },
          { id: "m-a", object: "model", created: 1_700_000_000, owned_by: "deeptab-scripted" },
        ],
      });
    else
      expect(body).toEqual({
        data: [
          { id: "m-b", type: "model", display_name: "m-b", created_at: "2025-01-01T00:00:00Z" },
          { id: "m-a", type: "model", display_name: "m-a", created_at: "2025-01-01T00:00:00Z" },
        ],
        has_more: false,
        first_id: "m-b",
        last_id: "m-a",
      });
    expect(await listModels(choice, key)).toEqual({ ok: true, value: ["m-a", "m-b"] });
    expect((await fetch(`${server.url}/v1/models/m-a`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/models/gone`)).status).toBe(404);
    expect(server.requests.filter((r) => r.method === "GET").map((r) => r.path)).toContain("/v1/models/gone");

    const fixed = await serve(dialect, [], { models: ["only-one"] });
    expect(await listModels({ ...choice, baseUrl: fixed.baseUrl() }, key)).toEqual({ ok: true, value: ["only-one"] });
  });

  it("says with a code why listModels could not list: an error status, no answer, no key, not a model list", async () => {
    const server = await serve(dialect);
    const key = dialect === "openai" ? "sk-test-openai" : "sk-ant-test";
    const provider = dialect === "openai" ? ("openai-compatible" as const) : dialect;
    const missing = await listModels({ provider, model: "", baseUrl: `${server.url}/nowhere` }, key);
    expect(missing).toEqual({ ok: false, error: { name: "ModelListError", code: "http", message: "HTTP 404", status: 404 } });
    // Port 9 (discard) has no listener on the loopback: the connection is refused.
    const down = await listModels({ provider, model: "", baseUrl: "http://127.0.0.1:9/v1" }, key);
    expect(down).toMatchObject({ ok: false, error: { name: "ModelListError", code: "network" } });
    if (dialect === "anthropic")
      expect(await listModels({ provider, model: "", baseUrl: server.baseUrl() }, undefined)).toMatchObject({
        ok: false,
        error: { code: "no_key" },
      });
    const page = async () => new Response("<!doctype html><title>Sign in</title>", { headers: { "content-type": "text/html" } });
    expect(await listModels({ provider, model: "", baseUrl: server.baseUrl() }, key, page)).toMatchObject({
      ok: false,
      error: { name: "ModelListError", code: "invalid_response" },
    });
  });

  it("sends a 429 whose Retry-After the client error carries, with the provider's rate-limit body", async () => {
    const server = await serve(dialect, [{ status: 429, headers: { "retry-after": "1" } }, { text: "after the wait" }]);
    const model = clientFor(server);
    const err = await failure(model.invoke("hi"));
    expect(err.status).toBe(429);
    expect(err.headers?.get("retry-after")).toBe("1");
    expect(classifyProviderError(err)).toEqual({ kind: "rate_limit", status: 429, retryAfterMs: 1000 });
    if (dialect === "openai") expect(err.message).toContain("Rate limit reached");
    else expect(err.error).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    expect(textOf(await model.invoke("again"))).toBe("after the wait");
  });

  it("drops the connection for `disconnect`: the client sees a network failure, and the server goes on", async () => {
    const server = await serve(dialect, [{ disconnect: true }, { disconnect: true, delayMs: 50 }]);
    const model = clientFor(server);
    const err = await failure(model.invoke("hi"));
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/connection error/i);
    expect(classifyProviderError(err)).toEqual({ kind: "network" });
    const started = Date.now();
    const streamed = await failure((async () => (await model.stream("hi")).next())());
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(classifyProviderError(streamed)).toEqual({ kind: "network" });
    expect(textOf(await model.invoke("hi"))).toBe(DEFAULT_REPLY_TEXT);
    expect(server.requests).toHaveLength(3);
  });

  it("streams chunks `delayMs` apart, stops at an abort, and drops the stream after `disconnectAfter`", async () => {
    const server = await serve(dialect, [
      { chunks: ["one ", "two ", "three"], delayMs: 120 },
      { chunks: ["a", "b", "c", "d"], delayMs: 150 },
      { chunks: ["x", "y", "z"], disconnectAfter: 2 },
    ]);
    const model = clientFor(server);
    const arrivals: Array<{ text: string; at: number }> = [];
    const started = Date.now();
    for await (const chunk of await model.stream("count")) {
      const text = textOf(chunk);
      if (text) arrivals.push({ text, at: Date.now() - started });
    }
    expect(arrivals.map((a) => a.text)).toEqual(["one ", "two ", "three"]);
    // The server waits `delayMs` before each chunk, so chunk i cannot arrive before (i + 1) delays have passed. Only
    // these lower bounds hold on a loaded machine: a late first chunk can arrive together with the next one, so the
    // gap between two arrivals says nothing (it failed beside another CPU-heavy job).
    arrivals.forEach((a, i) => expect(a.at).toBeGreaterThanOrEqual(100 * (i + 1)));

    const controller = new AbortController();
    const seen: string[] = [];
    const aborted = await failure(
      (async () => {
        for await (const chunk of await model.stream("stop me", { signal: controller.signal })) {
          seen.push(textOf(chunk));
          if (seen.join("").includes("a")) controller.abort();
        }
      })(),
    );
    expect(aborted.message).toMatch(/abort/i);
    expect(seen.join("")).toBe("a");

    const cut: string[] = [];
    const dropped = await failure(
      (async () => {
        for await (const chunk of await model.stream("cut")) cut.push(textOf(chunk));
      })(),
    );
    expect(cut.join("")).toBe("xy");
    expect(classifyProviderError(dropped)).toEqual({ kind: "network" });
    // The server is still there, and the aborted stream did not eat another reply.
    expect(textOf(await model.invoke("next"))).toBe(DEFAULT_REPLY_TEXT);
    expect(server.state().served).toBe(4);
  });

  it("holds a stream after `hold.after` pieces until the test lets it go", async () => {
    let release = () => {};
    const until = new Promise<void>((resolve) => (release = resolve));
    const server = await serve(dialect, [{ chunks: ["one ", "two ", "three"], hold: { after: 1, until } }]);
    const seen: string[] = [];
    const read = (async () => {
      for await (const chunk of await clientFor(server).stream("hold")) seen.push(textOf(chunk));
    })();
    await expect.poll(() => seen.join("")).toBe("one ");
    // Held: nothing more comes until the release, however long that is.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.join("")).toBe("one ");
    release();
    await read;
    expect(seen.join("")).toBe("one two three");
  });

  it("with requireKey, answers a wrong or missing key with the provider's real 401", async () => {
    const key = dialect === "openai" ? "sk-right-key-0123456789" : "sk-ant-right-key";
    const server = await serve(dialect, [{ text: "welcome" }], { requireKey: key });
    const err = await failure(clientFor(server, "sk-wrong-key-0123456789").invoke("hi"));
    expect(err.status).toBe(401);
    expect(classifyProviderError(err)).toEqual({ kind: "auth", status: 401 });
    if (dialect === "openai") {
      expect(err.message).toContain("Incorrect API key provided: sk-****************6789.");
      expect(err).toMatchObject({ code: "invalid_api_key", type: "invalid_request_error" });
    } else expect(err.error).toMatchObject({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });

    const bare = await fetch(`${server.url}${chatPath}`, { method: "POST", body: chatBody() });
    expect(bare.status).toBe(401);
    const bareBody = (await bare.json()) as { error: { message: string } };
    expect(bareBody.error.message).toMatch(dialect === "openai" ? /^You didn't provide an API key/ : /^x-api-key header is required$/);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(401);

    expect(textOf(await clientFor(server, key).invoke("hi"))).toBe("welcome");
    expect(server.state().served).toBe(1);
    await control(server, "config", { requireKey: null });
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(200);
  });

  it("answers with fixed tool-call ids every turn, and generated ones when none is given", async () => {
    const call = { id: dialect === "openai" ? "call_0" : "toolu_0", name: "read_file", args: { file_path: "/a.md" } };
    const server = await serve(dialect, [{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [{ name: "ls", args: {} }] }]);
    const model = clientFor(server).bindTools([
      { name: "read_file", description: "read", schema: { type: "object", properties: { file_path: { type: "string" } } } },
      { name: "ls", description: "list", schema: { type: "object", properties: {} } },
    ]);
    const first = (await model.invoke("read")) as AIMessage;
    let streamed: AIMessageChunk | undefined;
    for await (const chunk of await model.stream("again")) streamed = streamed ? streamed.concat(chunk) : chunk;
    const third = (await model.invoke("list")) as AIMessage;
    expect(first.tool_calls).toMatchObject([{ id: call.id, name: "read_file", args: { file_path: "/a.md" } }]);
    expect(streamed!.tool_calls).toMatchObject([{ id: call.id, name: "read_file", args: { file_path: "/a.md" } }]);
    expect(third.tool_calls).toMatchObject([{ id: dialect === "openai" ? "call_2_0" : "toolu_2_0", name: "ls", args: {} }]);
  });

  it("is scripted, inspected and reset through /__control, and answers the default reply when the queue is empty", async () => {
    const server = await serve(dialect, [], { defaultReply: { text: "nothing queued" } });
    const model = clientFor(server);
    const scripted = await control<ScopeState>(server, "script", { replies: [{ text: "first" }, { chunks: ["sec", "ond"] }] });
    expect(scripted).toMatchObject({ pending: 2, served: 0, requests: 0 });
    expect(textOf(await model.invoke("1"))).toBe("first");
    let streamed = "";
    for await (const chunk of await model.stream("2")) streamed += textOf(chunk);
    expect(streamed).toBe("second");
    expect(textOf(await model.invoke("3"))).toBe("nothing queued");

    const recorded = await control<RecordedRequest[]>(server, "requests");
    expect(recorded.map((r) => [r.method, r.path])).toEqual([
      ["POST", chatPath],
      ["POST", chatPath],
      ["POST", chatPath],
    ]);
    expect(recorded[1]!.body.stream).toBe(true);
    expect(recorded[0]!.headers[dialect === "openai" ? "authorization" : "x-api-key"]).toBe(
      dialect === "openai" ? "Bearer sk-test-openai" : "sk-ant-test",
    );
    expect(recorded[2]!.time).toBeGreaterThanOrEqual(recorded[0]!.time);
    expect(await control<ScopeState>(server, "state")).toMatchObject({ pending: 0, served: 3, requests: 3 });

    await control(server, "config", { defaultReply: { status: 503 } });
    expect((await failure(model.invoke("4"))).status).toBe(503);
    // A bare array replaces the queue too.
    await control(server, "script", [{ text: "bare" }]);
    const reset = await control<ScopeState>(server, "reset", {});
    expect(reset).toMatchObject({ pending: 0, served: 0, requests: 0, config: { defaultReply: { text: "nothing queued" } } });
    expect(server.requests).toEqual([]);
    expect(textOf(await model.invoke("5"))).toBe("nothing queued");

    const bad = await fetch(`${server.url}/__control/script`, { method: "POST", body: JSON.stringify({ replies: "no" }) });
    expect(bad.status).toBe(400);
    const badConfig = await fetch(`${server.url}/__control/config`, { method: "POST", body: JSON.stringify({ models: [1] }) });
    expect(badConfig.status).toBe(400);
    expect((await fetch(`${server.url}/__control/nothing`)).status).toBe(404);
  });

  it("matches queued replies to the request with `when`, first match in queue order", async () => {
    const server = await serve(dialect, [
      { when: { lastUserIncludes: "beta" }, text: "B" },
      { when: { lastUserIncludes: "alpha" }, text: "A" },
      { when: { model: "other-model" }, text: "by model" },
    ]);
    const model = clientFor(server);
    expect(textOf(await model.invoke("say alpha"))).toBe("A");
    expect(
      textOf(await model.invoke([new HumanMessage("beta first"), new HumanMessage({ content: [{ type: "text", text: "then gamma" }] })])),
    ).toBe(DEFAULT_REPLY_TEXT);
    expect(textOf(await model.invoke("beta"))).toBe("B");
    expect(textOf(await clientFor(server, undefined, undefined, "other-model").invoke("x"))).toBe("by model");
    expect(server.state().pending).toBe(0);
  });

  it("keeps scopes apart: /s/<scope>/… has its own queue, config and request log", async () => {
    const server = await serve(dialect, [{ text: "root reply" }]);
    await control(server, "script", { replies: [{ text: "scope a reply" }] }, "a");
    await control(server, "config", { requireKey: "sk-ant-scoped-key" }, "b");
    expect(textOf(await clientFor(server, undefined, "a").invoke("hi"))).toBe("scope a reply");
    expect(textOf(await clientFor(server, undefined, "a").invoke("hi"))).toBe(DEFAULT_REPLY_TEXT);
    expect((await failure(clientFor(server, undefined, "b").invoke("hi"))).status).toBe(401);
    expect(textOf(await clientFor(server).invoke("hi"))).toBe("root reply");

    const inA = await control<RecordedRequest[]>(server, "requests", undefined, "a");
    expect(inA.map((r) => r.path)).toEqual([chatPath, chatPath]);
    expect(server.requestsOf("b")).toHaveLength(1);
    expect(server.requests.map((r) => r.path)).toEqual([chatPath]);
    expect(server.baseUrl("a")).toBe(`${server.url}/s/a${dialect === "openai" ? "/v1" : ""}`);

    await control(server, "reset", {}, "b");
    expect(server.state("b")).toMatchObject({ requests: 0, config: { requireKey: null } });
    expect(server.requestsOf("a")).toHaveLength(2);
  });
});
