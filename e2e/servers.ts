/**
 * Where the end-to-end tests' scripted provider servers listen: an OpenAI
 * chat-completions server and an Anthropic messages server on fixed loopback
 * ports (4411 and 4412; DEEPTAB_E2E_OPENAI_PORT / DEEPTAB_E2E_ANTHROPIC_PORT
 * move them). e2e/global-setup.ts starts them; specs script them through
 * e2e/control.ts and point the app at `providerBaseUrl(dialect, scope)`.
 */
import type { Dialect } from "../src/testing/provider-servers.ts";

export type { Dialect };

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  const port = Number(raw);
  return raw && Number.isInteger(port) && port > 0 && port < 65_536 ? port : fallback;
}

/** The port of each dialect's server. */
export const PROVIDER_PORTS: Readonly<Record<Dialect, number>> = {
  openai: portFrom("DEEPTAB_E2E_OPENAI_PORT", 4411),
  anthropic: portFrom("DEEPTAB_E2E_ANTHROPIC_PORT", 4412),
};

/** The origin of each dialect's server, `http://127.0.0.1:<port>`. */
export const PROVIDER_URLS: Readonly<Record<Dialect, string>> = {
  openai: `http://127.0.0.1:${PROVIDER_PORTS.openai}`,
  anthropic: `http://127.0.0.1:${PROVIDER_PORTS.anthropic}`,
};

/** The prefix of a scope's routes on a server (`/s/<scope>`; "" for the default scope). */
export function scopePrefix(scope?: string): string {
  if (scope && !/^[A-Za-z0-9_-]+$/.test(scope)) throw new Error(`scope ${JSON.stringify(scope)}: use letters, digits, _ and - only`);
  return scope ? `/s/${scope}` : "";
}

/**
 * The base URL the app (or a client) is given for a dialect's server and
 * scope: OpenAI `http://127.0.0.1:4411[/s/<scope>]/v1` (the OpenAI-compatible
 * provider's base URL), Anthropic `http://127.0.0.1:4412[/s/<scope>]`.
 */
export function providerBaseUrl(dialect: Dialect, scope?: string): string {
  return `${PROVIDER_URLS[dialect]}${scopePrefix(scope)}${dialect === "openai" ? "/v1" : ""}`;
}
