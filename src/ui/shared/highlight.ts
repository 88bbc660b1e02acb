/**
 * Lazy syntax highlighting. highlight.js (core) and each grammar are loaded
 * with dynamic `import()` on first use, so none of it is in the page's
 * initial bundle; each lands in its own small chunk.
 *
 * Output is always sanitized HTML: highlight.js escapes the code itself and
 * emits `<span class="hljs-…">` only, and the result still goes through
 * DOMPurify (text and `<span class>` only). Unknown languages, and code too
 * big to highlight quickly, come back as escaped plain text.
 */
import type { HLJSApi, LanguageFn } from "highlight.js";
import { escapeHtml } from "./escape.ts";
import { sanitizeHighlightHtml } from "./sanitize.ts";

type Loader = () => Promise<{ default: LanguageFn }>;

/** Grammar loaders by highlight.js name; each literal import() becomes its own chunk. */
const GRAMMARS: Record<string, Loader> = {
  javascript: () => import("highlight.js/lib/languages/javascript"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  python: () => import("highlight.js/lib/languages/python"),
  bash: () => import("highlight.js/lib/languages/bash"),
  shell: () => import("highlight.js/lib/languages/shell"),
  json: () => import("highlight.js/lib/languages/json"),
  xml: () => import("highlight.js/lib/languages/xml"),
  css: () => import("highlight.js/lib/languages/css"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  diff: () => import("highlight.js/lib/languages/diff"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
  rust: () => import("highlight.js/lib/languages/rust"),
  go: () => import("highlight.js/lib/languages/go"),
  java: () => import("highlight.js/lib/languages/java"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  sql: () => import("highlight.js/lib/languages/sql"),
};

/** Fence names and file extensions to a grammar name. */
const ALIASES: Record<string, string> = {
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  py: "python",
  python3: "python",
  sh: "bash",
  zsh: "bash",
  ksh: "bash",
  console: "shell",
  "shell-session": "shell",
  shellsession: "shell",
  jsonc: "json",
  json5: "json",
  html: "xml",
  htm: "xml",
  xhtml: "xml",
  svg: "xml",
  md: "markdown",
  patch: "diff",
  yml: "yaml",
  rs: "rust",
  golang: "go",
  h: "c",
  "c++": "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  hxx: "cpp",
};

/** Above this many characters code is shown plain: highlighting it would stall the page. */
const MAX_HIGHLIGHT_CHARS = 200_000;

/** The grammar for a fence name or file extension ("TS", "tsx", "c++" …), or undefined. */
export function resolveLanguage(lang: string | undefined): string | undefined {
  const key = (lang ?? "").trim().toLowerCase();
  if (!key) return undefined;
  if (Object.hasOwn(GRAMMARS, key)) return key;
  return Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
}

/** The grammar for a file path, by its extension (`src/a.ts` → "typescript"), or undefined. */
export function languageForPath(path: string): string | undefined {
  const name = path.split("/").pop() ?? "";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? resolveLanguage(name.slice(dot + 1)) : undefined;
}

let core: Promise<HLJSApi> | undefined;
const registered = new Map<string, Promise<boolean>>();

function loadCore(): Promise<HLJSApi> {
  core ??= import("highlight.js/lib/core").then((m) => m.default);
  return core;
}

/** Loads core and the grammar once; false when it cannot be loaded. */
function ensureGrammar(name: string): Promise<boolean> {
  let ready = registered.get(name);
  if (!ready) {
    const load = GRAMMARS[name];
    ready = load
      ? Promise.all([loadCore(), load()]).then(
          ([hljs, grammar]) => {
            if (!hljs.getLanguage(name)) hljs.registerLanguage(name, grammar.default);
            return true;
          },
          () => false,
        )
      : Promise.resolve(false);
    registered.set(name, ready);
  }
  return ready;
}

/** Whether highlight.js core has been requested yet (for tests of laziness). */
export function highlighterRequested(): boolean {
  return core !== undefined;
}

const CACHE_LIMIT = 200;
const CACHE_MAX_CHARS = 50_000;
const cache = new Map<string, string>();

function remember(key: string, html: string): void {
  if (key.length > CACHE_MAX_CHARS) return;
  cache.set(key, html);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
}

/**
 * Highlighted, sanitized HTML of `code` (to put inside a `<code>`), or the
 * escaped code when the language is unknown, fails to load or the code is
 * larger than {@link MAX_HIGHLIGHT_CHARS}.
 */
export async function renderHighlighted(code: string, lang: string | undefined): Promise<string> {
  const name = resolveLanguage(lang);
  if (!name || code.length > MAX_HIGHLIGHT_CHARS) return escapeHtml(code);
  const key = `${name}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (!(await ensureGrammar(name))) return escapeHtml(code);
  const hljs = await loadCore();
  let html: string;
  try {
    html = sanitizeHighlightHtml(hljs.highlight(code, { language: name, ignoreIllegals: true }).value);
  } catch {
    html = escapeHtml(code);
  }
  remember(key, html);
  return html;
}

const TOKEN = /<span class="([^"]*)">|<\/span>|\n/g;

/**
 * Splits highlighted HTML (text and `<span class>` only) into one balanced
 * fragment per line: spans open across a line break are closed at its end
 * and reopened on the next line.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = "";
  let last = 0;
  for (const m of html.matchAll(TOKEN)) {
    line += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === "\n") {
      lines.push(line + "</span>".repeat(open.length));
      line = open.map((cls) => `<span class="${cls}">`).join("");
    } else if (m[0] === "</span>") {
      if (open.pop() !== undefined) line += m[0];
    } else {
      open.push(m[1] ?? "");
      line += m[0];
    }
  }
  lines.push(line + html.slice(last) + "</span>".repeat(open.length));
  return lines;
}

/** Highlighted, sanitized HTML per line of `lines` (highlighted together, so multi-line tokens stay right). */
export async function renderHighlightedLines(lines: readonly string[], lang: string | undefined): Promise<string[]> {
  if (!resolveLanguage(lang)) return lines.map(escapeHtml);
  const out = splitHighlightedLines(await renderHighlighted(lines.join("\n"), lang));
  // Should never differ; if it does, fall back to plain lines rather than misnumber them.
  return out.length === lines.length ? out : lines.map(escapeHtml);
}
