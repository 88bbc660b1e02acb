/**
 * Where `fetch_url` turns HTML into Markdown: on a Web Worker of its own wherever Workers exist (the app's agent
 * worker, a page), so the agent's thread never blocks on a page (a flat 2 MB page takes seconds) and Stop ends a
 * conversion at once: the run's abort signal terminates the worker, as does {@link CONVERT_TIME_LIMIT_MS}. One idle
 * worker is kept for the next page; a terminated one is replaced when next needed. Where there are no Workers (Node:
 * the library's tests and scripts) the conversion runs in-process, as a plain function call that neither Stop nor
 * the time limit can interrupt.
 */
import type { ErrorInfo } from "../core/errors.ts";
import { err, ok, type Result } from "../core/result.ts";
import type { PageMarkdown } from "./html-markdown.ts";

/**
 * How long one conversion may take, ms: 15 s. A flat 1.95 MB page (fetch_url reads 2 MiB at most) took 4.9 s in
 * Chromium on a loaded 2-core machine, so a device three times slower still fits; a page that takes longer is
 * pathological, and the person waits no more than half of fetch_url's own 30 s default for the request.
 */
const CONVERT_TIME_LIMIT_MS = 15_000;

/**
 * What went wrong:
 * - `timeout`: the conversion took longer than its limit, and was ended;
 * - `aborted`: the run was stopped;
 * - `failed`: the converter threw, or its worker died (out of memory).
 */
export type ConvertErrorCode = "timeout" | "aborted" | "failed";
export type ConvertError = ErrorInfo & { code: ConvertErrorCode };

/** Caller → worker. */
export interface ToHtmlThread {
  id: number;
  html: string;
  url: string;
}
/** Worker → caller. */
export type FromHtmlThread = { id: number; ok: true; page: PageMarkdown } | { id: number; ok: false; message: string };

export interface ConvertOptions {
  signal?: AbortSignal | undefined;
  /** Default {@link CONVERT_TIME_LIMIT_MS}. */
  timeLimitMs?: number;
}

function fail(code: ConvertErrorCode, message: string): Result<never, ConvertError> {
  return err({ name: "ConvertError", code, message });
}

let idle: Worker | undefined;
let nextId = 1;

function spawn(): Worker {
  return new Worker(new URL("./html-markdown.worker.ts", import.meta.url), { type: "module", name: "deeptab-html" });
}

function stopped(): Result<never, ConvertError> {
  return fail("aborted", "The run was stopped while the page was being converted to Markdown.");
}

/** The page at `url` (its HTML in `html`) as Markdown, off the caller's thread where Workers exist. Never throws. */
export async function convertHtml(html: string, url: string, options: ConvertOptions = {}): Promise<Result<PageMarkdown, ConvertError>> {
  const { signal } = options;
  if (signal?.aborted) return stopped();
  if (typeof Worker !== "function") {
    const { htmlToMarkdown } = await import("./html-markdown.ts");
    try {
      return ok(htmlToMarkdown(html, url));
    } catch (cause) {
      return fail("failed", `The page could not be converted to Markdown (${cause instanceof Error ? cause.message : String(cause)}).`);
    }
  }
  const limit = options.timeLimitMs ?? CONVERT_TIME_LIMIT_MS;
  const worker = idle ?? spawn();
  idle = undefined;
  const id = nextId++;
  return new Promise((resolve) => {
    const finish = (result: Result<PageMarkdown, ConvertError>, keep: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      if (keep && !idle) idle = worker;
      else worker.terminate();
      resolve(result);
    };
    const onAbort = () => finish(stopped(), false);
    const timer = setTimeout(
      () =>
        finish(
          fail(
            "timeout",
            `Converting ${url} to Markdown took longer than ${limit / 1000} s (${html.length.toLocaleString("en")} characters of HTML), ` +
              "so it was stopped. Try a smaller page: a section's own URL, a print or plain-text version, or the site's API or raw file.",
          ),
          false,
        ),
      limit,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<FromHtmlThread>) => {
      const reply = event.data;
      if (reply.id !== id) return;
      if (reply.ok) finish(ok(reply.page), true);
      else finish(fail("failed", `The page could not be converted to Markdown (${reply.message}).`), true);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      finish(
        fail("failed", `The page could not be converted to Markdown (its worker stopped: ${event.message || "out of memory?"}).`),
        false,
      );
    };
    worker.postMessage({ id, html, url } satisfies ToHtmlThread);
  });
}
