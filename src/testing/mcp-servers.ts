/**
 * A loopback MCP server built with the SDK's own server side (`McpServer` + `StreamableHTTPServerTransport`, and
 * the older `SSEServerTransport` for the fallback) on node:http, for the MCP client's tests in Node and Chromium.
 *
 * Its tools: `echo` (read-only text), `image` (a PNG), `fail` (an `isError` result), `slow` (answers after `ms`, or
 * never; a cancellation is recorded), `links` (a resource link and an embedded resource), `big` (a long text),
 * `die` (the server drops every connection mid-call), `web.search` (a name providers refuse as it is),
 * `hostile_images` (an SVG with a script, HTML called an image, and HTML bytes labelled image/png), `huge` (`mib`
 * MiB of text in one block) and `wipe` (annotated both read-only and destructive).
 *
 * Options: CORS for the test origin or none, `Mcp-Session-Id` exposed or not, a bearer token it requires, the
 * legacy HTTP+SSE transport only, OAuth sign-in (mcp-oauth-server.ts: the SDK's authorization server on the same
 * origin, dynamic registration and PKCE; /mcp answers 401 without a valid access token).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { TestOAuthServer, type TestOAuthOptions } from "./mcp-oauth-server.ts";
import { HOSTILE_IMAGES, RED_PIXEL_PNG } from "./images.ts";

export { HOSTILE_IMAGES, RED_PIXEL_PNG };

export interface McpTestServerOptions {
  /** Send CORS headers allowing any origin (echoed). Default true. */
  cors?: boolean;
  /** With CORS, expose `Mcp-Session-Id` to the page. Default true. */
  exposeSessionId?: boolean;
  /** Answer 401 unless `Authorization: Bearer <token>` is sent. */
  token?: string;
  /** Speak only the older HTTP+SSE transport (GET /sse, POST /messages). */
  legacySse?: boolean;
  /** Send `Cross-Origin-Resource-Policy: cross-origin`, so a cross-origin-isolated page may make opaque requests. */
  corp?: boolean;
  /** Require an OAuth sign-in (an authorization server with dynamic registration and PKCE on the same origin). */
  oauth?: TestOAuthOptions;
  /** The port; 0 (default) picks a free one. */
  port?: number;
}

export interface McpTestServer {
  /** The MCP endpoint (`…/mcp`, or `…/sse` for the legacy server). */
  readonly url: string;
  /** `slow` calls the client cancelled (by `notifications/cancelled`). */
  readonly cancelled: number;
  /** Calls made, by tool name. */
  readonly calls: Record<string, number>;
  /** The authorization server (option `oauth`). */
  readonly oauth?: TestOAuthServer;
  /** Forgets every session: the next request of an old session gets 404, as after a server restart. */
  expireSessions(): Promise<void>;
  close(): Promise<void>;
}

const ALLOW_HEADERS = "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, x-api-key";

function corsHeaders(req: IncomingMessage, expose: boolean): Record<string, string> {
  return {
    "access-control-allow-origin": req.headers.origin ?? "*",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOW_HEADERS,
    // WWW-Authenticate: a client reads where to sign in (resource_metadata) from a 401's header.
    ...(expose ? { "access-control-expose-headers": "Mcp-Session-Id, WWW-Authenticate" } : {}),
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Starts a loopback MCP server; `close()` stops it. */
export async function startMcpServer(options: McpTestServerOptions = {}): Promise<McpTestServer> {
  const cors = options.cors ?? true;
  const expose = options.exposeSessionId ?? true;
  const sockets = new Set<Socket>();
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const legacy = new Map<string, SSEServerTransport>();
  const calls: Record<string, number> = {};
  let cancelled = 0;

  const count = (name: string): void => {
    calls[name] = (calls[name] ?? 0) + 1;
  };

  function mcpServer(): McpServer {
    const server = new McpServer({ name: "deeptab-test", version: "1.0.0" });
    server.registerTool(
      "echo",
      { description: "Echoes its text.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true, title: "Echo" } },
      ({ text }) => {
        count("echo");
        return { content: [{ type: "text", text: `echo: ${text}` }] };
      },
    );
    server.registerTool("image", { description: "A red pixel." }, () => {
      count("image");
      return {
        content: [
          { type: "text", text: "here is the pixel" },
          { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
        ],
      };
    });
    server.registerTool(
      "hostile_images",
      { description: "Images that are not what they say.", annotations: { readOnlyHint: true } },
      () => {
        count("hostile_images");
        return {
          content: [{ type: "text", text: "three images" }, ...HOSTILE_IMAGES.map((image) => ({ type: "image" as const, ...image }))],
        };
      },
    );
    server.registerTool("fail", { description: "Always fails." }, () => {
      count("fail");
      return { content: [{ type: "text", text: "the quota is used up" }], isError: true };
    });
    server.registerTool(
      "slow",
      { description: "Answers after ms milliseconds (never without ms).", inputSchema: { ms: z.number().int().optional() } },
      async ({ ms }, extra) => {
        count("slow");
        await new Promise<void>((resolve) => {
          const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
          extra.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            cancelled++;
            resolve();
          });
        });
        return { content: [{ type: "text", text: `slept ${ms ?? "forever"}` }] };
      },
    );
    server.registerTool("links", { description: "A resource link and an embedded resource.", annotations: { readOnlyHint: true } }, () => {
      count("links");
      return {
        content: [
          { type: "resource_link", uri: "https://example.com/report.pdf", name: "report.pdf", mimeType: "application/pdf" },
          { type: "resource", resource: { uri: "memo://note", mimeType: "text/plain", text: "the note's text" } },
        ],
      };
    });
    server.registerTool("big", { description: "A long text.", inputSchema: { lines: z.number().int() } }, ({ lines }) => {
      count("big");
      const text = Array.from({ length: lines }, (_, i) => `line ${i + 1} ${"x".repeat(60)}`).join("\n");
      return { content: [{ type: "text", text }] };
    });
    server.registerTool("huge", { description: "mib MiB of text.", inputSchema: { mib: z.number() } }, ({ mib }) => {
      count("huge");
      const line = `${"y".repeat(1023)}\n`;
      return { content: [{ type: "text", text: line.repeat(Math.round(mib * 1024)) }] };
    });
    server.registerTool(
      "wipe",
      { description: "Says it only reads, and that it destroys.", annotations: { readOnlyHint: true, destructiveHint: true } },
      () => {
        count("wipe");
        return { content: [{ type: "text", text: "wiped" }] };
      },
    );
    server.registerTool("die", { description: "The server goes away mid-call." }, async () => {
      count("die");
      setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, 50);
      await new Promise(() => undefined);
      return { content: [] };
    });
    server.registerTool(
      "web.search",
      { description: "A tool whose name has a dot.", inputSchema: { query: z.string() }, annotations: { readOnlyHint: true } },
      ({ query }) => {
        count("web.search");
        return { content: [{ type: "text", text: `results for ${query}` }] };
      },
    );
    return server;
  }

  async function handleStreamable(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readBody(req) : undefined;
    if (typeof sessionId === "string") {
      const transport = streamable.get(sessionId);
      if (!transport) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        streamable.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) streamable.delete(transport.sessionId);
    };
    await mcpServer().connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handleLegacy(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === "GET" && path === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      legacy.set(transport.sessionId, transport);
      res.on("close", () => legacy.delete(transport.sessionId));
      await mcpServer().connect(transport);
      return;
    }
    if (req.method === "POST" && path === "/messages") {
      const id = new URL(req.url ?? "/", "http://localhost").searchParams.get("sessionId") ?? "";
      const transport = legacy.get(id);
      if (!transport) {
        res.writeHead(404).end("Session not found");
        return;
      }
      await transport.handlePostMessage(req, res, await readBody(req));
      return;
    }
    // A Streamable HTTP client's first POST: the legacy server does not know it.
    res.writeHead(405, { allow: "GET" }).end("Method Not Allowed");
  }

  const setCors = (req: IncomingMessage, res: ServerResponse): void => {
    if (cors) for (const [k, v] of Object.entries(corsHeaders(req, expose))) res.setHeader(k, v);
  };
  const mcp = (req: IncomingMessage, res: ServerResponse): void => {
    handleStreamable(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  };
  const oauth = options.oauth ? new TestOAuthServer(options.oauth) : undefined;
  let oauthApp: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const http: Server = createServer((req, res) => {
    if (oauthApp) return oauthApp(req, res);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    setCors(req, res);
    if (options.corp) res.setHeader("cross-origin-resource-policy", "cross-origin");
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"', "content-type": "application/json" });
      res.end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    const handle = options.legacySse ? handleLegacy(req, res, path) : handleStreamable(req, res);
    handle.catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  if (oauth) oauthApp = oauth.app(`http://127.0.0.1:${port}`, setCors, mcp);

  return {
    url: `http://127.0.0.1:${port}${options.legacySse ? "/sse" : "/mcp"}`,
    get cancelled() {
      return cancelled;
    },
    calls,
    ...(oauth ? { oauth } : {}),
    async expireSessions() {
      const all = [...streamable.values()];
      streamable.clear();
      await Promise.all(all.map((t) => t.close()));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([...streamable.values()].map((t) => t.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
