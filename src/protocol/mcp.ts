/**
 * The page–worker contract for MCP servers (Settings → MCP servers). The worker keeps the servers, connects to them
 * and gives runs their enabled tools; the page sees their state and tools, never a header's value.
 */
import type { ErrorInfo } from "../core/errors.ts";
import type { Result } from "../core/result.ts";
import type { McpErrorCode } from "../tools/mcp-errors.ts";
import type { McpOAuthCallback } from "../tools/mcp-oauth.ts";

export type { McpOAuthCallback };

/**
 * `connecting`; `connected`; `needs_secret`: its header was for an earlier session only; `needs_sign_in`: it signs
 * people in with OAuth and there is no valid sign-in; `signing_in`: a sign-in window is open; `failed`: see `error`.
 */
export type McpServerState = "connecting" | "connected" | "needs_secret" | "needs_sign_in" | "signing_in" | "failed";

/** One tool of a server as Settings shows it. */
export interface McpToolView {
  /** The agent's name for it (`<server>__<tool>`). */
  name: string;
  /** Its name on the server. */
  tool: string;
  title?: string;
  description: string;
  /** The server annotates it `readOnlyHint: true` and not `destructiveHint: true` (destructive wins): it runs without asking by default. */
  readOnly: boolean;
  /** Offered to the model. Default true. */
  enabled: boolean;
  /** Asks before each call. Default: not for read-only tools, for every other. */
  ask: boolean;
}

/** The header sent with every request (e.g. Authorization): whether a value is set, never the value. */
export interface McpHeaderStatus {
  name: string;
  set: boolean;
  /** Stored on this device (opted in); otherwise in the worker's memory for this session only. */
  remembered: boolean;
}

/** An OAuth sign-in: whether tokens are held, never their values. */
export interface McpSignInStatus {
  signedIn: boolean;
  /** Kept on this device (opted in); otherwise in the worker's memory for this session only. */
  remembered: boolean;
}

/** A server as Settings shows it. */
export interface McpServerView {
  id: string;
  url: string;
  /** The prefix of its tools' names. */
  name: string;
  state: McpServerState;
  /** Why it failed (state `failed`). */
  error?: McpServerError;
  transport?: "http" | "sse";
  header?: McpHeaderStatus;
  /** Present once the server asked for a sign-in (OAuth). */
  signIn?: McpSignInStatus;
  tools: McpToolView[];
  /** Tools the server offers that cannot be used, and why. */
  skipped: { tool: string; reason: string }[];
}

/** What Add MCP server sends. `headerValue` goes to the worker only; `remember` stores it on this device. */
export interface McpServerInput {
  url: string;
  name?: string;
  /** Default `Authorization` when a value is given. */
  headerName?: string;
  /** A bearer token is sent as `Bearer <token>` when `headerName` is Authorization and it has no scheme. */
  headerValue?: string;
  remember?: boolean;
}

/**
 * The codes of MCP calls on the protocol: the client's, `not_found` (no server with that id), and `sign_in_failed`
 * (the sign-in window was blocked or closed, the server refused, or its answer was not for this sign-in).
 */
export type McpServerErrorCode = McpErrorCode | "not_found" | "sign_in_failed";
export type McpServerError = ErrorInfo & { code: McpServerErrorCode };
export type McpResult<T> = Result<T, McpServerError>;

/** A tool's choices in Settings. */
export interface McpToolChoice {
  enabled?: boolean;
  ask?: boolean;
}

/** The worker's calls for MCP servers (part of AgentWorkerApi). */
export interface McpServersApi {
  /** The servers, in the order added; the first call connects the stored ones. */
  listMcpServers(): Promise<McpServerView[]>;
  /** Saves a server and connects to it: an error only for a URL that cannot be one (a failed connection is its state). */
  addMcpServer(input: McpServerInput): Promise<McpResult<McpServerView>>;
  /** Connects again (after the server was fixed, or a new header value). */
  reconnectMcpServer(id: string): Promise<McpResult<McpServerView>>;
  /** Replaces the header's value ("" forgets it) and reconnects. */
  setMcpHeader(id: string, value: string, remember: boolean): Promise<McpResult<McpServerView>>;
  setMcpTool(id: string, tool: string, choice: McpToolChoice): Promise<McpResult<McpServerView>>;
  /**
   * Starts an OAuth sign-in whose callback page is `redirectUrl` (the site's oauth-callback.html); `remember` keeps
   * the sign-in on this device. Gives the authorization URL for the sign-in window, or `null` when the server was
   * signed in to without one (a stored refresh token).
   */
  beginMcpSignIn(id: string, redirectUrl: string, remember: boolean): Promise<McpResult<{ url: string | null; server: McpServerView }>>;
  /** Finishes the sign-in with what the callback page received (refused unless its `state` is this sign-in's), and connects. */
  finishMcpSignIn(id: string, callback: McpOAuthCallback): Promise<McpResult<McpServerView>>;
  /** Ends a sign-in that will not finish (or could not start); `reason` is shown (the window was blocked or closed). */
  cancelMcpSignIn(id: string, reason: string): Promise<McpResult<McpServerView>>;
  /** Forgets the server's tokens and registered client, here and on this device. */
  signOutMcpServer(id: string): Promise<McpResult<McpServerView>>;
  /** Disconnects and forgets the server and its header. */
  removeMcpServer(id: string): Promise<McpResult<null>>;
}
