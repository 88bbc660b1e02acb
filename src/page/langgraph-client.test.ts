/**
 * The page's LangGraph client against a loopback server that echoes the `x-api-key` it was sent in every answer: its
 * error bodies (401 and the statuses whose body is shown) and a run's `error` event. No failure carries the key.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_HIDDEN } from "../core/redact.ts";
import { connectLangGraph, type LangGraphConnection } from "./langgraph-client.ts";
import type { AgentEvent } from "../protocol/events.ts";

const KEY = "lg-echoed-key-5d4c3b2a19";

let server: Server;
let status = 400;

beforeAll(async () => {
  server = createServer((req, res) => {
    const echo = `Invalid API key: ${String(req.headers["x-api-key"])}`;
    req.resume();
    if (req.method === "POST" && req.url?.includes("/runs/stream")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`event: metadata\ndata: {"run_id":"run-1"}\n\nevent: error\ndata: ${JSON.stringify({ message: echo })}\n\n`);
      return;
    }
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ detail: echo }));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function connect(): Promise<LangGraphConnection> {
  const connected = await connectLangGraph({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: KEY });
  if (!connected.ok) throw new Error(connected.error.message);
  return connected.value;
}

describe("the page's LangGraph client and a server that echoes its key", () => {
  it("a failed call's error never carries the key the server echoed in its body (401, 400, 422)", async () => {
    const lg = await connect();
    for (const code of [401, 400, 422]) {
      status = code;
      const listed = await lg.assistants();
      expect(!listed.ok && listed.error.message).toContain(`HTTP ${code}`);
      if (code !== 401) expect(!listed.ok && listed.error.message).toContain(`Invalid API key: ${KEY_HIDDEN}`);
      expect(JSON.stringify(listed)).not.toContain(KEY);
    }
  });

  it("a run's error event never carries the key the server echoed in it", async () => {
    const lg = await connect();
    const events: AgentEvent[] = [];
    const started = await lg.run("thread-1", "assistant-1", { text: "hi" }, (e) => void events.push(e));
    if (!started.ok) throw new Error(started.error.message);
    const terminal = await started.value.done;
    expect(terminal).toMatchObject({ type: "error", error: { code: "run_failed" } });
    expect(terminal.type === "error" && terminal.error.message).toContain(`The run failed on the server: Invalid API key: ${KEY_HIDDEN}`);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });
});
