/**
 * Fetching one web page for `fetch_url`, from wherever the agent runs (a worker, a page, Node), through the fetch it
 * is given (the app's request log, so every host contacted is listed): no cookies or credentials
 * (`credentials: "omit"`), redirects followed within {@link MAX_REDIRECTS} (a loop is named as one), the body read as
 * a stream and cut at `maxBytes` (a 50 MB page is never held whole), binary types refused before their body is read,
 * and every failure a coded value with a message the model can act on. Where a host does not allow a page to read
 * it (CORS), the message says so and points at an MCP server: there is no proxy, ever.
 */
import type { ErrorInfo } from "../core/errors.ts";
import { err, ok, type Result } from "../core/result.ts";

/** Redirects followed before giving up (browsers stop at 20; Python's requests at 30). */
export const MAX_REDIRECTS = 10;
/** Bytes of a body read at most (2 MiB: the Markdown of a page this size takes seconds in the tab); the rest is not downloaded. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/**
 * What went wrong:
 * - `invalid_url`: not an http(s) URL;
 * - `cors`: the host answered, but does not allow this page to read its answers;
 * - `unreachable`: nothing answered (in a browser: or CORS refused, where the two cannot be told apart);
 * - `redirect_loop` / `too_many_redirects`: the redirects came back to a URL already visited / went on too long;
 * - `redirect_host`: the page redirects to another host (loopback and private addresses included), which is not
 *   followed: the message names the new URL, for a call of its own (asked about, like any call);
 * - `http_status`: the host answered 4xx or 5xx;
 * - `binary`: the answer is not text (an image, a PDF, an archive…);
 * - `timeout`: no whole answer within the time given;
 * - `aborted`: the run was stopped.
 */
export type FetchPageErrorCode =
  | "invalid_url"
  | "cors"
  | "unreachable"
  | "redirect_loop"
  | "too_many_redirects"
  | "redirect_host"
  | "http_status"
  | "binary"
  | "timeout"
  | "aborted";

export type FetchPageError = ErrorInfo & { code: FetchPageErrorCode };

/** A page as read: its final URL, status, media type, the text read and whether it was cut at the size limit. */
export interface FetchedPage {
  url: string;
  status: number;
  /** The media type without parameters, lower case (`text/html`); empty when the host sent none. */
  mediaType: string;
  text: string;
  /** Bytes read (at most the limit). */
  bytes: number;
  /** The body went on past the limit and was not read further. */
  truncated: boolean;
}

export interface FetchPageOptions {
  fetch?: typeof fetch;
  /** Whole-request time limit, ms. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal | undefined;
}

function fail(code: FetchPageErrorCode, message: string, status?: number): Result<never, FetchPageError> {
  return err({ name: "FetchPageError", code, message, ...(status === undefined ? {} : { status }) });
}

/** Whether this runs where CORS applies (a page or a worker have a location; Node has none). */
function inBrowser(): boolean {
  return typeof (globalThis as { location?: unknown }).location === "object";
}

function pageOrigin(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== "null" ? origin : "this page";
}

/** The advice every CORS-shaped failure ends with. */
const NO_PROXY =
  "deeptab runs in the browser and has no proxy: to read this page, use an MCP server that fetches pages " +
  "(Settings → MCP servers), or ask the user to paste its content.";

/** Media types read as text besides `text/*`. */
const TEXT_TYPES = [
  /^application\/(json|xml|xhtml\+xml|javascript|ecmascript|x-javascript|x-yaml|yaml|toml|x-ndjson|ndjson|x-sh|sql|graphql)$/,
  /^application\/[\w.+-]+\+(json|xml)$/,
  /^image\/svg\+xml$/,
];

/** Whether a media type is read as text; an empty one is decided by the bytes. */
function isTextType(mediaType: string): boolean {
  return mediaType === "" || mediaType.startsWith("text/") || TEXT_TYPES.some((r) => r.test(mediaType));
}

function mediaTypeOf(response: Response): { mediaType: string; charset: string | undefined } {
  const header = response.headers.get("content-type") ?? "";
  const [type = "", ...params] = header.split(";");
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find((c): c is string => Boolean(c));
  return { mediaType: type.trim().toLowerCase(), charset };
}

function decoder(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/** Reads at most `max` bytes of the body as a stream, then cancels the rest. */
async function readCapped(response: Response, max: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > max) {
      chunks.push(value.subarray(0, max - size));
      size = max;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, truncated };
}

/** NUL bytes in the first KiB: not text, whatever the host said (or did not say). */
function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 1024).includes(0);
}

/** Whether anything answers at `url`: an opaque no-cors request succeeds where CORS alone blocked the real one. */
async function answers(url: string, fetchImpl: typeof fetch, signal: AbortSignal): Promise<boolean> {
  try {
    await fetchImpl(url, { mode: "no-cors", credentials: "omit", signal: AbortSignal.any([signal, AbortSignal.timeout(5_000)]) });
    return true;
  } catch {
    return false;
  }
}

function hostOf(url: string): string {
  return new URL(url).host;
}

/**
 * A redirect from `from` to another host (`to`): refused, naming the new URL. The person approved a fetch of `from`;
 * a redirect must not carry the request to a host they were not asked about (another site, or loopback and private
 * addresses: the tab's own machine and network). `host` compares name and port (a default port counts as none, so
 * http → https on the same name is followed).
 */
function otherHost(from: string, to: string, status: number): Result<never, FetchPageError> {
  return fail(
    "redirect_host",
    `${from} redirects to another host: ${to}. fetch_url does not follow a redirect to another host by itself; to read ` +
      `that page, call fetch_url with url ${to}.`,
    status,
  );
}

/** A thrown fetch failure as a coded error (timeouts and stops first; then CORS where a browser hides it). */
async function networkFailure(
  cause: unknown,
  url: string,
  fetchImpl: typeof fetch,
  signals: { run?: AbortSignal | undefined; timeout: AbortSignal; timeoutMs: number },
  afterRedirect: boolean,
): Promise<Result<never, FetchPageError>> {
  if (signals.run?.aborted) return fail("aborted", "The run was stopped before the page was read.");
  if (signals.timeout.aborted)
    return fail("timeout", `${url} did not answer within ${Math.round(signals.timeoutMs / 1000)} s. Try again, or try another page.`);
  const host = hostOf(url);
  if (!inBrowser()) {
    const detail = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    return fail("unreachable", `${host} could not be reached (${detail.slice(0, 200)}): the host is down or the URL is wrong.`);
  }
  if (afterRedirect)
    return fail(
      "unreachable",
      `${url} redirected, and the browser could not follow: a redirect loop, too many redirects, or a host on the way ` +
        `that blocks browser requests (CORS). ${NO_PROXY}`,
    );
  if (await answers(url, fetchImpl, signals.timeout))
    return fail(
      "cors",
      `${host} blocks browser requests: it does not send Access-Control-Allow-Origin for ${pageOrigin()}, so the tab ` +
        `may not read ${url}. ${NO_PROXY}`,
    );
  return fail(
    "unreachable",
    `${host} could not be reached from the browser: the host is down, the URL is wrong, or it blocks browser ` +
      `requests (CORS; a browser cannot tell these apart). ${NO_PROXY}`,
  );
}

/**
 * Fetches `url` (GET, no credentials) and reads its body as text. Redirects are followed by hand where the answer
 * shows them (Node), so each hop goes through `fetch` (and the request log), a loop is caught at its first repeat,
 * the count is bounded and a hop to another host is refused before it is made; a browser hides a redirect's target
 * (`opaqueredirect`), so there the request is made again letting the browser follow (it stops at 20), and an answer
 * from another host than `url`'s is refused unread. Never throws.
 */
export async function fetchPage(url: string, options: FetchPageOptions = {}): Promise<Result<FetchedPage, FetchPageError>> {
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return fail("invalid_url", `'${url.slice(0, 200)}' is not a URL: give a full http:// or https:// URL.`);
  }
  if (current.protocol !== "http:" && current.protocol !== "https:")
    return fail("invalid_url", `fetch_url reads http:// and https:// URLs only, not ${current.protocol}`);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const signals = { run: options.signal, timeout, timeoutMs };
  const seen = new Set<string>([current.href]);
  const first = current.host;
  const headers = { Accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5" };
  let response: Response;
  for (let hops = 0; ; hops++) {
    try {
      response = await fetchImpl(current.href, { credentials: "omit", redirect: "manual", headers, signal });
    } catch (cause) {
      return networkFailure(cause, current.href, fetchImpl, signals, false);
    }
    if (response.type === "opaqueredirect") {
      // A browser: the target is hidden from us; let the browser follow (its own limit, 20), with the same checks.
      try {
        response = await fetchImpl(current.href, { credentials: "omit", redirect: "follow", headers, signal });
      } catch (cause) {
        return networkFailure(cause, current.href, fetchImpl, signals, true);
      }
      // The browser has followed already (the request to the other host is made, without credentials); its answer is
      // not read.
      if (response.url && hostOf(response.url) !== first) {
        await response.body?.cancel().catch(() => undefined);
        return otherHost(url, response.url, response.status);
      }
      break;
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    if (!location) break;
    await response.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return fail("unreachable", `${current.href} redirected to '${location.slice(0, 200)}', which is not a URL.`, response.status);
    }
    if (next.protocol !== "http:" && next.protocol !== "https:")
      return fail("invalid_url", `${current.href} redirected to a ${next.protocol} URL, which fetch_url does not read.`);
    if (next.host !== first) return otherHost(current.href, next.href, response.status);
    if (seen.has(next.href))
      return fail(
        "redirect_loop",
        `${url} redirects in a loop (${current.href} → ${next.href}, visited before); the page cannot be read.`,
        response.status,
      );
    if (hops + 1 > maxRedirects)
      return fail("too_many_redirects", `${url} redirected more than ${maxRedirects} times; the page cannot be read.`, response.status);
    seen.add(next.href);
    current = next;
  }
  const finalUrl = response.url || current.href;
  if (response.status >= 400) {
    await response.body?.cancel().catch(() => undefined);
    const text = response.statusText ? ` ${response.statusText}` : "";
    return fail("http_status", `${finalUrl} answered HTTP ${response.status}${text}.`, response.status);
  }
  const { mediaType, charset } = mediaTypeOf(response);
  if (!isTextType(mediaType)) {
    await response.body?.cancel().catch(() => undefined);
    return fail("binary", `${finalUrl} is ${mediaType}, not text: fetch_url reads HTML, text, Markdown and JSON only.`, response.status);
  }
  let body: { bytes: Uint8Array; truncated: boolean };
  try {
    body = await readCapped(response, maxBytes);
  } catch (cause) {
    if (options.signal?.aborted) return fail("aborted", "The run was stopped before the page was read.");
    if (timeout.aborted) return fail("timeout", `${finalUrl} did not send the whole page within ${Math.round(timeoutMs / 1000)} s.`);
    return fail("unreachable", `The download of ${finalUrl} broke off (${cause instanceof Error ? cause.message : String(cause)}).`);
  }
  if (looksBinary(body.bytes))
    return fail("binary", `${finalUrl} is binary data${mediaType ? ` (sent as ${mediaType})` : ""}, not text.`, response.status);
  return ok({
    url: finalUrl,
    status: response.status,
    mediaType,
    text: decoder(charset).decode(body.bytes),
    bytes: body.bytes.length,
    truncated: body.truncated,
  });
}
