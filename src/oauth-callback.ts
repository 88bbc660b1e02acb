/**
 * The site's OAuth callback page (oauth-callback.html): an MCP server's authorization server sends the sign-in
 * window here with `code`, `state` and `iss` (or `error`). The page passes them to the tab that opened the window
 * (ui/settings/mcp-sign-in.ts), removes them from the address and history, says what happened, and closes itself.
 * It makes no request and loads nothing else.
 */
import { SIGN_IN_CHANNEL, SIGN_IN_MESSAGE, type SignInMessage } from "./ui/settings/mcp-sign-in.ts";

const params = new URLSearchParams(location.search);
const field = (name: string) => params.get(name) ?? undefined;
const message: SignInMessage = {
  type: SIGN_IN_MESSAGE,
  ...Object.fromEntries(
    [
      ["code", field("code")],
      ["state", field("state")],
      ["error", field("error")],
      ["errorDescription", field("error_description")],
      // RFC 9207: the authorization server names itself; the worker checks it against the one it signed in with.
      ["iss", field("iss")],
    ].filter(([, v]) => v !== undefined),
  ),
} as SignInMessage;
history.replaceState(null, "", location.pathname);

const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
channel.postMessage(message);
channel.close();
(window.opener as Window | null)?.postMessage(message, location.origin);

const status = document.getElementById("status");
if (status) {
  status.textContent = message.error
    ? `The server did not sign you in (${message.error}). You can close this window.`
    : message.code
      ? "Signed in. This window closes itself; if it stays, close it."
      : "This page finishes a sign-in to an MCP server; there is none to finish. You can close this window.";
}
if (message.code || message.error) setTimeout(() => window.close(), 200);
