/**
 * The authorization server of the loopback MCP server that requires sign-in (mcp-servers.ts, option `oauth`): the
 * SDK's own server side (`mcpAuthRouter`: metadata, dynamic client registration, authorize, token with PKCE
 * checked by the SDK, revoke; `requireBearerAuth` in front of /mcp) over an in-memory `OAuthServerProvider`, after
 * the SDK's demo provider, plus refresh tokens and a consent page with Allow and Deny.
 */
import { randomUUID } from "node:crypto";
import express, { type Express, type Response } from "express";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidGrantError, InvalidRequestError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthCallback } from "../tools/mcp-oauth.ts";

export interface TestOAuthOptions {
  /** How long an access token lives (ms). Default one hour. */
  accessTtlMs?: number;
  /** Approve at once instead of showing the consent page. Default false. */
  autoApprove?: boolean;
  /** RFC 9207: advertise `authorization_response_iss_parameter_supported` and send `iss` with each answer. */
  issParameter?: boolean;
  /** Send this `iss` with each answer instead of its own (a mix-up attack's answer). */
  forgeIss?: string;
  /**
   * Client ID Metadata Documents: advertise `client_id_metadata_document_supported`, and take an https client id
   * as the URL of the client's document, read with this function (a real server fetches it).
   */
  clientDocuments?: (url: string) => Promise<unknown>;
}

/** What the authorization server did, for tests to check. */
export interface TestOAuthStats {
  registrations: number;
  codes: number;
  refreshes: number;
  /** Requests to /mcp refused for a missing or invalid token. */
  refused: number;
  /** The client metadata of the last dynamic registration, as sent. */
  lastRegistration?: Record<string, unknown>;
  /** Client ids read from a Client ID Metadata Document. */
  documentClients: string[];
}

interface Issued {
  clientId: string;
  expiresAt: number;
  resource?: URL;
}

/** The in-memory authorization server; `app` serves it and guards `/mcp` with `mcp`. */
export class TestOAuthServer implements OAuthServerProvider {
  readonly stats: TestOAuthStats = { registrations: 0, codes: 0, refreshes: 0, refused: 0, documentClients: [] };
  /** Its issuer identifier (its origin, as the SDK's router publishes it). */
  issuer = "";
  readonly #clients = new Map<string, OAuthClientInformationFull>();
  readonly #pending = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  readonly #codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  readonly #access = new Map<string, Issued>();
  readonly #refresh = new Map<string, Issued>();

  constructor(private readonly options: TestOAuthOptions = {}) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (id) => this.#clients.get(id) ?? (await this.#documentClient(id)),
      registerClient: (client) => {
        this.stats.registrations++;
        // The SDK's registration handler has given it a client_id already (the type leaves it out).
        const given = client as Partial<OAuthClientInformationFull>;
        const full = { ...client, client_id: given.client_id ?? randomUUID() } as OAuthClientInformationFull;
        this.#clients.set(full.client_id, full);
        return full;
      },
    };
  }

  /** A client whose id is the URL of its metadata document (option `clientDocuments`); the document must name it. */
  async #documentClient(id: string): Promise<OAuthClientInformationFull | undefined> {
    if (!this.options.clientDocuments || !id.startsWith("https://")) return undefined;
    const document = (await this.options.clientDocuments(id).catch(() => undefined)) as Partial<OAuthClientInformationFull> | undefined;
    if (!document || document.client_id !== id || !Array.isArray(document.redirect_uris)) return undefined;
    this.stats.documentClients.push(id);
    return { ...document, client_id: id, redirect_uris: document.redirect_uris };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    if (!client.redirect_uris.includes(params.redirectUri)) throw new InvalidRequestError("Unregistered redirect_uri");
    const id = randomUUID();
    this.#pending.set(id, { client, params });
    if (this.options.autoApprove) return this.consent(id, true, res);
    const name = String(client.client_name ?? "An app").replace(/[<>&"]/g, "");
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><title>Sign in</title></head><body><h1>Allow ${name} to use the test MCP server?</h1>` +
          `<a href="/consent?id=${id}&allow=1">Allow</a> <a href="/consent?id=${id}&allow=0">Deny</a></body></html>`,
      );
  }

  /** The consent page's answer: a code, or `access_denied`, sent to the client's redirect URI with its state. */
  consent(id: string, allow: boolean, res: Response): void {
    const pending = this.#pending.get(id);
    if (!pending) {
      res.status(400).send("No such sign-in.");
      return;
    }
    this.#pending.delete(id);
    const target = new URL(pending.params.redirectUri);
    if (allow) {
      const code = randomUUID();
      this.#codes.set(code, pending);
      this.stats.codes++;
      target.searchParams.set("code", code);
    } else {
      target.searchParams.set("error", "access_denied");
      target.searchParams.set("error_description", "The person denied access.");
    }
    if (pending.params.state !== undefined) target.searchParams.set("state", pending.params.state);
    if (this.options.forgeIss !== undefined) target.searchParams.set("iss", this.options.forgeIss);
    else if (this.options.issParameter) target.searchParams.set("iss", this.issuer);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const issued = this.#codes.get(code);
    if (!issued) throw new InvalidGrantError("Invalid authorization code");
    return issued.params.codeChallenge;
  }

  #issue(clientId: string, resource: URL | undefined): OAuthTokens {
    const ttl = this.options.accessTtlMs ?? 3_600_000;
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    const base = { clientId, ...(resource ? { resource } : {}) };
    this.#access.set(access, { ...base, expiresAt: Date.now() + ttl });
    this.#refresh.set(refresh, { ...base, expiresAt: Date.now() + 30 * 86_400_000 });
    return { access_token: access, token_type: "bearer", expires_in: Math.ceil(ttl / 1000), refresh_token: refresh };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const issued = this.#codes.get(code);
    if (!issued || issued.client.client_id !== client.client_id) throw new InvalidGrantError("Invalid authorization code");
    this.#codes.delete(code);
    return this.#issue(client.client_id, issued.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const issued = this.#refresh.get(refreshToken);
    if (!issued || issued.clientId !== client.client_id) throw new InvalidGrantError("Invalid refresh token");
    // Rotation: a refresh token is used once.
    this.#refresh.delete(refreshToken);
    this.stats.refreshes++;
    return this.#issue(client.client_id, issued.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.#access.get(token);
    if (!issued || issued.expiresAt < Date.now()) {
      this.stats.refused++;
      throw new InvalidTokenError("Invalid or expired token");
    }
    return { token, clientId: issued.clientId, scopes: [], expiresAt: Math.floor(issued.expiresAt / 1000) };
  }

  /** Ends every access token now (refresh tokens stay valid): the next request must refresh. */
  expireAccessTokens(): void {
    for (const issued of this.#access.values()) issued.expiresAt = 0;
  }

  /** Ends every token and forgets every client: the next connection must sign in from the start. */
  forgetAll(): void {
    this.#access.clear();
    this.#refresh.clear();
    this.#clients.clear();
  }

  /** Every access and refresh token it issued that is still known (to check none leaks where it must not). */
  issuedTokens(): string[] {
    return [...this.#access.keys(), ...this.#refresh.keys()];
  }

  /**
   * The express app: the authorization server at `origin`, the consent page, and `/mcp` (behind a bearer token)
   * handled by `mcp`; `cors` sets CORS headers first (the 401 must carry them, and expose WWW-Authenticate).
   */
  app(origin: string, cors: (req: express.Request, res: express.Response) => void, mcp: express.RequestHandler): Express {
    const app = express();
    const mcpUrl = new URL("/mcp", origin);
    this.issuer = new URL(origin).href;
    app.use((req, res, next) => {
      cors(req, res);
      if (req.method === "OPTIONS") res.status(204).end();
      else next();
    });
    // What the client sent to register, as sent (the SDK 1.x router drops fields it does not know, as application_type).
    app.post("/register", express.json(), (req, _res, next) => {
      this.stats.lastRegistration = { ...(req.body as Record<string, unknown>) };
      next();
    });
    // The metadata's newer fields (RFC 9207, Client ID Metadata Documents), which the SDK 1.x router does not write.
    app.get("/.well-known/oauth-authorization-server", (_req, res, next) => {
      const json = res.json.bind(res);
      res.json = (body: unknown) =>
        json({
          ...(body as object),
          ...(this.options.issParameter || this.options.forgeIss !== undefined
            ? { authorization_response_iss_parameter_supported: true }
            : {}),
          ...(this.options.clientDocuments ? { client_id_metadata_document_supported: true } : {}),
        });
      next();
    });
    app.use(mcpAuthRouter({ provider: this, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl, resourceName: "deeptab test" }));
    app.get("/consent", (req, res) => this.consent(String(req.query.id), req.query.allow === "1", res));
    app.all("/mcp", requireBearerAuth({ verifier: this, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) }), mcp);
    return app;
  }
}

/**
 * What a person's browser does in the sign-in window, done with fetch (Node tests): opens the authorization URL,
 * clicks Allow or Deny on the consent page (or is sent on at once), and reads the callback's query.
 */
export async function consentWithFetch(authorizationUrl: string, allow = true): Promise<{ url: URL; callback: McpOAuthCallback }> {
  let response = await fetch(authorizationUrl, { redirect: "manual" });
  if (response.status === 200) {
    const html = await response.text();
    const href = new RegExp(`href="([^"]+)">${allow ? "Allow" : "Deny"}<`).exec(html)?.[1];
    if (!href) throw new Error(`No ${allow ? "Allow" : "Deny"} link on the consent page: ${html.slice(0, 200)}`);
    response = await fetch(new URL(href, authorizationUrl), { redirect: "manual" });
  }
  const location = response.headers.get("location");
  if (response.status !== 302 || !location)
    throw new Error(`The authorization server answered ${response.status}: ${await response.text()}`);
  const url = new URL(location);
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  const fields = {
    code: get("code"),
    state: get("state"),
    error: get("error"),
    errorDescription: get("error_description"),
    iss: get("iss"),
  };
  return { url, callback: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
}
