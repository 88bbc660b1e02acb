/**
 * Scripted loopback servers speaking the real OpenAI chat-completions and
 * Anthropic messages wire protocols (JSON and SSE), so tests drive the real
 * `@langchain/openai` and `@langchain/anthropic` clients, from Node or from
 * the browser app (Playwright). Node only (tests, scripts, e2e).
 *
 * Routes (one dialect per server):
 *
 *   OPTIONS *                          CORS preflight (204)
 *   POST /v1/chat/completions          OpenAI: the next scripted reply (also /chat/completions)
 *   POST /v1/responses                 OpenAI's Responses API: the next scripted reply (also /responses), with
 *                                      its web search when scripted (provider-web-search.ts)
 *   POST /v1/messages                  Anthropic: the next scripted reply (a scripted web search: its blocks)
 *   GET  /v1/models, /v1/models/<id>   the configured model list, in the dialect's shape (OpenAI also /models)
 *   POST /__control/script             body `{ replies: ServerReply[] }` (or the bare array): replaces the queue
 *   POST /__control/config             body `Partial<ServerConfig>` (requireKey, local or echoKey null clears it): merges
 *   GET|POST /props, /api/…            with `local` set (OpenAI only): what llama.cpp's server, LM Studio or
 *                                      Ollama answer about their loaded model (local-servers.ts)
 *   POST /__control/reset              back to how the server started; recorded requests cleared
 *   GET  /__control/requests           the recorded requests (RecordedRequest[])
 *   GET  /__control/state              { pending, served, requests, config }
 *
 * Every route also exists under `/s/<scope>/…` (scope: letters, digits, `_`,
 * `-`): a scope is its own queue, config and request log, created on first
 * use, so parallel tests sharing one server do not see each other. Point the
 * client at `baseUrl(scope)`.
 *
 * A chat request is answered by the first queued reply whose `when` matches
 * it (a reply without `when` matches any), else by the script function, else
 * by the default reply; the queue never runs dry into a hang. Replies: text
 * (streamed in the given chunks when the client asks for a stream, `delayMs`
 * before each chunk), tool calls (fixed ids if given), an HTTP error with
 * headers (the provider's real error body when none is given), or a dropped
 * connection. With `requireKey`, requests without that key get the
 * provider's real 401. With `echoKey`, every request is refused with that
 * status, the body quoting the `x-api-key` header it was sent (as a server
 * that echoes a refused key does). Every request but preflights and control calls is
 * recorded (method, path within its scope, headers, JSON body, time).
 * Every response carries CORS headers and `Cross-Origin-Resource-Policy:
 * cross-origin` (the app's page is cross-origin isolated).
 *
 * Every request gets a fresh connection, because Chromium silently resends a
 * request whose reused connection drops before any response (`disconnect`
 * would become the next reply): responses say `Connection: close`, streams
 * included, except a stream scripted to drop (`disconnectAfter`): it keeps
 * keep-alive framing because undici takes a `Connection: close` body cut
 * short for a complete one, and the drop must be seen as a failure.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { localServerReply, type LocalServer } from "./local-servers.ts";
import {
  anthropicCitationEvents,
  anthropicReplayProblem,
  anthropicSearch,
  anthropicSearchEvents,
  openaiResponse,
  openaiResponseEvents,
  responsesInputFacts,
  type ResponsesReply,
  type WebSearchReply,
} from "./provider-web-search.ts";

export type { WebSearchReply };

export type Dialect = "openai" | "anthropic";

/** A tool call the model makes; without `id`, `call_<n>_<i>` (OpenAI) or `toolu_<n>_<i>` (Anthropic). */
export interface ToolCallReply {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

/** When a queued reply applies; every given field must match. */
export interface ReplyMatch {
  /** The text of the last user message that has text (Anthropic tool results are not user text) includes this. */
  lastUserIncludes?: string;
  /** The request's `model` is exactly this. */
  model?: string;
  /**
   * The request carries exactly this many tool results (OpenAI `tool` messages, Anthropic `tool_result` blocks):
   * where an agent is in its turn, whatever order parallel agents' requests arrive in.
   */
  toolResults?: number;
}

interface ReplyBase {
  /** Only for requests that match (queued replies only). */
  when?: ReplyMatch;
  /** Streams: milliseconds before each chunk and each tool call. Otherwise: before the response (or the disconnect). */
  delayMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** An assistant message: text (streamed as `chunks` if given) and/or tool calls. */
export interface MessageReply extends ReplyBase {
  text?: string;
  chunks?: string[];
  toolCalls?: ToolCallReply[];
  /** Streams: drop the connection 50 ms after this many chunks/tool calls (the 200 and the opening events already sent). */
  disconnectAfter?: number;
  /**
   * Streams: after `after` chunks/tool calls, wait until `until` settles (or the request ends) before the rest. A test
   * decides when an answer ends (say, once it has queued messages behind it) instead of racing its pace. In-process
   * scripts only: a promise does not cross `/__control/script`.
   */
  hold?: { after: number; until: Promise<unknown> };
  /**
   * The usage to report (default 12 in, 7 out). `input` counts every prompt
   * token, `cacheRead` of them served from the cache: OpenAI reports
   * `prompt_tokens: input` with `cached_tokens`, Anthropic `input_tokens`
   * without the cached part plus `cache_read_input_tokens`.
   */
  usage?: { input: number; output: number; cacheRead?: number };
  /**
   * The provider's own web search, run before the text (provider-web-search.ts): Anthropic's `server_tool_use` and
   * `web_search_tool_result` blocks and cited text; OpenAI's (`/v1/responses` only) `web_search_call` and annotations.
   */
  webSearch?: WebSearchReply;
}

/** An HTTP error; without `body`, the provider's real error body for the status. */
export interface ErrorReply extends ReplyBase {
  status: number;
  body?: unknown;
}

/** Destroy the socket without a response: a network failure for the client. */
export interface DisconnectReply extends ReplyBase {
  disconnect: true;
}

export type ServerReply = MessageReply | ErrorReply | DisconnectReply;

/** Answers chat request number `n` (0-based, per scope); undefined falls through to the queue, then the default. */
export type ScriptFn = (req: RecordedRequest, n: number) => ServerReply | undefined;

export interface RecordedRequest {
  method: string;
  /** Path and query within the scope (`/v1/messages`, never `/s/<scope>/v1/messages`). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body; `{}` when there is none or it is not a JSON object. */
  body: Record<string, unknown>;
  /** When it arrived (ms since the epoch). */
  time: number;
}

/** What a scope answers with, besides its queue. */
export interface ServerConfig {
  /** Model ids `GET /v1/models` lists. */
  models: string[];
  /** The only key accepted (OpenAI `Authorization: Bearer`, Anthropic `x-api-key`); null: any or none. */
  requireKey: string | null;
  /** The answer when nothing queued matches. */
  defaultReply: ServerReply;
  /** The local server an OpenAI server also plays (its window routes); null: none. */
  local: LocalServer | null;
  /** Refuse every request with this HTTP status, the body echoing the `x-api-key` header sent; null: never. */
  echoKey: number | null;
}

export interface ScriptedServerOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  models?: string[];
  requireKey?: string;
  defaultReply?: ServerReply;
  local?: LocalServer;
}

/** What `GET /__control/state` returns. */
export interface ScopeState {
  /** Queued replies not used yet. */
  pending: number;
  /** Chat requests answered. */
  served: number;
  /** Requests recorded. */
  requests: number;
  config: ServerConfig;
}

export interface ScriptedServer {
  dialect: Dialect;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The default scope's request log (the same array across resets). */
  requests: RecordedRequest[];
  /** The base URL a client takes: OpenAI `<url>[/s/<scope>]/v1`, Anthropic `<url>[/s/<scope>]`. */
  baseUrl(scope?: string): string;
  /** Replaces the queue (or the script function) of a scope. */
  script(replies: ServerReply[] | ScriptFn, scope?: string): void;
  configure(config: Partial<ServerConfig>, scope?: string): void;
  reset(scope?: string): void;
  requestsOf(scope?: string): RecordedRequest[];
  state(scope?: string): ScopeState;
  close(): Promise<void>;
}

/** The default reply's text unless configured otherwise. */
export const DEFAULT_REPLY_TEXT = "Default reply from the scripted server.";

/** Model ids listed unless configured otherwise. */
export const DEFAULT_MODELS: Readonly<Record<Dialect, readonly string[]>> = {
  openai: ["gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini"],
  anthropic: ["claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-5"],
};

const EXPOSED_HEADERS = ["retry-after", "retry-after-ms", "x-request-id", "request-id", "content-type"];
const ALLOWED_HEADERS = [
  "*",
  "authorization",
  "content-type",
  "x-api-key",
  "anthropic-version",
  "anthropic-beta",
  "anthropic-dangerous-direct-browser-access",
  "openai-organization",
  "openai-project",
  "x-stainless-arch",
  "x-stainless-lang",
  "x-stainless-os",
  "x-stainless-package-version",
  "x-stainless-retry-count",
  "x-stainless-runtime",
  "x-stainless-runtime-version",
  "x-stainless-timeout",
  "x-stainless-helper-method",
];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isErrorReply = (r: ServerReply): r is ErrorReply => "status" in r && typeof r.status === "number";
const isDisconnect = (r: ServerReply): r is DisconnectReply => "disconnect" in r && r.disconnect === true;

/** CORS and CORP headers for a response to `req`. */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    "access-control-allow-origin": origin ?? "*",
    ...(origin ? { vary: "Origin" } : {}),
    "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
    "cross-origin-resource-policy": "cross-origin",
    // A fresh connection per request: a browser resends a request silently when a reused connection
    // drops before the response, which would turn `disconnect` into the next reply.
    connection: "close",
  };
}

function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const requested = req.headers["access-control-request-headers"];
  const extra = typeof requested === "string" ? requested.split(",").map((h) => h.trim().toLowerCase()) : [];
  const allowed = [...new Set([...ALLOWED_HEADERS, ...extra.filter(Boolean)])];
  return {
    ...corsHeaders(req),
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": allowed.join(", "),
    ...(req.headers["access-control-request-private-network"] === "true" ? { "access-control-allow-private-network": "true" } : {}),
  };
}

const OPENAI_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: "Invalid request.", type: "invalid_request_error", code: null },
  401: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" },
  403: { message: "You are not allowed to sample from this model.", type: "invalid_request_error", code: null },
  404: { message: "The model does not exist or you do not have access to it.", type: "invalid_request_error", code: "model_not_found" },
  429: {
    message: "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.",
    type: "requests",
    code: "rate_limit_exceeded",
  },
  500: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", code: null },
  503: { message: "The engine is currently overloaded, please try again later.", type: "server_error", code: null },
};

const ANTHROPIC_ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
  404: { type: "not_found_error", message: "The requested resource could not be found." },
  413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
  429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit." },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

/** The error body the provider sends for `status` (its own message when given). */
function providerErrorBody(dialect: Dialect, status: number, message?: string, requestId = "req_scripted"): unknown {
  if (dialect === "openai") {
    const known = OPENAI_ERRORS[status] ?? {
      message: `HTTP ${status}`,
      type: status >= 500 ? "server_error" : "invalid_request_error",
      code: null,
    };
    return { error: { message: message ?? known.message, type: known.type, param: null, code: known.code } };
  }
  const known = ANTHROPIC_ERRORS[status] ?? { type: status >= 500 ? "api_error" : "invalid_request_error", message: `HTTP ${status}` };
  return { type: "error", error: { type: known.type, message: message ?? known.message }, request_id: requestId };
}

function maskKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}` : key;
}

/** Why the request's key is not `required` (the provider's own 401 message), or undefined when it is. */
function keyProblem(dialect: Dialect, headers: IncomingHttpHeaders, required: string): string | undefined {
  if (dialect === "openai") {
    const auth = headers.authorization;
    const given = typeof auth === "string" && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
    if (!given)
      return (
        "You didn't provide an API key. " +
        "You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), " +
        "or as the password field (with blank username) if you're accessing the API from your browser " +
        "and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys."
      );
    return given === required
      ? undefined
      : `Incorrect API key provided: ${maskKey(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  }
  const given = headers["x-api-key"];
  if (typeof given !== "string" || !given) return "x-api-key header is required";
  return given === required ? undefined : "invalid x-api-key";
}

function modelsBody(dialect: Dialect, models: string[]): unknown {
  if (dialect === "openai") return { object: "list", data: models.map((id) => openaiModel(id)) };
  return { data: models.map((id) => anthropicModel(id)), has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null };
}
const openaiModel = (id: string) => ({ id, object: "model", created: 1_700_000_000, owned_by: "deeptab-scripted" });
const anthropicModel = (id: string) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" });

/** One server-sent event; `piece` marks a chunk or tool call (`delayMs` is waited before it, `disconnectAfter` counts it). */
interface StreamEvent {
  event?: string;
  data: unknown;
  piece?: boolean;
}

function sse(e: StreamEvent): string {
  return `${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`;
}

function textPieces(reply: MessageReply): { full: string | undefined; pieces: string[] } {
  const pieces = reply.chunks ?? (reply.text ? [reply.text] : []);
  return { full: reply.text ?? (reply.chunks ? reply.chunks.join("") : undefined), pieces };
}

function openaiReply(reply: MessageReply, stream: boolean, n: number, model: string): unknown | StreamEvent[] {
  const id = `chatcmpl-${n}`;
  const toolCalls = (reply.toolCalls ?? []).map((c, index) => ({
    index,
    id: c.id ?? `call_${n}_${index}`,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  const u = reply.usage ?? { input: 12, output: 7 };
  const usage = {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    ...(u.cacheRead !== undefined ? { prompt_tokens_details: { cached_tokens: u.cacheRead } } : {}),
  };
  const { full, pieces } = textPieces(reply);
  if (!stream) {
    return {
      id,
      object: "chat.completion",
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: full ?? null,
            ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _i, ...c }) => c) } : {}),
          },
          finish_reason: toolCalls.length ? "tool_calls" : "stop",
        },
      ],
      usage,
    };
  }
  const chunk = (delta: unknown, finish: string | null = null, piece = false): StreamEvent => ({
    data: { id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] },
    piece,
  });
  return [
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((p) => chunk({ content: p }, null, true)),
    ...toolCalls.map((c) => chunk({ tool_calls: [c] }, null, true)),
    chunk({}, toolCalls.length ? "tool_calls" : "stop"),
    { data: { id, object: "chat.completion.chunk", created: 0, model, choices: [], usage } },
    { data: "[DONE]" },
  ];
}

function anthropicReply(reply: MessageReply, stream: boolean, n: number, model: string): unknown | StreamEvent[] {
  const id = `msg_${n}`;
  const u = reply.usage ?? { input: 12, output: 7 };
  const cache = u.cacheRead !== undefined ? { cache_read_input_tokens: u.cacheRead, cache_creation_input_tokens: 0 } : {};
  const usage = { input_tokens: u.input - (u.cacheRead ?? 0), output_tokens: u.output, ...cache };
  const { full, pieces } = textPieces(reply);
  const calls = (reply.toolCalls ?? []).map((c, i) => ({ ...c, id: c.id ?? `toolu_${n}_${i}` }));
  const stop = calls.length ? "tool_use" : "end_turn";
  const search = reply.webSearch ? anthropicSearch(reply.webSearch, n) : undefined;
  if (!stream) {
    return {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [
        ...(search?.blocks ?? []),
        ...(full ? [{ type: "text", text: full, ...(search?.citations.length ? { citations: search.citations } : {}) }] : []),
        ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
      ],
      stop_reason: stop,
      stop_sequence: null,
      usage,
    };
  }
  const events: StreamEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          content: [],
          model,
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  let index = 0;
  if (reply.webSearch) {
    const searched = anthropicSearchEvents(reply.webSearch, n);
    events.push(...searched.events);
    index = searched.next;
  }
  if (pieces.length) {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
    events.push(...anthropicCitationEvents(search?.citations ?? [], index));
    for (const piece of pieces)
      events.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
        piece: true,
      });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  for (const c of calls) {
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } },
      piece: true,
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
    data: { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: u.output } },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

const isResponses = (path: string) => /^(?:\/v1)?\/responses(?:\?|$)/.test(path);

/** OpenAI's Responses API (`/v1/responses`): the same reply, with its web search when scripted. */
function responsesReply(reply: MessageReply, stream: boolean, n: number, model: string): unknown | StreamEvent[] {
  const { full, pieces } = textPieces(reply);
  const u = reply.usage ?? { input: 12, output: 7 };
  const scripted: ResponsesReply = {
    text: full ?? "",
    pieces,
    search: reply.webSearch,
    toolCalls: (reply.toolCalls ?? []).map((c, i) => ({ ...c, id: c.id ?? `call_${n}_${i}` })),
    usage: { input: u.input, output: u.output },
  };
  return stream ? openaiResponseEvents(scripted, n, model) : openaiResponse(scripted, n, model);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
/** Resolves when `until` settles, either way, or when `signal` aborts. */
function settledOrAborted(until: Promise<unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    until.then(done, done);
  });
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

function lastUserText(body: Record<string, unknown>): string {
  if (Array.isArray(body.input)) return responsesInputFacts(body).lastUserText;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m: unknown = messages[i];
    if (!isRecord(m) || m.role !== "user") continue;
    const text =
      typeof m.content === "string"
        ? m.content
        : Array.isArray(m.content)
          ? m.content
              .filter(isRecord)
              .filter((b) => b.type === "text" && typeof b.text === "string")
              .map((b) => b.text as string)
              .join("\n")
          : "";
    if (text) return text;
  }
  return "";
}

function toolResultCount(body: Record<string, unknown>): number {
  if (Array.isArray(body.input)) return responsesInputFacts(body).toolResults;
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  let n = 0;
  for (const m of messages) {
    if (m.role === "tool") n++;
    else if (Array.isArray(m.content)) n += m.content.filter((b) => isRecord(b) && b.type === "tool_result").length;
  }
  return n;
}

function matches(when: ReplyMatch | undefined, req: RecordedRequest): boolean {
  if (!when) return true;
  if (when.model !== undefined && req.body.model !== when.model) return false;
  if (when.lastUserIncludes !== undefined && !lastUserText(req.body).includes(when.lastUserIncludes)) return false;
  if (when.toolResults !== undefined && toolResultCount(req.body) !== when.toolResults) return false;
  return true;
}

interface Scope {
  queue: ServerReply[];
  fn: ScriptFn | undefined;
  served: number;
  requests: RecordedRequest[];
  config: ServerConfig;
}

/**
 * How long after its last chunk a `disconnectAfter` stream is dropped. Chromium drops data that arrives in the same
 * read as the failure, so the browser's network process must have read the chunk first: 50 ms was enough on an idle
 * machine and lost the last chunk beside another CPU-heavy job.
 */
const DROP_GRACE_MS = 1_000;

const SCOPE_PREFIX = /^\/s\/([A-Za-z0-9_-]+)(?=\/|$|\?)/;

/**
 * Starts a server for `dialect` on 127.0.0.1 (an ephemeral port unless
 * `options.port`), its default scope answering with `script` (a queue, or a
 * function of the request) and then with the default reply.
 */
export async function startScriptedServer(
  dialect: Dialect,
  script: ServerReply[] | ScriptFn = [],
  options: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  const initialConfig = (): ServerConfig => ({
    models: [...(options.models ?? DEFAULT_MODELS[dialect])],
    requireKey: options.requireKey ?? null,
    defaultReply: options.defaultReply ?? { text: DEFAULT_REPLY_TEXT },
    local: options.local ?? null,
    echoKey: null,
  });
  const freshScope = (source: ServerReply[] | ScriptFn = []): Scope => ({
    queue: typeof source === "function" ? [] : [...source],
    fn: typeof source === "function" ? source : undefined,
    served: 0,
    requests: [],
    config: initialConfig(),
  });
  const root = freshScope(script);
  const scopes = new Map<string, Scope>();
  const scopeOf = (id = ""): Scope => {
    if (!id) return root;
    let s = scopes.get(id);
    if (!s) scopes.set(id, (s = freshScope()));
    return s;
  };
  const replace = (s: Scope, source: ServerReply[] | ScriptFn) => {
    s.queue = typeof source === "function" ? [] : [...source];
    s.fn = typeof source === "function" ? source : undefined;
  };
  const resetScope = (id = "") => {
    if (id) return void scopes.delete(id);
    replace(root, script);
    root.served = 0;
    root.requests.length = 0;
    root.config = initialConfig();
  };
  const stateOf = (s: Scope): ScopeState => ({ pending: s.queue.length, served: s.served, requests: s.requests.length, config: s.config });
  const configure = (s: Scope, patch: Partial<ServerConfig>) => {
    if (patch.models !== undefined) s.config.models = [...patch.models];
    if (patch.requireKey !== undefined) s.config.requireKey = patch.requireKey;
    if (patch.defaultReply !== undefined) s.config.defaultReply = patch.defaultReply;
    if (patch.local !== undefined) s.config.local = patch.local;
    if (patch.echoKey !== undefined) s.config.echoKey = patch.echoKey;
  };
  let requestCounter = 0;

  async function answerChat(
    s: Scope,
    recorded: RecordedRequest,
    req: IncomingMessage,
    res: ServerResponse,
    base: Record<string, string>,
    signal: AbortSignal,
  ) {
    const n = s.served++;
    const queued = s.queue.findIndex((r) => matches(r.when, recorded));
    const reply = s.fn?.(recorded, n) ?? (queued >= 0 ? s.queue.splice(queued, 1)[0]! : s.config.defaultReply);
    const headers = { ...base, ...reply.headers };
    if (isDisconnect(reply)) {
      await wait(reply.delayMs ?? 0, signal);
      req.socket.destroy();
      return;
    }
    if (isErrorReply(reply)) {
      await wait(reply.delayMs ?? 0, signal);
      if (signal.aborted) return;
      const body = reply.body ?? providerErrorBody(dialect, reply.status, undefined, headers["request-id"] ?? headers["x-request-id"]);
      res.writeHead(reply.status, { ...headers, "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    // A history the provider could not replay (its own web search's blocks changed or dropped) gets the real 400.
    const replay = dialect === "anthropic" ? anthropicReplayProblem(recorded.body) : undefined;
    if (replay) {
      res.writeHead(400, { ...headers, "content-type": "application/json" }).end(JSON.stringify(providerErrorBody(dialect, 400, replay)));
      return;
    }
    const stream = recorded.body.stream === true;
    const model = typeof recorded.body.model === "string" ? recorded.body.model : dialect === "openai" ? "gpt-4o" : "claude-sonnet-4-5";
    const built = isResponses(recorded.path)
      ? responsesReply(reply, stream, n, model)
      : dialect === "openai"
        ? openaiReply(reply, stream, n, model)
        : anthropicReply(reply, stream, n, model);
    if (!stream) {
      await wait(reply.delayMs ?? 0, signal);
      if (signal.aborted) return;
      res.writeHead(200, { ...headers, "content-type": "application/json" }).end(JSON.stringify(built));
      return;
    }
    // Only a stream that is to be cut keeps keep-alive framing (see the header comment); any other closes its
    // connection at its end, so the browser never sends the next request on a connection the server is closing
    // (it would resend it silently, and the resent request would take the next scripted reply).
    const { connection: _close, ...keepAlive } = headers;
    const streamHeaders = reply.disconnectAfter !== undefined ? keepAlive : headers;
    res.writeHead(200, { ...streamHeaders, "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
    let sent = 0;
    for (const event of built as StreamEvent[]) {
      if (event.piece) {
        if (reply.disconnectAfter !== undefined && sent >= reply.disconnectAfter) {
          // What was written reaches the client, and is read, first (Chromium drops the data that came
          // in the same read as the failure); then the connection goes.
          req.socket.write("", () => setTimeout(() => req.socket.destroy(), DROP_GRACE_MS));
          return;
        }
        if (reply.hold && sent === reply.hold.after) await settledOrAborted(reply.hold.until, signal);
        await wait(reply.delayMs ?? 0, signal);
        if (signal.aborted) return;
        sent++;
      }
      res.write(sse(event));
    }
    res.end(() => req.socket.end());
  }

  function control(s: Scope, id: string, method: string, path: string, body: unknown, res: ServerResponse, base: Record<string, string>) {
    const json = (status: number, value: unknown) =>
      void res.writeHead(status, { ...base, "content-type": "application/json" }).end(JSON.stringify(value));
    const route = `${method} ${path}`;
    if (route === "POST /__control/script") {
      const replies: unknown = Array.isArray(body) ? body : isRecord(body) ? body.replies : undefined;
      if (!Array.isArray(replies) || !replies.every(isRecord)) return json(400, { error: "body: { replies: ServerReply[] }" });
      replace(s, replies as ServerReply[]);
      return json(200, stateOf(s));
    }
    if (route === "POST /__control/config") {
      const valid =
        isRecord(body) &&
        (body.models === undefined || (Array.isArray(body.models) && body.models.every((m) => typeof m === "string"))) &&
        (body.requireKey === undefined || body.requireKey === null || typeof body.requireKey === "string") &&
        (body.defaultReply === undefined || isRecord(body.defaultReply)) &&
        (body.local === undefined || body.local === null || (isRecord(body.local) && typeof body.local.kind === "string")) &&
        (body.echoKey === undefined || body.echoKey === null || typeof body.echoKey === "number");
      if (!valid)
        return json(400, {
          error:
            "body: { models?: string[], requireKey?: string | null, defaultReply?: ServerReply, local?: LocalServer | null, " +
            "echoKey?: number | null }",
        });
      configure(s, body as Partial<ServerConfig>);
      return json(200, stateOf(s));
    }
    if (route === "POST /__control/reset") {
      resetScope(id);
      return json(200, stateOf(scopeOf(id)));
    }
    if (route === "GET /__control/requests") return json(200, s.requests);
    if (route === "GET /__control/state") return json(200, stateOf(s));
    return json(404, { error: `no control route ${route}` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const ac = new AbortController();
    res.on("close", () => ac.abort());
    if (req.method === "OPTIONS") return void res.writeHead(204, preflightHeaders(req)).end();
    const requestId = `req_${++requestCounter}`;
    const base = { ...corsHeaders(req), [dialect === "openai" ? "x-request-id" : "request-id"]: requestId };
    const fullPath = req.url ?? "/";
    const scopeId = SCOPE_PREFIX.exec(fullPath)?.[1] ?? "";
    const path = scopeId ? fullPath.slice(`/s/${scopeId}`.length) || "/" : fullPath;
    const pathname = path.split("?")[0]!;
    const s = scopeOf(scopeId);
    const method = req.method ?? "GET";
    let parsed: unknown;
    let badJson = false;
    try {
      parsed = raw ? JSON.parse(raw) : undefined;
    } catch {
      badJson = true;
    }
    if (pathname.startsWith("/__control/")) {
      if (badJson) return void res.writeHead(400, base).end("invalid JSON");
      return control(s, scopeId, method, pathname, parsed, res, base);
    }
    const recorded: RecordedRequest = { method, path, headers: req.headers, body: isRecord(parsed) ? parsed : {}, time: Date.now() };
    s.requests.push(recorded);
    const error = (status: number, message?: string) =>
      void res
        .writeHead(status, { ...base, "content-type": "application/json" })
        .end(JSON.stringify(providerErrorBody(dialect, status, message, requestId)));
    if (s.config.echoKey !== null) {
      const detail = `Invalid API key: ${String(req.headers["x-api-key"])} (x-api-key)`;
      return void res.writeHead(s.config.echoKey, { ...base, "content-type": "application/json" }).end(JSON.stringify({ detail }));
    }
    if (s.config.requireKey !== null) {
      const problem = keyProblem(dialect, req.headers, s.config.requireKey);
      if (problem) return error(401, problem);
    }
    const local = dialect === "openai" && s.config.local ? localServerReply(s.config.local, method, pathname, recorded.body) : undefined;
    if (local) return void res.writeHead(local.status, { ...base, "content-type": "application/json" }).end(JSON.stringify(local.body));
    const models = /^(?:\/v1)?\/models(?:\/(.+))?$/.exec(pathname);
    if (method === "GET" && models && (dialect === "openai" || pathname.startsWith("/v1/"))) {
      const id = models[1] ? decodeURIComponent(models[1]) : undefined;
      const json = (value: unknown) => void res.writeHead(200, { ...base, "content-type": "application/json" }).end(JSON.stringify(value));
      if (id === undefined) return json(modelsBody(dialect, s.config.models));
      if (!s.config.models.includes(id)) return error(404, dialect === "openai" ? `The model '${id}' does not exist` : `model: ${id}`);
      return json(dialect === "openai" ? openaiModel(id) : anthropicModel(id));
    }
    const responses = dialect === "openai" && (pathname === "/v1/responses" || pathname === "/responses");
    const chat =
      responses ||
      (dialect === "openai" ? pathname === "/v1/chat/completions" || pathname === "/chat/completions" : pathname === "/v1/messages");
    if (!chat || method !== "POST") return error(404, dialect === "openai" ? `Invalid URL (${method} ${pathname})` : "Not Found");
    if (badJson || !isRecord(parsed)) return error(400, "We could not parse the JSON body of your request.");
    await answerChat(s, recorded, req, res, base, ac.signal);
  }

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      handle(req, res, Buffer.concat(parts).toString("utf8")).catch((cause: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end(String(cause));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    dialect,
    url,
    port,
    requests: root.requests,
    baseUrl: (scope) => `${url}${scope ? `/s/${scope}` : ""}${dialect === "openai" ? "/v1" : ""}`,
    script: (replies, scope) => replace(scopeOf(scope), replies),
    configure: (config, scope) => configure(scopeOf(scope), config),
    reset: (scope) => resetScope(scope),
    requestsOf: (scope) => scopeOf(scope).requests,
    state: (scope) => stateOf(scopeOf(scope)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
