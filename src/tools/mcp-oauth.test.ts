import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { consentWithFetch } from "../testing/mcp-oauth-server.ts";
import { MCP_REVISIONS, startMcpServer, type McpRevision, type McpTestServer } from "../testing/mcp-servers.ts";
import { McpSession } from "./mcp-client.ts";
import { McpOAuthProvider, SignInStateError, type McpOAuthCredentials, type McpOAuthStore } from "./mcp-oauth.ts";

const CALLBACK = "https://app.example/deeptab/oauth-callback.html";
const started: McpTestServer[] = [];
const sessions: McpSession[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function oauthServer(revision: McpRevision, options: Parameters<typeof startMcpServer>[0] = {}): Promise<McpTestServer> {
  const s = await startMcpServer({ revision, oauth: { autoApprove: true }, ...options });
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

describe.each(MCP_REVISIONS)(
  "OAuth sign-in to an MCP server speaking %s (McpOAuthProvider against the SDK's authorization server)",
  (revision) => {
    it("connecting without a sign-in asks for one and registers nothing; a sign-in uses PKCE (S256) and a state", async () => {
      const s = await oauthServer(revision);
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
      const s = await oauthServer(revision);
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
      const s = await oauthServer(revision);
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
      const s = await oauthServer(revision, { oauth: {} });
      const provider = new McpOAuthProvider(s.url, memoryStore());
      const url = await provider.begin(CALLBACK);
      const { callback } = await consentWithFetch(url!.href, false);
      await expect(provider.finish(callback)).rejects.toThrow("The server refused the sign-in (access_denied): The person denied access.");
      expect(provider.signedIn).toBe(false);
    });

    it("an expired access token is refreshed with the refresh token and the call goes through", async () => {
      const s = await oauthServer(revision);
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
      const s = await oauthServer(revision);
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
      const s = await startMcpServer({ revision, token: "secret-token" });
      started.push(s);
      const refused = await open(s, new McpOAuthProvider(s.url, memoryStore()));
      expect(!refused.ok && refused.error.code).toBe("unauthorized");
    });
  },
);

/** The site's Client ID Metadata Document as a deployment at `url` publishes it (public/oauth-client.json, filled in). */
function clientDocument(url: string) {
  return {
    client_id: url,
    client_name: "deeptab",
    redirect_uris: [CALLBACK],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "web",
  };
}

describe.each(MCP_REVISIONS)("the 2026-07-28 revision's OAuth hardening, against a server speaking %s", (revision) => {
  it("registers as application_type web", async () => {
    const s = await oauthServer(revision);
    await new McpOAuthProvider(s.url, memoryStore()).begin(CALLBACK);
    expect(s.oauth!.stats.lastRegistration?.application_type).toBe("web");
  });

  it("RFC 9207: an answer carrying the authorization server's own iss is taken", async () => {
    const s = await oauthServer(revision, { oauth: { autoApprove: true, issParameter: true } });
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store);
    const { url, callback } = await consentWithFetch((await provider.begin(CALLBACK))!.href);
    expect(url.searchParams.get("iss")).toBe(s.oauth!.issuer);
    await provider.finish(callback);
    expect(store.value.tokens?.access_token).toMatch(/^at-/);
  });

  it("RFC 9207: an answer with another iss, or none where the server sends one, is refused and no code is redeemed", async () => {
    const s = await oauthServer(revision, { oauth: { autoApprove: true, forgeIss: "https://attacker.example/" } });
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store);
    const { callback } = await consentWithFetch((await provider.begin(CALLBACK))!.href);
    expect(callback.iss).toBe("https://attacker.example/");
    await expect(provider.finish(callback)).rejects.toThrow(SignInStateError);
    expect(store.value.tokens).toBeUndefined();

    const honest = await oauthServer(revision, { oauth: { autoApprove: true, issParameter: true } });
    const second = new McpOAuthProvider(honest.url, memoryStore());
    const answer = await consentWithFetch((await second.begin(CALLBACK))!.href);
    const { iss: _dropped, ...withoutIss } = answer.callback;
    await expect(second.finish(withoutIss)).rejects.toThrow(/iss differs/);
    expect(second.signedIn).toBe(false);
  });

  it("credentials are bound to the authorization server that issued them: another one's token is never sent", async () => {
    const a = await oauthServer(revision);
    const b = await oauthServer(revision);
    const store = memoryStore();
    const atB = new McpOAuthProvider(b.url, store);
    await atB.finish((await consentWithFetch((await atB.begin(CALLBACK))!.href)).callback);
    expect(store.value.tokens?.issuer).toBe(b.oauth!.issuer);
    expect(store.value.client?.issuer).toBe(b.oauth!.issuer);
    const fromB = store.value.tokens!.access_token;
    // The same credentials, now for a server whose authorization server is A (as if the server had moved to A).
    const atA = new McpOAuthProvider(a.url, store);
    const refused = await open(a, atA);
    expect(!refused.ok && refused.error.code).toBe("sign_in_required");
    expect(a.bearers).not.toContain(fromB);
    expect(a.oauth!.stats.registrations).toBe(0);
    // Signing in at A registers there (B's client is not reused) and replaces B's credentials.
    await atA.finish((await consentWithFetch((await atA.begin(CALLBACK))!.href)).callback);
    expect(a.oauth!.stats.registrations).toBe(1);
    expect(store.value.tokens?.issuer).toBe(a.oauth!.issuer);
    const session = await open(a, atA);
    expect(session.ok).toBe(true);
    expect(a.bearers).not.toContain(fromB);
  });

  it("prefers a Client ID Metadata Document where the server supports one: nothing is registered", async () => {
    const documentUrl = "https://app.example/deeptab/oauth-client.json";
    const s = await oauthServer(revision, { oauth: { autoApprove: true, clientDocuments: async (u) => clientDocument(u) } });
    const store = memoryStore();
    const provider = new McpOAuthProvider(s.url, store, undefined, documentUrl);
    const url = await provider.begin(CALLBACK);
    expect(url!.searchParams.get("client_id")).toBe(documentUrl);
    await provider.finish((await consentWithFetch(url!.href)).callback);
    expect(s.oauth!.stats.registrations).toBe(0);
    expect(s.oauth!.stats.documentClients).toContain(documentUrl);
    const session = await open(s, provider);
    expect(session.ok).toBe(true);
    // A server without support gets a dynamic registration, as before.
    const plain = await oauthServer(revision);
    const registered = new McpOAuthProvider(plain.url, memoryStore(), undefined, documentUrl);
    expect((await registered.begin(CALLBACK))!.searchParams.get("client_id")).not.toBe(documentUrl);
    expect(plain.oauth!.stats.registrations).toBe(1);
  });
});
