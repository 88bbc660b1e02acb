/**
 * HTML to Markdown for `fetch_url`, with maintained libraries that run where the agent does, a worker included:
 * `linkedom` parses the HTML into a DOM (a worker has no DOMParser, and turndown's own browser build needs one;
 * linkedom is plain JavaScript over htmlparser2, so the same code runs in a worker, a page and Node),
 * `@mozilla/readability` (Firefox's Reader View) picks the article out of the page where there is one, and
 * `turndown` writes the Markdown from the DOM node it is handed (so it never parses HTML itself). Loaded on demand:
 * the worker starts without it; in a browser it runs on a worker of its own (html-markdown-thread.ts).
 *
 * Nesting: Readability's scoring walks every element's ancestors and text (a page nested 1,000 deep took 24 s, 2,000
 * deep over 5 minutes) and turndown recurses once per level (`RangeError: Maximum call stack size exceeded` at
 * 10,000). So elements deeper than {@link MAX_DEPTH} are unwrapped before either sees the page: their text stays, in
 * order, with a line break after each block; only their formatting is lost. No real page comes near (Chromium's own
 * parser stops nesting at 512). A stack overflow that still happens falls back to the page's text.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** What a page becomes: its title (when it has one) and its content as Markdown. */
export interface PageMarkdown {
  title: string;
  markdown: string;
}

/** Elements that carry no readable text. */
const DROPPED = "script, style, noscript, template, iframe, object, embed, svg, canvas, link, meta";

/** Readability's article is used when it holds at least this share of the page's text (else the page is kept whole). */
const ARTICLE_SHARE = 0.25;

/** Levels of elements kept below `<html>`; deeper ones are unwrapped into the element at this depth. */
export const MAX_DEPTH = 128;

/** Elements after whose unwrapped content a line break is kept, so their text does not run together. */
const BLOCKS = new Set([
  ..."address article aside blockquote dd details div dl dt fieldset figcaption figure footer form header hr".split(" "),
  ..."h1 h2 h3 h4 h5 h6 li main nav ol p pre section table tbody td tfoot th thead tr ul".split(" "),
]);

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  service.remove(["script", "style", "noscript", "template", "iframe"]);
  return service;
}

type LinkedDocument = ReturnType<typeof parseHTML>["document"];

/** Links and images made absolute against the page's URL; `javascript:` and other non-web links lose their target. */
function absolutize(document: LinkedDocument, base: string): void {
  for (const [selector, attr] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const value = el.getAttribute(attr) ?? "";
      let url: URL | undefined;
      try {
        url = new URL(value, base);
      } catch {
        url = undefined;
      }
      if (url && /^(https?|mailto):$/.test(url.protocol)) el.setAttribute(attr, url.href);
      else el.removeAttribute(attr);
    }
  }
}

/** Unwraps every element below `maxDepth` (walked without recursion), keeping its children in place. */
function flattenDeep(document: LinkedDocument, maxDepth = MAX_DEPTH): void {
  const root = document.documentElement;
  if (!root) return;
  const stack: [Element, number][] = [[root as unknown as Element, 0]];
  while (stack.length) {
    const [el, depth] = stack.pop()!;
    if (depth < maxDepth) {
      for (let child = el.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
      continue;
    }
    // Document order: an element is unwrapped before its children, which then sit directly in `el`.
    for (const inner of Array.from(el.querySelectorAll("*"))) {
      const after = BLOCKS.has(inner.localName) ? [document.createElement("br") as unknown as Node] : [];
      inner.replaceWith(...Array.from(inner.childNodes), ...after);
    }
  }
}

/** The text of `node`, whitespace folded per line (what is left when Markdown cannot be written). */
function plainText(node: { textContent: string | null } | null | undefined): string {
  return (node?.textContent ?? "")
    .split(/\n+/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join("\n\n");
}

function textLength(html: string | null | undefined, document: LinkedDocument): number {
  if (!html) return 0;
  const holder = document.createElement("div");
  holder.innerHTML = html;
  return (holder.textContent ?? "").replace(/\s+/g, " ").trim().length;
}

/** The page at `url` (its HTML in `html`) as Markdown: the article where Readability finds one, else the whole body. */
export function htmlToMarkdown(html: string, url: string): PageMarkdown {
  // linkedom builds <html><body> only from markup that has them (a fragment, or a page cut at the size limit before
  // its <body>, would otherwise leave an empty body).
  const { document } = parseHTML(/<body[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  for (const el of document.querySelectorAll(DROPPED)) el.remove();
  flattenDeep(document);
  absolutize(document, url);
  const title = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  const body = document.body ?? document.documentElement;
  const whole = (body?.textContent ?? "").replace(/\s+/g, " ").trim().length;
  let article: ReturnType<Readability["parse"]>;
  try {
    // Readability changes the document it reads: it gets a copy.
    article = new Readability(document.cloneNode(true) as unknown as Document, { keepClasses: false }).parse();
  } catch {
    article = null;
  }
  const source = article?.content && textLength(article.content, document) >= whole * ARTICLE_SHARE ? article.content : undefined;
  let node: unknown = body;
  if (source) {
    const holder = document.createElement("div");
    holder.innerHTML = source;
    node = holder;
  }
  let markdown: string;
  try {
    markdown = node ? turndown().turndown(node as HTMLElement) : "";
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause;
    markdown = plainText(node as { textContent: string | null });
  }
  return { title: article?.title?.trim() || title, markdown: markdown.replace(/\n{3,}/g, "\n\n").trim() };
}
