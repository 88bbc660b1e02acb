/**
 * A loopback host for agent links (`?agent=<url>`), in Node, for tests and the bench: a test puts a file and says
 * whether it is served with CORS (`Access-Control-Allow-Origin: *`) or without (a host that does not allow the page
 * to read it), and with or without a Content-Length (a streamed answer). Driven over HTTP, so a test in Chromium uses
 * it as one in Node does:
 *
 *   PUT  /f/<name>?cors=1&length=0   the body becomes the file at /f/<name> (control: always CORS)
 *   GET  /f/<name>                   the file, with the CORS and Content-Length headers it was put with
 *   GET  /status/<code>              an empty answer with that status, with CORS
 *
 * Names are paths (`<scope>/agent.zip`): tests pick a fresh scope and do not see each other's files. Tests put files
 * with agent-link-files.ts (no Node imports: it runs in Chromium too).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface AgentLinkServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

interface Served {
  bytes: Buffer;
  cors: boolean;
  length: boolean;
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, PUT, OPTIONS",
  "Access-Control-Allow-Headers": "content-type",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startAgentLinkServer(): Promise<AgentLinkServer> {
  const files = new Map<string, Served>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "OPTIONS") return void res.writeHead(204, CORS).end();
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (status) return void res.writeHead(Number(status[1]), CORS).end();
    if (!url.pathname.startsWith("/f/")) return void res.writeHead(404, CORS).end();
    const name = url.pathname.slice(3);
    if (req.method === "PUT") {
      files.set(name, {
        bytes: await body(req),
        cors: url.searchParams.get("cors") !== "0",
        length: url.searchParams.get("length") !== "0",
      });
      return void res.writeHead(204, CORS).end();
    }
    const file = files.get(name);
    if (!file) return void res.writeHead(404, CORS).end();
    const headers: Record<string, string> = { "Content-Type": "application/octet-stream", "Cache-Control": "no-store" };
    if (file.cors) Object.assign(headers, CORS);
    if (file.length) headers["Content-Length"] = String(file.bytes.length);
    res.writeHead(200, headers);
    // Without a length the body goes out in pieces (chunked), as a streamed answer does.
    for (let at = 0; at < file.bytes.length; at += 64 * 1024) res.write(file.bytes.subarray(at, at + 64 * 1024));
    res.end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
