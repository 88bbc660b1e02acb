/**
 * `fetch_url`, deepagents' tool (deepagents-cli tools.py) for the browser: `url` and `timeout` (seconds, default 30)
 * as there, the same result, a JSON object `{ url, markdown_content, status_code, content_length }` (plus the
 * `success` its description promises, `title` and, for a page cut at the size limit, `note`), and deepagents'
 * `{ error: "Fetch URL error: …", url }` on failure, as an error result. HTML becomes Markdown (html-markdown.ts, on a
 * worker of its own that Stop and a time limit end: html-markdown-thread.ts); text, Markdown and JSON come as they
 * are; binary types are refused. The request (fetch-page.ts) goes through the fetch the tool is given, in the app the
 * request log's. A page whose Markdown is over the offload limit is saved whole under
 * /large_tool_results/ as Markdown (readable by lines with read_file) and the result carries eviction's stub with
 * its head and tail: offloading the JSON instead would leave one line of escaped text.
 */
import { isBackendError } from "../backends/protocol.ts";
import { ok, type Result } from "../core/result.ts";
import type { AgentTool, ToolOutput, ToolRuntime } from "../harness/types.ts";
import { CHARS_PER_TOKEN, largeResultPath, saveWithStub, TOOL_RESULT_TOKEN_LIMIT } from "../middleware/eviction.ts";
import { fetchPage, MAX_PAGE_BYTES, MAX_REDIRECTS, type FetchedPage } from "./fetch-page.ts";
import { convertHtml, type ConvertError } from "./html-markdown-thread.ts";
import { TOOL } from "../core/tool-names.ts";

export const FETCH_URL_TOOL_NAME = TOOL.fetch_url;
/** Characters a result may have before eviction offloads it (deepagents' 20,000 tokens). */
const RESULT_CHARS = TOOL_RESULT_TOKEN_LIMIT * CHARS_PER_TOKEN;
/** Default and bounds of `timeout`, seconds. */
export const FETCH_URL_TIMEOUT = { default: 30, min: 1, max: 120 } as const;

/** deepagents' description, with what differs in a browser. */
export const FETCH_URL_DESCRIPTION = [
  "Fetch content from a URL and convert HTML to markdown format.",
  "",
  "This tool fetches web page content and converts it to clean markdown text, making it easy to read and process HTML " +
    "content. After receiving the markdown, you MUST synthesize the information into a natural, helpful response for the user.",
  "",
  "Args:",
  "    url: The URL to fetch (must be a valid HTTP/HTTPS URL)",
  "    timeout: Request timeout in seconds (default: 30)",
  "",
  "Returns:",
  "    Dictionary containing:",
  "    - success: Whether the request succeeded",
  "    - url: The final URL after redirects",
  "    - markdown_content: The page content converted to markdown",
  "    - status_code: HTTP status code",
  "    - content_length: Length of the markdown content in characters",
  "",
  "IMPORTANT: After using this tool:",
  "1. Read through the markdown content",
  "2. Extract relevant information that answers the user's question",
  "3. Synthesize this into a clear, natural language response",
  "4. NEVER show the raw markdown to the user unless specifically requested",
  "",
  "The request is made from the user's browser without cookies: hosts that do not allow browser requests (CORS) cannot " +
    "be read. Text, Markdown and JSON are returned as they are; binary files (images, PDFs, archives) are refused; pages " +
    `over ${MAX_PAGE_BYTES / 1024 / 1024} MB are cut.`,
].join("\n");

export interface FetchUrlToolOptions {
  /** The fetch requests go through (the app's request log); default: the global fetch. */
  fetch?: typeof fetch;
  /** Bytes read of a page at most; default {@link MAX_PAGE_BYTES}. */
  maxBytes?: number;
  maxRedirects?: number;
}

/** What a successful call answers: deepagents' fields, then ours. */
interface FetchUrlResult {
  success: true;
  url: string;
  markdown_content: string;
  status_code: number;
  content_length: number;
  title?: string;
  note?: string;
}

function errorOutput(url: unknown, message: string): ToolOutput {
  return { content: JSON.stringify({ success: false, error: `Fetch URL error: ${message}`, url }, null, 2), status: "error" };
}

/** The page's text: HTML as Markdown (on the conversion's own worker where there is one), anything else as it is. */
async function pageText(
  page: FetchedPage,
  signal: AbortSignal | undefined,
): Promise<Result<{ text: string; title?: string }, ConvertError>> {
  const html = page.mediaType === "text/html" || page.mediaType === "application/xhtml+xml";
  const sniffed = page.mediaType === "" && /^\s*(<!doctype html|<html[\s>])/i.test(page.text.slice(0, 1_000));
  if (!html && !sniffed) return ok({ text: page.text });
  const converted = await convertHtml(page.text, page.url, { signal });
  if (!converted.ok) return converted;
  return ok({ text: converted.value.markdown, ...(converted.value.title ? { title: converted.value.title } : {}) });
}

/** The Markdown itself when it fits in a result; else saved whole and replaced by eviction's stub. */
async function offloaded(text: string, runtime: ToolRuntime): Promise<string> {
  if (text.length <= RESULT_CHARS - 2_000) return text;
  const path = `${largeResultPath(runtime.toolCall.id)}.md`;
  const stub = await saveWithStub(runtime.backend, runtime.toolCall.id, path, text, RESULT_CHARS - 4_000);
  return isBackendError(stub) ? text : stub;
}

/** The `fetch_url` tool. */
export function createFetchUrlTool(options: FetchUrlToolOptions = {}): AgentTool {
  return {
    name: FETCH_URL_TOOL_NAME,
    description: FETCH_URL_DESCRIPTION,
    schema: {
      type: "object",
      properties: {
        url: { type: "string", description: "The URL to fetch (must be a valid HTTP/HTTPS URL)" },
        timeout: {
          type: "integer",
          description: `Request timeout in seconds (default: ${FETCH_URL_TIMEOUT.default})`,
          default: FETCH_URL_TIMEOUT.default,
        },
      },
      required: ["url"],
      additionalProperties: false,
    },
    async run(args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
      const url = String(args.url ?? "").trim();
      const asked = typeof args.timeout === "number" ? args.timeout : FETCH_URL_TIMEOUT.default;
      const seconds = Math.min(FETCH_URL_TIMEOUT.max, Math.max(FETCH_URL_TIMEOUT.min, asked));
      const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES;
      const page = await fetchPage(url, {
        timeoutMs: seconds * 1000,
        maxBytes,
        maxRedirects: options.maxRedirects ?? MAX_REDIRECTS,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        signal: runtime.config.signal,
      });
      if (!page.ok) return errorOutput(url, page.error.message);
      const read = await pageText(page.value, runtime.config.signal);
      if (!read.ok) return errorOutput(url, read.error.message);
      const { text, title } = read.value;
      const result: FetchUrlResult = {
        success: true,
        url: page.value.url,
        markdown_content: await offloaded(text, runtime),
        status_code: page.value.status,
        content_length: text.length,
        ...(title ? { title } : {}),
        ...(page.value.truncated
          ? {
              note: `The page is larger than ${maxBytes.toLocaleString("en")} bytes: only its beginning was read.`,
            }
          : {}),
      };
      return JSON.stringify(result, null, 2);
    },
  };
}
