/**
 * OAuth 2.1 sign-in to an MCP server (PKCE, dynamic client registration), as the SDK's `OAuthClientProvider`.
 *
 * The SDK runs the protocol (`auth()`: discovery, registration, PKCE, code exchange, refresh); this provider keeps
 * what it hands over and decides when a sign-in may start. It never opens a window: {@link McpOAuthProvider.begin}
 * gives the authorization URL to whoever can (the page opens a popup), and {@link McpOAuthProvider.finish} takes the
 * code the callback page received, after checking its `state`.
 *
 * Outside a sign-in the provider is quiet: a connection that needs one fails with {@link SignInRequiredError}
 * instead of registering a client or producing a URL no one will open; an expired access token is refreshed with
 * the refresh token when there is one (the SDK does it on a 401 and retries the request).
 *
 * Credentials (the registered client and the tokens) are held by {@link McpOAuthStore}: the worker keeps them as it
 * keeps API keys (memory for the session, stored only when the person asks to remember them).
 *
 * The MCP revision 2026-07-28's hardening, on top of the SDK's (`@modelcontextprotocol/client` 2.x):
 * - RFC 9207: the callback's `iss` goes to the SDK, which refuses a code whose `iss` is not the authorization server's
 *   (or is missing where its metadata says `authorization_response_iss_parameter_supported`).
 * - Credentials are bound to the authorization server that issued them (the SDK stamps its `issuer` on them): a token
 *   is sent only while the server still names that authorization server (checked once per connection, see
 *   {@link McpOAuthProvider.rebind}), and a client registered at another one is never reused.
 * - Registration says `application_type: "web"`; where the authorization server supports Client ID Metadata
 *   Documents (`client_id_metadata_document_supported`) and the site publishes one (an https URL), its URL is the
 *   client id and nothing is registered.
 */
import {
  auth,
  AuthorizationServerMismatchError,
  discoverOAuthServerInfo,
  IssuerMismatchError,
  UnauthorizedError,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";

/** What a sign-in leaves: the client the authorization server registered, and the tokens (each stamped with its `issuer`). */
export interface McpOAuthCredentials {
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
}

/** Where a server's credentials live. `save` replaces them (an empty object forgets them). */
export interface McpOAuthStore {
  load(): McpOAuthCredentials;
  save(credentials: McpOAuthCredentials): Promise<void>;
}

/** A connection needs the person to sign in (nothing was registered, no window was asked for). */
class SignInRequiredError extends Error {
  constructor() {
    super("This MCP server needs you to sign in.");
    this.name = "SignInRequiredError";
  }
}

/** The callback's answer did not belong to the sign-in in progress (another sign-in, or forged). */
export class SignInStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignInStateError";
  }
}

/** What the callback page received: the code and state, or the server's error. */
export interface McpOAuthCallback {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
  /** RFC 9207: the authorization server that answered (checked against the one the sign-in began with). */
  iss?: string;
}

/** Tokens saved this recently are not dropped on an invalid_grant (a refresh that lost a race): 30 s. */
const REFRESH_RACE_MS = 30_000;

interface Pending {
  redirectUrl: string;
  state: string;
  verifier?: string;
  authorizationUrl?: URL;
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The same authorization server: RFC 8414 issuers, tolerating one trailing `/` (as the SDK does). */
function sameIssuer(a: string, b: string): boolean {
  const trim = (v: string) => v.replace(/\/$/, "");
  return trim(a) === trim(b);
}

/** Whether `stored` may be used with authorization server `issuer`: stamped with it, or not stamped at all. */
function boundTo(stored: { issuer?: string | undefined } | undefined, issuer: string | undefined): boolean {
  return stored?.issuer === undefined || issuer === undefined || sameIssuer(stored.issuer, issuer);
}

function redirectUrisOf(client: StoredOAuthClientInformation | undefined): string[] {
  const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === "string") : [];
}

/** The SDK's `OAuthClientProvider` for one MCP server; see the module's comment. */
export class McpOAuthProvider implements OAuthClientProvider {
  #pending: Pending | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** When tokens were last saved (see invalidateCredentials). */
  #savedAt = 0;
  /** The authorization server the MCP server names now (found once per connection), for the tokens' binding. */
  #currentIssuer: Promise<string | undefined> | undefined;

  /**
   * @param serverUrl the MCP server's URL
   * @param store where its credentials live
   * @param fetchFn the fetch to use
   * @param clientMetadataUrl the site's Client ID Metadata Document (an https URL), used as the client id where the
   *   authorization server supports it; without one (or on http), the client registers dynamically
   */
  constructor(
    private readonly serverUrl: string,
    private readonly store: McpOAuthStore,
    private readonly fetchFn?: typeof fetch,
    readonly clientMetadataUrl?: string,
  ) {}

  /** A sign-in is in progress (begun, not finished or cancelled). */
  get signingIn(): boolean {
    return this.#pending !== undefined;
  }

  /** Tokens are held (they may be expired: the next request refreshes them or asks for a sign-in). */
  get signedIn(): boolean {
    return this.store.load().tokens?.access_token !== undefined;
  }

  get redirectUrl(): string | undefined {
    // Outside a sign-in, the registered one: the SDK reads it only to tell interactive flows from others.
    return this.#pending?.redirectUrl ?? redirectUrisOf(this.store.load().client)[0] ?? "about:blank";
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "deeptab",
      redirect_uris: [this.redirectUrl ?? "about:blank"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A public client: the page cannot keep a secret (PKCE protects the code).
      token_endpoint_auth_method: "none",
      // A browser app (SEP-837): the authorization server may hold it to web redirect rules.
      application_type: "web",
    };
  }

  state(): string {
    if (!this.#pending) throw new SignInRequiredError();
    return this.#pending.state;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const { client } = this.store.load();
    const bound = client && boundTo(client, ctx?.issuer) ? client : undefined;
    if (!this.#pending) {
      // Outside a sign-in nothing may be registered: only a client already registered (at this authorization server)
      // refreshes its tokens. A server that refused the request without publishing an authorization server wants a
      // token, not a sign-in.
      if (!this.#discovery?.authorizationServerMetadata) throw new UnauthorizedError("HTTP 401, and the server offers no sign-in");
      if (!bound) throw new SignInRequiredError();
      return bound;
    }
    // A client registered for another callback URL (the site moved) is registered again; a metadata-document client
    // names its callbacks in the document.
    if (bound && this.clientMetadataUrl && bound.client_id === this.clientMetadataUrl) return bound;
    return bound && redirectUrisOf(bound).includes(this.#pending.redirectUrl) ? bound : undefined;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this.store.save({ ...this.store.load(), client });
  }

  /**
   * The tokens. The SDK asks with the authorization server (`ctx`) when it refreshes or signs in; the transport asks
   * without one before each request: then tokens go only to a server that still names the authorization server
   * that issued them (a server now pointing at another one gets none, so it answers 401 and asks for a sign-in).
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const { tokens } = this.store.load();
    if (!tokens) return undefined;
    if (ctx) return boundTo(tokens, ctx.issuer) ? tokens : undefined;
    if (tokens.issuer === undefined) return tokens;
    const current = await (this.#currentIssuer ??= this.#findIssuer());
    return current !== undefined && sameIssuer(tokens.issuer, current) ? tokens : undefined;
  }

  /** The authorization server the MCP server names now (RFC 9728, then RFC 8414), or undefined if none is found. */
  async #findIssuer(): Promise<string | undefined> {
    try {
      const info = await discoverOAuthServerInfo(this.serverUrl, this.fetchFn ? { fetchFn: this.fetchFn } : {});
      this.#discovery = { ...info, authorizationServerUrl: String(info.authorizationServerUrl) };
      return info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl);
    } catch {
      return undefined;
    }
  }

  /** Looks again at which authorization server the MCP server names, before the next connection's first request. */
  rebind(): void {
    this.#currentIssuer = undefined;
    if (!this.#pending) this.#discovery = undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.#savedAt = Date.now();
    await this.store.save({ ...this.store.load(), tokens });
  }

  redirectToAuthorization(url: URL): void {
    if (!this.#pending) throw new SignInRequiredError();
    this.#pending.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    if (!this.#pending) throw new SignInRequiredError();
    this.#pending.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#pending?.verifier) throw new SignInStateError("No sign-in is in progress for this server.");
    return this.#pending.verifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const { client, tokens } = this.store.load();
    // Two requests that meet an expired token refresh it at once; a server that rotates refresh tokens refuses the
    // second (invalid_grant). The first one's fresh tokens are kept: the SDK then tries once more with them.
    if (scope === "tokens" && Date.now() - this.#savedAt < REFRESH_RACE_MS) return;
    if (scope === "all" || scope === "discovery") this.#discovery = undefined;
    if (scope === "verifier" && this.#pending) delete this.#pending.verifier;
    if (scope === "all") await this.store.save({});
    else if (scope === "client") await this.store.save(tokens ? { tokens } : {});
    else if (scope === "tokens") await this.store.save(client ? { client } : {});
  }

  /**
   * Starts a sign-in whose callback lands on `redirectUrl`: registers a client when needed and gives the
   * authorization URL to open, or `null` when the stored refresh token was enough (signed in, nothing to open).
   */
  async begin(redirectUrl: string): Promise<URL | null> {
    this.#pending = { redirectUrl, state: randomState() };
    try {
      const result = await auth(this, { serverUrl: this.serverUrl, ...(this.fetchFn ? { fetchFn: this.fetchFn } : {}) });
      if (result === "AUTHORIZED") {
        this.#pending = undefined;
        return null;
      }
      const url = this.#pending.authorizationUrl;
      if (!url) throw new Error("The authorization server gave no authorization URL.");
      return url;
    } catch (error) {
      this.#pending = undefined;
      throw error;
    }
  }

  /**
   * Finishes the sign-in with the callback's answer: refuses one whose `state` is not this sign-in's, turns the
   * server's `error` into an Error, and exchanges the code (with the PKCE verifier) for tokens.
   */
  async finish(callback: McpOAuthCallback): Promise<void> {
    const pending = this.#pending;
    if (!pending) throw new SignInStateError("No sign-in is in progress for this server.");
    if (callback.state !== pending.state) throw new SignInStateError("The sign-in answer was not for this sign-in (its state differs).");
    try {
      if (callback.error) {
        const why = callback.errorDescription ? `: ${callback.errorDescription.slice(0, 300)}` : "";
        throw new Error(`The server refused the sign-in (${callback.error.slice(0, 60)})${why}.`);
      }
      if (!callback.code) throw new Error("The sign-in answer carried no authorization code.");
      await auth(this, {
        serverUrl: this.serverUrl,
        authorizationCode: callback.code,
        ...(callback.iss !== undefined ? { iss: callback.iss } : {}),
        ...(this.fetchFn ? { fetchFn: this.fetchFn } : {}),
      });
      this.#currentIssuer = undefined;
    } catch (error) {
      // RFC 9207 and the binding: the SDK's messages may quote the attacker's `iss`; say it plainly instead.
      if (error instanceof IssuerMismatchError)
        throw new SignInStateError("The sign-in answer came from another authorization server than the one asked (iss differs).");
      if (error instanceof AuthorizationServerMismatchError)
        throw new SignInStateError("The server now names another authorization server than the one this sign-in began with.");
      throw error;
    } finally {
      this.#pending = undefined;
    }
  }

  /** Ends a sign-in in progress without finishing it (the person closed the window, or cancelled). */
  cancel(): void {
    this.#pending = undefined;
  }

  /** Forgets the tokens and the registered client ("Sign out"). */
  async signOut(): Promise<void> {
    this.#pending = undefined;
    this.#discovery = undefined;
    await this.store.save({});
  }
}
