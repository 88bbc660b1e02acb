/**
 * Provider failures: what they are, what to tell the user, and retrying the
 * ones worth retrying, visibly.
 *
 * - 429 (rate limited): wait as the provider's `Retry-After` says (else
 *   exponential backoff) and retry.
 * - 5xx and network failures: exponential backoff and retry; a connection
 *   that dropped after the provider answered (`dropped`, models/dropped-stream.ts)
 *   too, and it is what is reported when the retries then cannot reach it:
 *   the endpoint was there, so blaming CORS or the address would mislead.
 * - 401/403, context overflow and other 4xx: never retried (overflow is the
 *   summarization middleware's; the others need the user).
 *
 * Each wait is announced as a custom stream event (`deeptab:retry`) so the
 * page can say "rate limited, retrying in 4 s (2 of 4)". An abort ends the
 * wait at once.
 */
import { isContextOverflow } from "../context/overflow.ts";
import type { AgentMiddleware } from "../harness/types.ts";

export const PROVIDER_RETRY = "ProviderRetryMiddleware";
/** The `type` of the custom stream event announcing a retry. */
export const RETRY_EVENT = "deeptab:retry";

export type ProviderFailure = "auth" | "rate_limit" | "server" | "network" | "dropped" | "overflow" | "bad_request" | "unknown";

export interface ClassifiedError {
  kind: ProviderFailure;
  status?: number;
  /** Milliseconds the provider asked to wait (Retry-After). */
  retryAfterMs?: number;
}

function header(err: unknown, name: string): string | undefined {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (headers && typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  if (headers && typeof headers === "object") {
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/** Milliseconds a Retry-After header (seconds or an HTTP date) asks for. */
function retryAfterMs(err: unknown, now = Date.now()): number | undefined {
  const direct = (err as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  if (typeof direct === "number" && direct >= 0) return direct;
  const raw = header(err, "retry-after");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const NETWORK = /failed to fetch|fetch failed|networkerror|network error|load failed|connection error|econnrefused|enotfound|cors/i;

export function classifyProviderError(err: unknown): ClassifiedError {
  // A replay that no longer fits its recording (models/replay): retrying cannot change it, whatever its reason says.
  if ((err as { code?: unknown } | null)?.code === "demo_diverged") return { kind: "unknown" };
  if (isContextOverflow(err)) return { kind: "overflow" };
  const status = (err as { status?: unknown } | null)?.status;
  const name = err instanceof Error ? err.name : "";
  // The provider answered, then the connection went (models/dropped-stream.ts names it so).
  if (name === "ConnectionDroppedError") return { kind: "dropped" };
  const message = err instanceof Error ? err.message : String(err);
  if (typeof status === "number") {
    if (status === 401 || status === 403) return { kind: "auth", status };
    if (status === 429) {
      const wait = retryAfterMs(err);
      return wait === undefined ? { kind: "rate_limit", status } : { kind: "rate_limit", status, retryAfterMs: wait };
    }
    if (status >= 500) return { kind: "server", status };
    if (status >= 400) return { kind: "bad_request", status };
  }
  if (name === "APIConnectionError" || name === "TypeError" || NETWORK.test(message)) return { kind: "network" };
  return { kind: "unknown" };
}

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** First backoff; doubled each time (with jitter). Default 1,000 ms. */
  baseDelayMs?: number;
  /** The longest single wait. Default 60 s. */
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function abortable(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function providerRetryMiddleware(options: RetryOptions = {}): AgentMiddleware {
  const maxAttempts = options.maxAttempts ?? 4;
  const base = options.baseDelayMs ?? 1_000;
  const cap = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? abortable;
  return {
    name: PROVIDER_RETRY,
    async wrapModelCall(request, next) {
      /** A connection that dropped after the provider answered, in an earlier attempt. */
      let dropped: unknown;
      for (let attempt = 1; ; attempt++) {
        try {
          return await next(request);
        } catch (err) {
          const failure = classifyProviderError(err);
          if (failure.kind === "dropped") dropped = err;
          const retryable =
            failure.kind === "rate_limit" || failure.kind === "server" || failure.kind === "network" || failure.kind === "dropped";
          if (!retryable || request.config.signal?.aborted) throw err;
          // Out of attempts: a provider that answered before is not an unreachable one.
          if (attempt >= maxAttempts) throw failure.kind === "network" && dropped !== undefined ? dropped : err;
          const backoff = Math.min(cap, base * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4));
          const waitMs = Math.min(cap, failure.retryAfterMs ?? backoff);
          request.config.writer?.({
            type: RETRY_EVENT,
            attempt,
            maxAttempts,
            waitMs: Math.round(waitMs),
            kind: failure.kind,
            status: failure.status,
          });
          await sleep(waitMs, request.config.signal);
        }
      }
    },
  };
}
