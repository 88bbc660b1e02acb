/**
 * The request log: every request the worker makes to a model provider, a
 * model download host, an MCP server or a page `fetch_url` reads (and where a redirect the browser followed
 * ended), as method, host, path and status (never headers, bodies or query strings, which can hold keys; a key in
 * a path is hidden). The page shows it, so a person can check that nothing goes anywhere they did not choose.
 */
import { redactSecrets } from "../core/redact.ts";
import type { RequestLogEntry } from "../protocol/settings.ts";

export interface RequestLog {
  /** A `fetch` that records each request it makes. */
  readonly fetch: typeof fetch;
  entries(): RequestLogEntry[];
  clear(): void;
}

function describe(input: RequestInfo | URL, init?: RequestInit): { method: string; url: URL | undefined } {
  const raw = input instanceof Request ? input.url : String(input);
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  try {
    return { method, url: new URL(raw, globalThis.location?.href) };
  } catch {
    return { method, url: undefined };
  }
}

/**
 * A log of at most `limit` requests made through `base`. Hosts and paths pass
 * through `redact` (some servers take a key in the path): by default
 * key-shaped tokens are hidden.
 */
export function createRequestLog(
  limit = 500,
  base: typeof fetch = (input, init) => globalThis.fetch(input, init),
  redact: (text: string) => string = (text) => redactSecrets(text),
): RequestLog {
  const log: RequestLogEntry[] = [];
  const record = (entry: RequestLogEntry) => {
    log.push(entry);
    if (log.length > limit) log.splice(0, log.length - limit);
    return entry;
  };
  const logged: typeof fetch = async (input, init) => {
    const { method, url } = describe(input, init);
    const host = url ? redact(url.host) : "(invalid URL)";
    const entry = record({ at: new Date().toISOString(), method, host, path: redact(url?.pathname ?? "") });
    try {
      const response = await base(input, init);
      entry.status = response.status;
      // A redirect the browser followed by itself: the host it ended at is listed too.
      const final = response.redirected ? describe(response.url).url : undefined;
      if (final && final.href !== url?.href) {
        entry.redirected = true;
        record({ at: entry.at, method, host: redact(final.host), path: redact(final.pathname), status: response.status });
      }
      return response;
    } catch (cause) {
      entry.status = 0;
      throw cause;
    }
  };
  return {
    fetch: logged,
    entries: () => log.map((e) => ({ ...e })),
    clear: () => void log.splice(0),
  };
}
