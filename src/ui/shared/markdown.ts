/**
 * Model output (Markdown, GFM) to sanitized HTML.
 *
 * Safety, in two layers:
 * 1. The renderer itself never passes markup through: raw HTML in the
 *    markdown (`<script>`, `<img onerror>`, `<iframe>` …) is escaped and shows
 *    as the text the model wrote; images become links (`image: alt`) so that
 *    nothing is fetched from a third-party host just by showing an answer.
 * 2. The result still goes through DOMPurify (see sanitize.ts): an allowlist
 *    of tags and attributes, http(s)/mailto/relative URLs only, and every
 *    link opens in a new tab with `rel="noopener noreferrer"`.
 *
 * Fenced code becomes `<div class="code-block"><pre><code class="language-x">`,
 * ready for lazy highlighting (highlight.ts). Partial text from a stream is
 * fine: an unclosed fence renders as a code block up to the end.
 */
import { Marked, type Tokens } from "marked";
import { escapeHtml } from "./escape.ts";
import { sanitizeMarkdownHtml } from "./sanitize.ts";

/** A fence's info string to a class-safe language name ("" when none). */
export function codeLanguage(info: string | undefined): string {
  const first = (info ?? "").trim().split(/\s+/, 1)[0] ?? "";
  return first
    .toLowerCase()
    .replace(/[^a-z0-9_+#.-]/g, "")
    .slice(0, 32);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html({ text, block }: Tokens.HTML | Tokens.Tag): string {
      return block ? `<p>${escapeHtml(text.trimEnd())}</p>\n` : escapeHtml(text);
    },
    image({ href, text }: Tokens.Image): string {
      const label = `image: ${text || href}`;
      return `<a href="${escapeHtml(href)}" class="image-link">${escapeHtml(label)}</a>`;
    },
    code({ text, lang }: Tokens.Code): string {
      const language = codeLanguage(lang);
      const cls = language ? ` class="language-${language}"` : "";
      return `<div class="code-block"><pre><code${cls}>${escapeHtml(text.replace(/\n$/, ""))}\n</code></pre></div>\n`;
    },
  },
});

/** Markdown to HTML, NOT sanitized (raw HTML escaped, images as links). Exported for tests; use {@link renderMarkdown}. */
export function markdownToHtml(text: string): string {
  try {
    return marked.parse(text, { async: false });
  } catch {
    return `<p>${escapeHtml(text)}</p>`;
  }
}

/** Markdown (GFM) to sanitized HTML, safe for `{@html}`. Browser only (DOMPurify needs a DOM). */
export function renderMarkdown(text: string): string {
  return sanitizeMarkdownHtml(markdownToHtml(text));
}

/** Elements after which the plain text of rendered Markdown breaks the line. */
const BLOCKS = "p,h1,h2,h3,h4,h5,h6,li,pre,blockquote,tr,br,hr,div";

/**
 * Markdown as the words a reader sees, without its syntax (`#`, `**`,
 * fences, link targets): for the live region that announces a finished
 * answer. Rendered and sanitized first, parsed in an inert document (nothing
 * in it runs or loads). Browser only.
 */
export function markdownToText(text: string): string {
  const doc = new DOMParser().parseFromString(renderMarkdown(text), "text/html");
  for (const el of doc.body.querySelectorAll(BLOCKS)) el.append(doc.createTextNode("\n"));
  return (doc.body.textContent ?? "")
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
}
