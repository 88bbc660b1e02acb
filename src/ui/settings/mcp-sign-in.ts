/**
 * The page's half of an MCP server's OAuth sign-in: the worker cannot open windows, so the page opens the sign-in
 * window on the person's click (synchronously, so pop-up blockers allow it), sends it to the authorization URL the
 * worker produced, and waits for the site's callback page (oauth-callback.html, src/oauth-callback.ts) to pass back
 * the code and state.
 *
 * The callback answers on a BroadcastChannel (a cross-origin-isolated page's COOP severs `window.opener` once the
 * window visits the authorization server) and to `window.opener` where it still exists; only answers from this
 * origin that carry this sign-in's `state` count (the worker checks `state` again).
 */
import type { McpOAuthCallback } from "../../protocol/mcp.ts";

/** The channel and message type the callback page answers with. */
export const SIGN_IN_CHANNEL = "deeptab-mcp-oauth";
export const SIGN_IN_MESSAGE = "deeptab-mcp-oauth-callback";

/** The callback page's message. */
export interface SignInMessage extends McpOAuthCallback {
  type: typeof SIGN_IN_MESSAGE;
}

/** The window's name, size and features. */
const FEATURES = "popup,width=520,height=720";

/** The site's callback page: beside index.html, wherever the site is served (`./` or a sub-path). */
export function callbackUrl(base = document.baseURI): string {
  return new URL("oauth-callback.html", base).href;
}

/** Opens the (blank) sign-in window; `null` when the browser blocked it. Call it synchronously in the click handler. */
export function openSignInWindow(): Window | null {
  return window.open("about:blank", "deeptab-mcp-sign-in", FEATURES);
}

/** The callback's fields of a message, when it is one; anything else is `null`. */
export function signInMessage(data: unknown): SignInMessage | null {
  if (typeof data !== "object" || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.type !== SIGN_IN_MESSAGE) return null;
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 4_096) : undefined);
  const fields = {
    code: text(m.code),
    state: text(m.state),
    error: text(m.error),
    errorDescription: text(m.errorDescription),
    iss: text(m.iss),
  };
  return {
    type: SIGN_IN_MESSAGE,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  } as SignInMessage;
}

/** How the wait for the callback ended. */
export type SignInWait = { kind: "answer"; callback: McpOAuthCallback } | { kind: "closed" } | { kind: "cancelled" };

/**
 * Waits for the callback that carries `state`. Ends `closed` when the window is seen closed without an answer (only
 * where that can be seen: not in a cross-origin-isolated page, whose reference to the window reads closed once it
 * left this origin), `cancelled` when `signal` aborts.
 */
export function waitForCallback(state: string, popup: Window, signal: AbortSignal): Promise<SignInWait> {
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
    let closedSince = 0;
    const finish = (result: SignInWait) => {
      channel.close();
      window.removeEventListener("message", onWindowMessage);
      clearInterval(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const take = (data: unknown) => {
      const message = signInMessage(data);
      if (!message || message.state !== state) return;
      const { type: _type, ...callback } = message;
      finish({ kind: "answer", callback });
    };
    const onWindowMessage = (event: MessageEvent) => {
      if (event.origin === location.origin) take(event.data);
    };
    const onAbort = () => finish({ kind: "cancelled" });
    channel.onmessage = (event) => take(event.data);
    window.addEventListener("message", onWindowMessage);
    signal.addEventListener("abort", onAbort);
    const timer = setInterval(() => {
      if (globalThis.crossOriginIsolated || !popup.closed) return;
      // An answer posted just before the window closed itself may still be on its way: give it a second.
      closedSince ||= Date.now();
      if (Date.now() - closedSince > 1_000) finish({ kind: "closed" });
    }, 250);
  });
}
