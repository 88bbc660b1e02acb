/**
 * The HTML → Markdown conversion's own Web Worker (html-markdown-thread.ts starts it): one page at a time, terminated
 * when the run is stopped or the conversion takes too long, so a large or pathological page never holds the agent's
 * thread.
 */
import { htmlToMarkdown } from "./html-markdown.ts";
import type { FromHtmlThread, ToHtmlThread } from "./html-markdown-thread.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromHtmlThread) => scope.postMessage(message);

scope.onmessage = (event: MessageEvent<ToHtmlThread>) => {
  const { id, html, url } = event.data;
  try {
    post({ id, ok: true, page: htmlToMarkdown(html, url) });
  } catch (cause) {
    post({ id, ok: false, message: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) });
  }
};
