/**
 * The failures of an MCP server, as coded values with plain messages that say what to do next. The same text
 * reaches the model (as a tool error it can act on) and the person (in Settings → MCP servers).
 */
import type { ErrorInfo } from "../core/errors.ts";

/**
 * What went wrong with an MCP server:
 * - `invalid_url`: the URL is not an http(s) URL;
 * - `cors`: the page may not read the server's answers (its CORS headers do not allow this origin, or it does not
 *   expose `Mcp-Session-Id`), known because the server answered an opaque request;
 * - `unreachable`: nothing answered at the URL (in a browser: or CORS refused it, where the two cannot be told
 *   apart: a cross-origin-isolated page cannot make the opaque request that would tell them apart);
 * - `unauthorized`: 401/403, the token is missing, wrong or expired;
 * - `sign_in_required`: the server signs people in with OAuth and there is no valid sign-in (Sign in in Settings);
 * - `session_expired`: the server forgot the session and reconnecting did not help;
 * - `server_gone`: the connection dropped during a call;
 * - `timeout`: a call did not answer in time (it was cancelled);
 * - `protocol`: the server answered, but not as an MCP server should.
 */
export type McpErrorCode =
  "invalid_url" | "cors" | "unreachable" | "unauthorized" | "sign_in_required" | "session_expired" | "server_gone" | "timeout" | "protocol";

/** An MCP failure: {@link ErrorInfo} with a {@link McpErrorCode}, plain data (it crosses postMessage). */
export type McpError = ErrorInfo & { code: McpErrorCode };

/** The request headers an MCP client sends cross-origin: the server's `Access-Control-Allow-Headers` must list them. */
export const MCP_REQUEST_HEADERS = "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";

/** The origin of the page or worker running the client ("this page" where there is none, as in Node). */
function pageOrigin(): string {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== "null" ? location.origin : "this page's origin";
}

/** Whether the client runs where CORS applies (a page or a worker: they have a location). */
function inBrowser(): boolean {
  return typeof (globalThis as { location?: unknown }).location === "object";
}

/** What a server must send so a page may use it. */
function corsNeeds(start = "the"): string {
  return (
    `${start} server must answer with Access-Control-Allow-Origin: ${pageOrigin()}, allow the request headers ` +
    `${MCP_REQUEST_HEADERS} (Access-Control-Allow-Headers), and send Access-Control-Expose-Headers: Mcp-Session-Id.`
  );
}

/** An {@link McpError}. */
export function mcpError(code: McpErrorCode, message: string, status?: number): McpError {
  return { name: "McpError", code, message, ...(status === undefined ? {} : { status }) };
}

/** The message of each code, for the server at `url` (the origin only: a URL may carry a token in its query). */
export function mcpMessage(code: McpErrorCode, url: string, detail = ""): string {
  const where = `The MCP server at ${safeOrigin(url)}`;
  const more = detail ? ` (${detail})` : "";
  switch (code) {
    case "invalid_url":
      return `'${url.slice(0, 200)}' is not an http(s) URL of an MCP server${more}.`;
    case "cors":
      return `${where} does not allow this page to read its answers (CORS)${more}. ${corsNeeds("The")}`;
    case "unreachable":
      if (!inBrowser()) return `${where} did not answer${more}: it is not running, or the URL is wrong.`;
      // A browser tells a refused connection and a CORS refusal apart to no one (both are "Failed to fetch").
      return (
        `${where} could not be reached from this page${more}: it is not running at that URL, or it does not allow ` +
        `this page's origin (CORS). If it is running, ${corsNeeds()}`
      );
    case "unauthorized":
      return `${where} refused the credentials${more}: sign in again, or update its token in Settings → MCP servers.`;
    case "sign_in_required":
      return `${where} needs you to sign in${more}: use Sign in in Settings → MCP servers.`;
    case "session_expired":
      return `${where} ended the session and a new one failed too${more}. Try again later.`;
    case "server_gone":
      return `${where} went away during the call${more}; whether the call took effect is unknown. Try again later or go on without it.`;
    case "timeout":
      return `${where} did not answer in time${more}; the call was cancelled. Try a smaller request, or go on without it.`;
    case "protocol":
      return `${where} answered, but not as an MCP server${more}.`;
  }
}

/** `scheme://host:port` of a URL, or the first characters of what was given. */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.slice(0, 80);
  }
}
