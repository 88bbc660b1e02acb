/**
 * Fetching an agent from a link (`?agent=<url>`): the request goes through the request log's fetch (so the person
 * sees it), without credentials, and the download stops at MAX_AGENT_ARCHIVE_BYTES whether or not the server says
 * its length. What comes back is sniffed: a zip (`PK`) or a JSON bundle (`{`). Failures are coded values whose
 * messages say what to do, a blocked cross-origin read naming CORS.
 */
import { withoutInvisible } from "../../agent-folders/invisible.ts";
import { mib } from "../../agent-folders/file-map.ts";
import { MAX_AGENT_ARCHIVE_BYTES } from "../../agent-folders/limits.ts";
import { ok } from "../../core/result.ts";
import { agentFail } from "./agent-review.ts";
import type { AgentResult } from "../../protocol/errors.ts";

/** What a link's bytes are: a zip of the folder or its JSON bundle; undefined when neither. */
export function sniffAgent(bytes: Uint8Array): { zip: Uint8Array } | { bundle: Uint8Array } | undefined {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6))
    return { zip: bytes };
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x7b ? { bundle: bytes } : undefined;
}

/**
 * A URL path segment decoded; a run of escapes that is not UTF-8 (`%E2` alone) is kept as written, the runs around
 * it decoded, so a link with a malformed escape still gives a name.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The name an agent from this URL goes by when agent.yaml gives none: the file's name without `.zip`/`.json`. */
export function linkName(url: string): string {
  // Invisible and direction-changing characters (%E2%80%AE) go: the gallery would show a name that reads otherwise.
  const last = withoutInvisible(decodeSegment(new URL(url).pathname.split("/").filter(Boolean).pop() ?? "")).trim();
  return last.replace(/\.(zip|json)$/i, "") || new URL(url).hostname;
}

const tooLarge = (size: string) =>
  agentFail<never>(
    "too_large",
    `The agent at this link is ${size}; an agent's zip or bundle may be at most ${mib(MAX_AGENT_ARCHIVE_BYTES)}.`,
  );

/** Reads a body, stopping (and cancelling the download) once it passes `max` bytes. */
async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Downloads a link's agent: its bytes, at most `max` of them. `origin` is the page's, for the message when the host
 * does not allow it to read the answer.
 */
export async function fetchAgentLink(
  url: string,
  fetchImpl: typeof fetch,
  origin: string,
  max = MAX_AGENT_ARCHIVE_BYTES,
): Promise<AgentResult<Uint8Array>> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return agentFail("fetch_failed", `'${url}' is not a link (an agent link is an https:// URL of a .zip or a .json bundle).`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return agentFail("fetch_failed", `An agent link must be an http(s) URL, not ${parsed.protocol}.`);
  }
  let res: Response;
  try {
    res = await fetchImpl(parsed.href, { credentials: "omit", redirect: "follow", cache: "no-store" });
  } catch (cause) {
    if (cause instanceof TypeError) {
      return agentFail(
        "fetch_failed",
        `The agent at ${parsed.href} could not be fetched: ${parsed.host} did not allow this page (${origin}) to read it: ` +
          `the host must send Access-Control-Allow-Origin (CORS) for this page, or the network is down.`,
      );
    }
    return agentFail("fetch_failed", `The agent at ${parsed.href} could not be fetched (${String(cause)}).`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    const text = res.statusText ? ` ${res.statusText}` : "";
    return agentFail(
      "fetch_failed",
      `The agent at ${parsed.href} could not be fetched: ${parsed.host} answered HTTP ${res.status}${text}.`,
    );
  }
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    return tooLarge(mib(declared));
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = res.body ? await readCapped(res.body, max) : new Uint8Array(await res.arrayBuffer());
  } catch (cause) {
    return agentFail("fetch_failed", `The download of ${parsed.href} broke off (${String(cause)}).`);
  }
  if (!bytes || bytes.length > max) return tooLarge(`over ${mib(max)}`);
  return ok(bytes);
}
