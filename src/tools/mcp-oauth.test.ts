import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { consentWithFetch } from "../testing/mcp-oauth-server.ts";
import { startMcpServer, type McpTestServer } from "../testing/mcp-servers.ts";
import { McpSession } from "./mcp-client.ts";
import { McpOAuthProvider, SignInStateError, type McpOAuthCredentials, type McpOAuthStore } from "./mcp-oauth.ts";

const CALLBACK = "https://app.example/deeptab/oauth-callback.html";
const started: McpTestServer[] = [];
const sessions: McpSession[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function oauthServer(options: Parameters<typeof startMcpServer>[0] = {}): Promise<McpTestServer> {
  const s = await startMcpServer({ oauth: { autoApprove: true }, ...options });
  started.push(s);
  return s;
}

/** A store in memory that counts its saves. */
function memoryStore(): McpOAuthStore & { value: McpOAuthCredentials; saves: number } {
  const store = {
    value: {} as McpOAuthCredentials,
    saves: 0,
    load: () => store.value,
    save: async (next: McpOAuthCredentials) => {
      store.saves++;
      store.value = next;
    },
  };
  return store;
}

async function open(s: McpTestServer, provider: McpOAuthProvider) {
  const session = await McpSession.open({ url: s.url, authProvider: provider });
  if (session.ok) sessions.push(session.value);
  return session;
}

describe("OAuth sign-in to an MCP server (McpOAuthProvider against the SDK's authorization server)", () => {
  it("connecting without a sign-in asks for one and registers nothing; a sign-in uses PKCE (S256) and a state", async () => {
    const s = await oauthServer();
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store);
    const refused = await open(s, provider);
    expect(!refused.ok && refused.error.code).toBe("sign_in_required");
    expect(s.oauth!.stats.registrations).toBe(0);
    expect(store.saves).toBe(0);

    const url = await provider.begin(CALLBACK);
    expect(url).not.toBeNull();
    const params = url!.searchParams;
    expect(params.get("response_type")).toBe("code");
    expect(params.get("redirect_uri")).toBe(CALLBACK);
    expect(params.get("code_challenge_method")).toBe("S256");
    const challenge = createHash("sha256").update(provider.codeVerifier()).digest("base64url");
    expect(params.get("code_challenge")).toBe(challenge);
    expect(params.get("state")?.length).toBeGreaterThanOrEqual(32);
    expect(s.oauth!.stats.registrations).toBe(1);
    expect(store.value.client?.client_id).toBeTruthy();
    expect(store.value.tokens).toBeUndefined();

    const { callback } = await consentWithFetch(url!.href);
    expect(callback.state).toBe(params.get("state"));
    await provider.finish(callback);
    expect(store.value.tokens?.access_token).toMatch(/^at-/);
    expect(store.value.tokens?.refresh_token).toMatch(/^rt-/);
    const session = await open(s, provider);
    expect(session.ok).toBe(true);
    if (!session.ok) return;
    const echo = await session.value.callTool("echo", { text: "signed in" });
    expect(echo.ok && echo.value.content).toEqual([{ type: "text", text: "echo: signed in" }]);
  });

  it("refuses an answer whose state is not this sign-in's, and one when no sign-in is in progress", async () => {
    const s = await oauthServer();
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store);
    const url = await provider.begin(CALLBACK);
    const { callback } = await consentWithFetch(url!.href);
    await expect(provider.finish({ ...callback, state: "forged-state" })).rejects.toThrow(SignInStateError);
    expect(store.value.tokens).toBeUndefined();
    // A forged answer does not end the sign-in in progress: its own answer still finishes it, once.
    await provider.finish(callback);
    expect(store.value.tokens?.access_token).toMatch(/^at-/);
    await expect(provider.finish(callback)).rejects.toThrow(/No sign-in is in progress/);
  });

  it("a code is exchanged only with its own PKCE verifier", async () => {
    const s = await oauthServer();
    const provider = new McpOAuthProvider(s.url, memoryStore());
    const first = await provider.begin(CALLBACK);
    const { callback: firstAnswer } = await consentWithFetch(first!.href);
    // A second sign-in replaces the first (new state, new verifier): the first code with the second state fails PKCE.
    const second = await provider.begin(CALLBACK);
    const state = second!.searchParams.get("state")!;
    await expect(provider.finish({ code: firstAnswer.code!, state })).rejects.toThrow(/code_verifier|PKCE|verifier/i);
    expect(provider.signedIn).toBe(false);
  });

  it("a denied consent is the server's refusal, with its reason", async () => {
    const s = await oauthServer({ oauth: {} });
    const provider = new McpOAuthProvider(s.url, memoryStore());
    const url = await provider.begin(CALLBACK);
    const { callback } = await consentWithFetch(url!.href, false);
    await expect(provider.finish(callback)).rejects.toThrow("The server refused the sign-in (access_denied): The person denied access.");
    expect(provider.signedIn).toBe(false);
  });

  it("an expired access token is refreshed with the refresh token and the call goes through", async () => {
    const s = await oauthServer();
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store);
    await provider.finish((await consentWithFetch((await provider.begin(CALLBACK))!.href)).callback);
    const before = store.value.tokens!;
    const session = await open(s, provider);
    expect(session.ok).toBe(true);
    if (!session.ok) return;
    s.oauth!.expireAccessTokens();
    const echo = await session.value.callTool("echo", { text: "after expiry" });
    expect(echo.ok && echo.value.content).toEqual([{ type: "text", text: "echo: after expiry" }]);
    // The POST and the session's GET stream both meet the expired token: one or two refreshes (rotation-safe).
    const refreshes = s.oauth!.stats.refreshes;
    expect(refreshes).toBeGreaterThanOrEqual(1);
    expect(store.value.tokens!.access_token).not.toBe(before.access_token);
    expect(store.value.tokens!.refresh_token).not.toBe(before.refresh_token);
    // A stored refresh token signs in again without a window.
    expect(await provider.begin(CALLBACK)).toBeNull();
    expect(s.oauth!.stats.refreshes).toBe(refreshes + 1);
  });

  it("once the refresh token is no longer valid, the connection asks for a sign-in again; Sign out forgets everything", async () => {
    const s = await oauthServer();
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store);
    await provider.finish((await consentWithFetch((await provider.begin(CALLBACK))!.href)).callback);
    s.oauth!.forgetAll();
    const refused = await open(s, provider);
    expect(!refused.ok && refused.error.code).toBe("sign_in_required");
    await provider.signOut();
    expect(store.value).toEqual({});
    expect(provider.signedIn).toBe(false);
  });

  it("a server that answers 401 without offering a sign-in wants a token: unauthorized, not sign-in", async () => {
    const s = await startMcpServer({ token: "secret-token" });
    started.push(s);
    const refused = await open(s, new McpOAuthProvider(s.url, memoryStore()));
    expect(!refused.ok && refused.error.code).toBe("unauthorized");
  });
});
