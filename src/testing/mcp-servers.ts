/**
 * A loopback MCP server built with the SDK's own server side on node:http, for the MCP client's tests in Node and
 * Chromium. It speaks one revision, chosen by option `revision`:
 * - `"2025-11-25"` (default): `@modelcontextprotocol/sdk` 1.x's `McpServer` + `StreamableHTTPServerTransport`, with
 *   sessions (`initialize`, `Mcp-Session-Id`), and the older `SSEServerTransport` for the fallback;
 * - `"2026-07-28"`: `@modelcontextprotocol/server` 2.x's `createMcpHandler`, stateless (`server/discover`, no session),
 *   strict: a 2025-era request (an `initialize`) is refused.
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
import { createMcpHandler, McpServer as ModernMcpServer } from "@modelcontextprotocol/server";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { TestOAuthServer, type TestOAuthOptions } from "./mcp-oauth-server.ts";
import { HOSTILE_IMAGES, RED_PIXEL_PNG } from "./images.ts";
import { testTools } from "./mcp-test-tools.ts";

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
  /** The MCP revision it speaks (see the module's comment). Default `"2025-11-25"`. */
  revision?: McpRevision;
}

/** The MCP revisions the test server speaks. */
export type McpRevision = "2026-07-28" | "2025-11-25";

/** Both, newest first: for tests that run against each. */
export const MCP_REVISIONS: readonly McpRevision[] = ["2026-07-28", "2025-11-25"];

export interface McpTestServer {
  /** The MCP endpoint (`…/mcp`, or `…/sse` for the legacy server). */
  readonly url: string;
  /** `slow` calls the client cancelled (by `notifications/cancelled`). */
  readonly cancelled: number;
  /** Calls made, by tool name. */
  readonly calls: Record<string, number>;
  /** The revision it speaks. */
  readonly revision: McpRevision;
  /** Bearer tokens it was sent (to check none went where it must not). */
  readonly bearers: string[];
  /** Requests whose JSON-RPC method was `initialize` (a 2026-07-28 client sends none to a 2026-07-28 server). */
  readonly initializeRequests: number;
  /** Requests that carried an `Mcp-Session-Id` header. */
  readonly sessionRequests: number;
  /** The authorization server (option `oauth`). */
  readonly oauth?: TestOAuthServer;
  /** Forgets every session: the next request of an old session gets 404, as after a server restart. */
  expireSessions(): Promise<void>;
  close(): Promise<void>;
}

// mcp-method and mcp-name: the 2026-07-28 revision names each request's method (and tool) in headers too.
const ALLOW_HEADERS =
  "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id, x-api-key";

function corsHeaders(req: IncomingMessage, expose: boolean): Record<string, string> {
  return {
    "access-control-allow-origin": req.headers.origin ?? "*",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOW_HEADERS,
    // WWW-Authenticate: a client reads where to sign in (resource_metadata) from a 401's header.
    ...(expose ? { "access-control-expose-headers": "Mcp-Session-Id, WWW-Authenticate" } : {}),
  };
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const text = (await readRaw(req)).toString("utf8");
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

  const tools = testTools({
    count,
    cancelled: () => {
      cancelled++;
    },
    dropAll: () => {
      for (const socket of sockets) socket.destroy();
    },
  });

  /** The 2025-11-25 server (SDK 1.x): one per session. */
  function mcpServer(): McpServer {
    const server = new McpServer({ name: "deeptab-test", version: "1.0.0" });
    for (const tool of tools)
      server.registerTool(tool.name, tool.config, (args: Record<string, unknown>, extra: { signal: AbortSignal }) =>
        tool.run(args, extra.signal),
      );
    return server;
  }

  async function handleStreamable(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readBody(req) : undefined;
    noteInitialize(body);
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

  /** The 2026-07-28 server (SDK 2.x): a fresh instance per request, no session. */
  const modern = createMcpHandler(
    () => {
      const server = new ModernMcpServer({ name: "deeptab-test", version: "1.0.0" });
      for (const tool of tools)
        server.registerTool(
          tool.name,
          { ...tool.config, inputSchema: z.object(tool.config.inputSchema) },
          (args: Record<string, unknown>, ctx: { mcpReq: { signal: AbortSignal } }) => tool.run(args, ctx.mcpReq.signal),
        );
      return server;
    },
    { legacy: "reject" },
  );

  /** node:http to the handler's fetch face and back (streams stay streams; a dropped client aborts the request). */
  async function handleModern(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = req.method === "POST" ? await readRaw(req) : undefined;
    if (body?.length) {
      try {
        noteInitialize(JSON.parse(body.toString("utf8")));
      } catch {
        // Not JSON: the handler answers it.
      }
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    const request = new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`), {
      method: req.method ?? "GET",
      headers,
      ...(body ? { body: new Uint8Array(body) } : {}),
      signal: aborted.signal,
    });
    const response = await modern.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    aborted.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      res.write(value);
    }
    res.end();
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
  const revision = options.revision ?? "2025-11-25";
  const bearers: string[] = [];
  let initializeRequests = 0;
  let sessionRequests = 0;
  function noteInitialize(body: unknown): void {
    const messages = Array.isArray(body) ? (body as unknown[]) : [body];
    if (messages.some((m) => (m as { method?: unknown } | undefined)?.method === "initialize")) initializeRequests++;
  }
  /** Notes what the request carries, then serves it in the server's revision. */
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (bearer) bearers.push(bearer);
    if (req.headers["mcp-session-id"]) sessionRequests++;
    if (revision === "2025-11-25") return handleStreamable(req, res);
    return handleModern(req, res);
  }
  const mcp = (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res).catch((error: unknown) => {
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
    const handle = options.legacySse ? handleLegacy(req, res, path) : serve(req, res);
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
    revision,
    bearers,
    get initializeRequests() {
      return initializeRequests;
    },
    get sessionRequests() {
      return sessionRequests;
    },
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
      await modern.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
