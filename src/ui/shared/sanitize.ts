/**
 * The UI's own DOMPurify instance (not the shared default export, so its
 * hooks and settings never touch other DOMPurify users), and the two
 * sanitizer profiles the UI needs: rendered markdown and highlighted code.
 * Browser only: DOMPurify needs a DOM.
 */
import DOMPurify, { type Config, type DOMPurify as Purifier } from "dompurify";

/** Tags rendered markdown may contain. No media, forms, frames, SVG/MathML, styles or scripts. */
const MARKDOWN_TAGS = [
  "a",
  "b",
  "blockquote",
  "br",
  "code",
  "del",
  "div",
  "em",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "input",
  "kbd",
  "li",
  "ol",
  "p",
  "pre",
  "s",
  "span",
  "strong",
  "sub",
  "sup",
  "table",
  "tbody",
  "td",
  "th",
  "thead",
  "tr",
  "ul",
];

/**
 * Link targets allowed on `href`: http(s), mailto, and scheme-less (relative
 * or fragment) URLs. Everything else — javascript:, data:, vbscript:, blob:,
 * file: … — is dropped. DOMPurify strips whitespace and control characters
 * before testing, so `java\tscript:` does not slip through.
 */
const SAFE_URL = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const MARKDOWN_CONFIG: Config = {
  ALLOWED_TAGS: MARKDOWN_TAGS,
  ALLOWED_ATTR: ["href", "title", "class", "type", "checked", "disabled", "align", "start"],
  ALLOWED_URI_REGEXP: SAFE_URL,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SANITIZE_DOM: true,
};

/** Highlighted code is text and `<span class>` only. */
const HIGHLIGHT_CONFIG: Config = { ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"], ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false };

let instance: Purifier | undefined;

/** The private instance, made on first use with its hooks installed exactly once. */
function purifier(): Purifier {
  if (instance) return instance;
  const purify = DOMPurify(window);
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName === "A") {
      // Every link opens a new browsing context that cannot reach back to this page.
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    } else if (node.nodeName === "INPUT") {
      // Only GFM task-list checkboxes survive, and they are display-only.
      if (node.getAttribute("type") !== "checkbox") node.remove();
      else node.setAttribute("disabled", "");
    }
  });
  instance = purify;
  return purify;
}

/** Sanitized HTML of rendered markdown: the markdown allowlist, safe links that open in a new tab. */
export function sanitizeMarkdownHtml(html: string): string {
  return purifier().sanitize(html, MARKDOWN_CONFIG);
}

/** Sanitized HTML of highlighter output: text and `<span class>` only. */
export function sanitizeHighlightHtml(html: string): string {
  return purifier().sanitize(html, HIGHLIGHT_CONFIG);
}
