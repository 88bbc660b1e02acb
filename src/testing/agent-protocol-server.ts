/**
 * A loopback Agent Protocol server (the part of LangGraph's that async subagents use), in Node, for tests of the
 * async subagent tools in Node and Chromium without `langgraph dev` (the server tests run the real one). Runs are
 * not executed: a run's fate is told by its last input message, so a test knows what a check will find:
 *
 *   "[done] …"   the run succeeded; the thread's last message is the AI answer `Done: <that message's text>`
 *   "[fail] …"   the run ended in an error
 *   otherwise    the run stays `running` until it is cancelled (then `interrupted`, as LangGraph's cancel does)
 *
 * Endpoints (CORS for any origin):
 *
 *   POST /threads                              a new thread
 *   POST /threads/<id>/runs                    a run on it (body: `{ assistant_id, input }`)
 *   GET  /threads/<id>/runs/<run>              the run (its `status`)
 *   POST /threads/<id>/runs/<run>/cancel       cancels it
 *   GET  /threads/<id>/state                   the thread's `values` (`messages`)
 *   GET  /__runs                               every run's `{ thread_id, run_id, assistant_id, input }`, in order
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A started server. */
export interface AgentProtocolServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

interface Run {
  thread_id: string;
  run_id: string;
  assistant_id: string;
  input: { messages?: unknown[] } | null;
  status: "running" | "success" | "error" | "interrupted";
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "*",
};

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as unknown) : null;
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", ...CORS });
  res.end(JSON.stringify(value));
}

/** The text of an input message (`{ role|type, content }`), content blocks joined. */
function textOf(message: unknown): string {
  const content = typeof message === "object" && message !== null ? (message as { content?: unknown }).content : undefined;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b === "object" && b && "text" in b ? String(b.text) : "")).join("");
  return "";
}

/** Starts the server on a free loopback port. */
export async function startAgentProtocolServer(): Promise<AgentProtocolServer> {
  const runs: Run[] = [];
  const threads = new Map<string, { messages: unknown[] }>();
  let next = 0;
  const id = (kind: string) => `${kind}-${(++next).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === "OPTIONS") return send(res, 204, null);
      const path = new URL(req.url ?? "/", "http://x").pathname.split("/").filter(Boolean);
      if (req.method === "GET" && path[0] === "__runs")
        return send(
          res,
          200,
          runs.map(({ status: _s, ...r }) => r),
        );
      if (path[0] !== "threads") return send(res, 404, { detail: "Not found" });
      if (req.method === "POST" && path.length === 1) {
        await body(req);
        const thread_id = id("thread");
        threads.set(thread_id, { messages: [] });
        return send(res, 200, { thread_id, status: "idle", metadata: {}, values: {} });
      }
      const thread = threads.get(path[1] ?? "");
      if (!thread) return send(res, 404, { detail: "Thread not found" });
      if (req.method === "GET" && path[2] === "state") return send(res, 200, { values: { messages: thread.messages } });
      if (req.method === "POST" && path.length === 3 && path[2] === "runs") {
        const { assistant_id, input } = (await body(req)) as Pick<Run, "assistant_id" | "input">;
        const given = input?.messages ?? [];
        const said = textOf(given.at(-1));
        const run: Run = {
          thread_id: path[1]!,
          run_id: id("run"),
          assistant_id,
          input,
          status: said.startsWith("[done]") ? "success" : said.startsWith("[fail]") ? "error" : "running",
        };
        thread.messages.push(...given);
        if (run.status === "success") thread.messages.push({ type: "ai", content: `Done: ${said}` });
        runs.push(run);
        return send(res, 200, { run_id: run.run_id, thread_id: run.thread_id, assistant_id, status: "pending" });
      }
      const run = runs.find((r) => r.thread_id === path[1] && r.run_id === path[3]);
      if (!run) return send(res, 404, { detail: "Run not found" });
      if (req.method === "GET" && path.length === 4)
        return send(res, 200, { run_id: run.run_id, thread_id: run.thread_id, status: run.status });
      if (req.method === "POST" && path[4] === "cancel") {
        await body(req);
        if (run.status === "running") run.status = "interrupted";
        return send(res, 200, null);
      }
      return send(res, 404, { detail: "Not found" });
    })().catch((error: unknown) => send(res, 500, { detail: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
