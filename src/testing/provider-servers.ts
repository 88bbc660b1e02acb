/**
 * Scripted loopback servers speaking the real OpenAI chat-completions and
 * Anthropic messages wire protocols (JSON and SSE), so tests drive the real
 * `@langchain/openai` and `@langchain/anthropic` clients. Node only (tests).
 *
 * Each request is answered by the next scripted reply: text (streamed in the
 * given chunks when the client asks for a stream), tool calls, or an HTTP
 * error body. Every request (headers and JSON body) is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ServerReply =
  | { text?: string; chunks?: string[]; toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }> }
  | { status: number; body: unknown };

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Dialect = "openai" | "anthropic";

function sse(events: Array<{ event?: string; data: unknown }>): string {
  return events
    .map((e) => `${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`)
    .join("");
}

function openaiReply(reply: Exclude<ServerReply, { status: number }>, stream: boolean, n: number): string {
  const id = `chatcmpl-${n}`;
  const toolCalls = (reply.toolCalls ?? []).map((c, index) => ({
    index,
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
  if (!stream) {
    return JSON.stringify({
      id,
      object: "chat.completion",
      created: 0,
      model: "gpt-4o",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: reply.text ?? null,
            ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _i, ...c }) => c) } : {}),
          },
          finish_reason: toolCalls.length ? "tool_calls" : "stop",
        },
      ],
      usage,
    });
  }
  const chunk = (delta: unknown, finish: string | null = null) => ({
    data: { id, object: "chat.completion.chunk", created: 0, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const pieces = reply.chunks ?? (reply.text ? [reply.text] : []);
  return sse([
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((p) => chunk({ content: p })),
    ...(toolCalls.length ? [chunk({ tool_calls: toolCalls })] : []),
    chunk({}, toolCalls.length ? "tool_calls" : "stop"),
    { data: { id, object: "chat.completion.chunk", created: 0, model: "gpt-4o", choices: [], usage } },
    { data: "[DONE]" },
  ]);
}

function anthropicReply(reply: Exclude<ServerReply, { status: number }>, stream: boolean, n: number): string {
  const id = `msg_${n}`;
  const usage = { input_tokens: 12, output_tokens: 7 };
  const blocks = [
    ...(reply.text ? [{ type: "text", text: reply.text }] : []),
    ...(reply.toolCalls ?? []).map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
  ];
  const stop = reply.toolCalls?.length ? "tool_use" : "end_turn";
  if (!stream) {
    return JSON.stringify({
      id,
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: blocks,
      stop_reason: stop,
      stop_sequence: null,
      usage,
    });
  }
  const events: Array<{ event: string; data: unknown }> = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          content: [],
          model: "claude-sonnet-4-5",
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 1 },
        },
      },
    },
  ];
  let index = 0;
  if (reply.text) {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
    for (const piece of reply.chunks ?? [reply.text])
      events.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
      });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  for (const c of reply.toolCalls ?? []) {
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } },
    });
    events.push({
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(c.args) } },
    });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  events.push({
    event: "message_delta",
    data: { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 7 } },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return sse(events);
}

/** Starts a server on 127.0.0.1 (an ephemeral port) answering with `script` in order. */
export async function startScriptedServer(
  dialect: Dialect,
  script: ServerReply[] | ((req: RecordedRequest, n: number) => ServerReply),
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        path: req.url ?? "",
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
      };
      requests.push(recorded);
      const n = requests.length - 1;
      const reply = typeof script === "function" ? script(recorded, n) : script[n];
      if (!reply) {
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `script exhausted after ${n} requests` } }));
        return;
      }
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
        return;
      }
      const stream = recorded.body.stream === true;
      const body = dialect === "openai" ? openaiReply(reply, stream, n) : anthropicReply(reply, stream, n);
      res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
