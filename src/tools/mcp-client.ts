/**
 * One connection to a remote MCP server, from a page or a worker: the official SDK client (`@modelcontextprotocol/client`
 * 2.x) over Streamable HTTP, speaking the stateless revision 2026-07-28 (`server/discover`, no `initialize` round trip
 * and no `Mcp-Session-Id`) and falling back to the 2025-11-25 handshake for servers that answer the probe as older
 * servers do, and to the older HTTP+SSE transport for servers that speak only that. Every failure is a coded
 * {@link McpError} with a plain message (mcp-errors.ts); a session the server forgot is reopened and the call tried
 * once more; a call that does not answer in time is cancelled (the SDK sends `notifications/cancelled`).
 *
 * Only browser-safe SDK modules are imported here (never `client/stdio.js`; scripts/check-imports.mjs refuses it).
 */
import {
  Client,
  SSEClientTransport,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type CallToolResult,
  type OAuthClientProvider,
  type ProtocolEra,
  type Tool,
} from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { err, ok, type Result } from "../core/result.ts";
import { mcpError, mcpMessage, type McpError, type McpErrorCode } from "./mcp-errors.ts";

/** How long a tool call may take before it is cancelled, unless the server's options say otherwise: 60 s. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** How long connecting (initialize and the tool list) may take: 20 s. */
const MCP_CONNECT_TIMEOUT_MS = 20_000;

/** Where an MCP server is and how to reach it. */
export interface McpServerOptions {
  /** The server's MCP endpoint (`https://example.com/mcp`; for the older transport, its SSE endpoint). */
  url: string;
  /** Its name in the agent: the prefix of its tools' names. Default: the name the server gives, else its host. */
  name?: string;
  /** Headers sent with every request, e.g. `{ Authorization: "Bearer …" }`. Never logged or shown. */
  headers?: Record<string, string>;
  /** `"auto"` (default): Streamable HTTP, then HTTP+SSE when the server does not speak it. */
  transport?: "auto" | "http" | "sse";
  /** A tool call's time limit in ms ({@link DEFAULT_MCP_TIMEOUT_MS}); past it the call is cancelled. */
  timeoutMs?: number;
  /** The fetch to use (tests; a page's own fetch by default). */
  fetch?: typeof fetch;
  /** OAuth for a server that requires sign-in (mcp-oauth.ts): tokens are sent, and refreshed on a 401. */
  authProvider?: OAuthClientProvider;
}

type AnyTransport = StreamableHTTPClientTransport | SSEClientTransport;

interface Opened {
  client: Client;
  transport: AnyTransport;
  kind: "http" | "sse";
}

/** The stateless revision: versions before it (dates, so they compare as strings) have the `initialize` handshake. */
const STATELESS_REVISION = "2026-07-28";

function statusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError) return typeof error.code === "number" ? error.code : undefined;
  return undefined;
}

/** Whether anything answers at `url`: an opaque no-cors request succeeds where CORS alone blocked the real one. */
async function reachable(url: string, fetchImpl: typeof fetch): Promise<boolean> {
  try {
    await fetchImpl(url, { method: "GET", mode: "no-cors", credentials: "omit", signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

/** A thrown value of the SDK or of fetch as a coded error. */
async function classify(thrown: unknown, url: string, fetchImpl: typeof fetch): Promise<McpError> {
  // The 2026-07-28 probe wraps what stopped it (`ERA_NEGOTIATION_FAILED`, the cause inside): classify the cause.
  const error = thrown instanceof SdkError && thrown.code === SdkErrorCode.EraNegotiationFailed && thrown.cause ? thrown.cause : thrown;
  const status = statusOf(error);
  const fail = (code: McpErrorCode, detail?: string): McpError => mcpError(code, mcpMessage(code, url, detail), status);
  // mcp-oauth.ts: the server needs a sign-in (by name: the provider is loaded only for servers that sign in).
  if (error instanceof Error && error.name === "SignInRequiredError") return fail("sign_in_required");
  if (error instanceof UnauthorizedError || status === 401 || status === 403)
    return fail("unauthorized", status ? `HTTP ${status}` : undefined);
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return fail("timeout");
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) return fail("server_gone");
  if (error instanceof TypeError && status === undefined) {
    // fetch's own failure: in a browser, CORS and a dead server look alike until a no-cors request tells them apart.
    return (await reachable(url, fetchImpl)) ? fail("cors") : fail("unreachable");
  }
  const message = error instanceof Error ? error.message : String(error);
  if (status !== undefined) return fail("protocol", `HTTP ${status}: ${message.slice(0, 300)}`);
  return fail("protocol", message.slice(0, 300));
}

function newClient(kind: "http" | "sse"): Client {
  return new Client(
    { name: "deeptab", version: "0.1.0" },
    {
      capabilities: {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      // Streamable HTTP: probe with `server/discover` (2026-07-28); a 2025-11-25 server gets the `initialize`
      // handshake instead. The older HTTP+SSE transport predates the probe.
      versionNegotiation: { mode: kind === "http" ? "auto" : "legacy" },
    },
  );
}

/**
 * A live connection to one MCP server. Open it with {@link McpSession.open}; `listTools` and `callTool` return
 * results, never throw; `close` ends the session (best effort: a server that is gone is not waited for).
 */
export class McpSession {
  private opened: Opened;
  private closed = false;
  private reopening: Promise<Result<Opened, McpError>> | undefined;

  private constructor(
    readonly options: McpServerOptions,
    opened: Opened,
  ) {
    this.opened = opened;
  }

  /** The transport in use. */
  get transport(): "http" | "sse" {
    return this.opened.kind;
  }

  /** The revision spoken: `"modern"` (2026-07-28, stateless) or `"legacy"` (2025-11-25 and older, with a session). */
  get era(): ProtocolEra | undefined {
    return this.opened.client.getProtocolEra();
  }

  /** The protocol version agreed with the server (`"2026-07-28"`, `"2025-11-25"`, …). */
  get protocolVersion(): string | undefined {
    return this.opened.client.getNegotiatedProtocolVersion();
  }

  /** The name the server gives itself, if any. */
  get serverName(): string | undefined {
    return this.opened.client.getServerVersion()?.name;
  }

  /** Instructions the server gives its clients, if any. */
  get instructions(): string | undefined {
    return this.opened.client.getInstructions();
  }

  /** Connects to the server (see {@link McpServerOptions}). */
  static async open(options: McpServerOptions): Promise<Result<McpSession, McpError>> {
    const opened = await connect(options);
    return opened.ok ? ok(new McpSession(options, opened.value)) : opened;
  }

  /** Every tool the server offers (all pages of the list). */
  async listTools(): Promise<Result<Tool[], McpError>> {
    return this.withSession(async ({ client }) => {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: MCP_CONNECT_TIMEOUT_MS });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    });
  }

  /** Calls the server's tool `name`; `signal` (the run's) cancels it, as does the time limit. */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Result<CallToolResult, McpError>> {
    const timeout = this.options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    return this.withSession(async ({ client, transport }) => {
      // A dropped connection may leave the SDK's request waiting until its timeout: end it when the transport says so.
      const dropped = new AbortController();
      const previous = transport.onerror;
      transport.onerror = (error) => {
        previous?.(error);
        if (/disconnected|terminated|socket|network|fetch failed|Failed to fetch/i.test(error.message))
          dropped.abort(new SdkError(SdkErrorCode.ConnectionClosed, error.message));
      };
      try {
        const signals = signal ? [signal, dropped.signal] : [dropped.signal];
        const result = await client.callTool({ name, arguments: args }, { timeout, signal: AbortSignal.any(signals) });
        return result as CallToolResult;
      } catch (error) {
        throw dropped.signal.aborted && !signal?.aborted ? dropped.signal.reason : error;
      } finally {
        transport.onerror = previous;
      }
    }, signal);
  }

  /** Ends the session. */
  async close(): Promise<void> {
    this.closed = true;
    await closeQuietly(this.opened);
  }

  /** Runs `work`; a session the server forgot (404) is reopened and `work` run once more. */
  private async withSession<T>(work: (opened: Opened) => Promise<T>, signal?: AbortSignal): Promise<Result<T, McpError>> {
    const fetchImpl = this.options.fetch ?? fetch;
    if (this.closed) return err(mcpError("protocol", mcpMessage("protocol", this.options.url, "the connection was closed")));
    try {
      return ok(await work(this.opened));
    } catch (error) {
      if (signal?.aborted) throw error;
      const status = statusOf(error);
      const expired =
        status === 404 || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed && this.opened.kind === "sse");
      const gone = error instanceof TypeError || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed);
      if (!expired && !gone) return err(await classify(error, this.options.url, fetchImpl));
      if (gone && !expired) {
        // The connection dropped: report it now; the next call reconnects.
        this.reopenLater();
        return err(await classify(error, this.options.url, fetchImpl));
      }
      const reopened = await this.reopen();
      if (!reopened.ok)
        return err({ ...reopened.error, code: reopened.error.code === "unreachable" ? "server_gone" : reopened.error.code });
      try {
        return ok(await work(reopened.value));
      } catch (retryError) {
        if (signal?.aborted) throw retryError;
        const again = await classify(retryError, this.options.url, fetchImpl);
        return err(
          statusOf(retryError) === 404 ? mcpError("session_expired", mcpMessage("session_expired", this.options.url), 404) : again,
        );
      }
    }
  }

  private needsReopen = false;

  private reopenLater(): void {
    this.needsReopen = true;
  }

  private async reopen(): Promise<Result<Opened, McpError>> {
    this.reopening ??= (async () => {
      await closeQuietly(this.opened);
      const next = await connect({ ...this.options, transport: this.opened.kind });
      if (next.ok) this.opened = next.value;
      this.needsReopen = false;
      return next;
    })().finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }

  /** Reopens a connection that dropped before the next piece of work (used by the tools before each call). */
  async ready(): Promise<Result<void, McpError>> {
    if (!this.needsReopen) return ok(undefined);
    const reopened = await this.reopen();
    return reopened.ok ? ok(undefined) : reopened;
  }
}

async function closeQuietly(opened: Opened): Promise<void> {
  const close = async (): Promise<void> => {
    if (opened.transport instanceof StreamableHTTPClientTransport) await opened.transport.terminateSession().catch(() => undefined);
    await opened.client.close().catch(() => undefined);
  };
  await Promise.race([close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
}

function validUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function open(options: McpServerOptions, kind: "http" | "sse", url: URL): Promise<Opened> {
  const requestInit: RequestInit = { headers: { ...options.headers }, credentials: "omit" };
  const extra = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  };
  const transport =
    kind === "http"
      ? new StreamableHTTPClientTransport(url, { requestInit, ...extra })
      : new SSEClientTransport(url, { requestInit, ...extra });
  const client = newClient(kind);
  try {
    await client.connect(transport, { timeout: MCP_CONNECT_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => undefined);
    // Whether the server answered `initialize` (a 2025-11-25 handshake): the client forgets it as it closes on the
    // error, but the transport keeps the version the answer set (a 2026-07-28 server has no handshake to answer).
    const version = transport instanceof StreamableHTTPClientTransport ? transport.protocolVersion : undefined;
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), {
      initialized: client.getServerVersion() !== undefined || (version !== undefined && version < STATELESS_REVISION),
      sessionId: transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined,
    });
  }
  return { client, transport, kind };
}

async function connect(options: McpServerOptions): Promise<Result<Opened, McpError>> {
  const url = validUrl(options.url);
  if (!url) return err(mcpError("invalid_url", mcpMessage("invalid_url", options.url)));
  const fetchImpl = options.fetch ?? fetch;
  const mode = options.transport ?? "auto";
  if (mode === "sse") return openOrClassify(options, "sse", url, fetchImpl);
  try {
    return ok(await open(options, "http", url));
  } catch (error) {
    const status = statusOf(error);
    const initialized = (error as { initialized?: boolean }).initialized === true;
    const sessionId = (error as { sessionId?: string }).sessionId;
    if (initialized && sessionId === undefined && status === 400) {
      // Initialize went through but the next request had no session: the page could not read Mcp-Session-Id.
      return err(mcpError("cors", mcpMessage("cors", options.url, "Mcp-Session-Id is not exposed to the page"), 400));
    }
    const http = await classify(error, options.url, fetchImpl);
    // The older transport answers a POST to its SSE endpoint with 4xx (404 or 405, often 400).
    if (mode === "http" || status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) return err(http);
    const sse = await openOrClassify(options, "sse", url, fetchImpl);
    return sse.ok ? sse : err(http);
  }
}

async function openOrClassify(
  options: McpServerOptions,
  kind: "http" | "sse",
  url: URL,
  fetchImpl: typeof fetch,
): Promise<Result<Opened, McpError>> {
  try {
    return ok(await open(options, kind, url));
  } catch (error) {
    return err(await classify(error, options.url, fetchImpl));
  }
}
