/**
 * Where a key may go. A provider's key is bound to the origin (scheme, host and port) of the endpoint the person
 * entered it with: the provider's official URL (OpenAI, Anthropic) or the base URL the person set (an
 * OpenAI-compatible server, a proxy in front of the official API). The origin is the unit because it is what a
 * browser trusts as one party (CORS, storage): another path on the same origin is the same server, while another
 * port or scheme may be another program. Pure: the worker's key store (worker/settings/settings.ts) keeps the binding.
 */
import { httpOrigin } from "../core/http-url.ts";
import { providerInfo, type ProviderId } from "./catalog.ts";

/** The origin `provider`'s requests go to with `baseUrl` (its official URL when unset); undefined when there is none. */
export function endpointOrigin(provider: ProviderId, baseUrl?: string): string | undefined {
  return httpOrigin(baseUrl || providerInfo(provider).officialUrl);
}

/** The entry's key when a request to `baseUrl` goes to the origin it is bound to; otherwise none. */
export function keyForEndpoint(
  entry: { key: string; origin: string | undefined } | undefined,
  provider: ProviderId,
  baseUrl?: string,
): string | undefined {
  if (!entry?.origin) return undefined;
  return endpointOrigin(provider, baseUrl) === entry.origin ? entry.key : undefined;
}
