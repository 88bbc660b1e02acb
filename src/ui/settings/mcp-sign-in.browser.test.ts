/**
 * The sign-in window's way back, in Chromium: the site's callback page (oauth-callback.html, served by Vite as the
 * build serves it) passes the code and state on, the page's listener takes only the answer with its sign-in's state
 * from this origin, and says when the window was closed without one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { callbackUrl, SIGN_IN_CHANNEL, SIGN_IN_MESSAGE, signInMessage, waitForCallback } from "./mcp-sign-in.ts";

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const frame of frames.splice(0)) frame.remove();
});

/** Loads the callback page with `query` (in a frame: a window the test opened would be the same page). */
function loadCallback(query: string): HTMLIFrameElement {
  const frame = document.createElement("iframe");
  frame.src = `/oauth-callback.html?${query}`;
  document.body.append(frame);
  frames.push(frame);
  return frame;
}

const openWindow = { closed: false } as Window;

describe("the OAuth callback page and the page's listener", () => {
  it("the callback page passes code and state on; an answer for another sign-in is ignored", async () => {
    const waiting = new AbortController();
    const answer = waitForCallback("state-of-this-sign-in", openWindow, waiting.signal);
    loadCallback("code=not-ours&state=state-of-another-sign-in");
    loadCallback("code=the-code&state=state-of-this-sign-in");
    await expect(answer).resolves.toEqual({ kind: "answer", callback: { code: "the-code", state: "state-of-this-sign-in" } });
  });

  it("passes the server's refusal on, and removes the code from the page's address", async () => {
    const answer = waitForCallback("s2", openWindow, new AbortController().signal);
    const frame = loadCallback("error=access_denied&error_description=No%20thanks&state=s2");
    await expect(answer).resolves.toEqual({
      kind: "answer",
      callback: { error: "access_denied", errorDescription: "No thanks", state: "s2" },
    });
    await expect
      .poll(() => frame.contentDocument?.getElementById("status")?.textContent, { timeout: 30_000 })
      .toContain("did not sign you in");
    expect(frame.contentWindow?.location.search).toBe("");
  });

  it("ignores messages of another shape or from another origin; ends when the window closes or the wait is cancelled", async () => {
    expect(signInMessage({ type: "other", code: "x" })).toBeNull();
    expect(signInMessage({ type: SIGN_IN_MESSAGE, code: 42, state: "s" })).toEqual({ type: SIGN_IN_MESSAGE, state: "s" });
    const closing = { closed: false } as { closed: boolean };
    const stop = new AbortController();
    const ended = waitForCallback("s3", closing as Window, stop.signal);
    window.postMessage({ type: SIGN_IN_MESSAGE, code: "c", state: "wrong" }, location.origin);
    const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
    channel.postMessage({ type: "something else", state: "s3" });
    channel.close();
    closing.closed = true;
    // In a cross-origin-isolated page a window that left this origin reads closed: only the answer or Cancel ends it.
    if (globalThis.crossOriginIsolated) {
      const cancel = new AbortController();
      const cancelled = waitForCallback("s4", closing as Window, cancel.signal);
      cancel.abort();
      await expect(cancelled).resolves.toEqual({ kind: "cancelled" });
      stop.abort();
      await expect(ended).resolves.toEqual({ kind: "cancelled" });
    } else await expect(ended).resolves.toEqual({ kind: "closed" });
    expect(callbackUrl("https://example.github.io/deeptab/")).toBe("https://example.github.io/deeptab/oauth-callback.html");
    expect(callbackUrl("https://example.github.io/deeptab/index.html?agent=x")).toBe(
      "https://example.github.io/deeptab/oauth-callback.html",
    );
  });
});
