/**
 * Typed access to the e2e provider servers' control API (`/__control/…`, see
 * src/testing/provider-servers.ts) for specs, which run in Playwright workers
 * while the servers live in the runner process.
 *
 * Spec files run in parallel workers against the same two servers, so a spec
 * that scripts replies should use its own scope: `providerScope(dialect)`
 * makes one (its own queue, config and request log) and gives the base URL
 * to put in the app's settings. The functions taking an optional `scope`
 * work on the default scope without one.
 */
import { randomUUID } from "node:crypto";
import type { RecordedRequest, ScopeState, ServerConfig, ServerReply } from "../src/testing/provider-servers.ts";
import { PROVIDER_URLS, providerBaseUrl, scopePrefix, type Dialect } from "./servers.ts";

export type { RecordedRequest, ScopeState, ServerConfig, ServerReply };

async function call<T>(dialect: Dialect, route: string, scope: string | undefined, body?: unknown): Promise<T> {
  const url = `${PROVIDER_URLS[dialect]}${scopePrefix(scope)}/__control/${route}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new Error(`${url}: the ${dialect} provider server is not reachable (is e2e/global-setup.ts the config's globalSetup?)`, {
      cause,
    });
  }
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Replaces the queue of scripted replies (answered first-match in order; then the default reply). */
function script(dialect: Dialect, replies: ServerReply[], scope?: string): Promise<ScopeState> {
  return call(dialect, "script", scope, { replies });
}

/** Back to how the server started: empty queue, start config, no recorded requests (a named scope is dropped). */
function reset(dialect: Dialect, scope?: string): Promise<ScopeState> {
  return call(dialect, "reset", scope, {});
}

/** Every request recorded so far (not preflights or control calls), oldest first. */
function requests(dialect: Dialect, scope?: string): Promise<RecordedRequest[]> {
  return call(dialect, "requests", scope);
}

/** Changes the model list, the required key (null: none) or the default reply. */
function configure(dialect: Dialect, config: Partial<ServerConfig>, scope?: string): Promise<ScopeState> {
  return call(dialect, "config", scope, config);
}

/** Queue length, chat requests served, requests recorded, config. */
function state(dialect: Dialect, scope?: string): Promise<ScopeState> {
  return call(dialect, "state", scope);
}

/** Only the chat requests (`/chat/completions`, `/v1/messages`), without model listings or the app's server probes. */
function chatRequests(list: RecordedRequest[]): RecordedRequest[] {
  return list.filter((r) => r.method === "POST" && /\/(?:chat\/completions|v1\/messages)(?:\?|$)/.test(r.path));
}

/** One scope on one dialect's server, its control functions bound. */
export interface ProviderScope {
  dialect: Dialect;
  scope: string;
  /** What the app is given as the provider's base URL. */
  baseUrl: string;
  script(replies: ServerReply[]): Promise<ScopeState>;
  reset(): Promise<ScopeState>;
  requests(): Promise<RecordedRequest[]>;
  chatRequests(): Promise<RecordedRequest[]>;
  configure(config: Partial<ServerConfig>): Promise<ScopeState>;
  state(): Promise<ScopeState>;
}

/** A scope of its own (a fresh random id unless given) on `dialect`'s server. */
export function providerScope(dialect: Dialect, scope: string = randomUUID().slice(0, 8)): ProviderScope {
  return {
    dialect,
    scope,
    baseUrl: providerBaseUrl(dialect, scope),
    script: (replies) => script(dialect, replies, scope),
    reset: () => reset(dialect, scope),
    requests: () => requests(dialect, scope),
    chatRequests: async () => chatRequests(await requests(dialect, scope)),
    configure: (config) => configure(dialect, config, scope),
    state: () => state(dialect, scope),
  };
}
