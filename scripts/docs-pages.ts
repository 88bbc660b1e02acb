/**
 * What the manual's pages (README.md, CONTRIBUTING.md, docs/*.md) say, read by parsing: Markdown through `marked`'s
 * lexer (links, headings, code spans and code blocks), code through TypeScript's parser (the names a code span or a
 * code block uses, the names `src/index.ts` exports). docs-pages.test.ts checks the pages against the repository.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { marked, type Token, type Tokens } from "marked";
import ts from "typescript";

/** The pages of the manual, as paths from the repository root. */
export function manualPages(root = "."): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort();
  return ["README.md", "CONTRIBUTING.md", ...docs.map((f) => `docs/${f}`)];
}

/** A page's tokens, its front matter (`---` … `---`, TypeDoc's page title) left out. */
export function pageTokens(markdown: string): Token[] {
  return marked.lexer(markdown.replace(/^---\n[^]*?\n---\n/, ""));
}

/** Every token of `tokens`, nested ones included (list items, table cells, a link's text…). */
export function allTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  const walk = (list: readonly Token[]): void => {
    for (const token of list) {
      out.push(token);
      if ("tokens" in token && Array.isArray(token.tokens)) walk(token.tokens as Token[]);
      if (token.type === "list") walk((token as Tokens.List).items);
      if (token.type === "table") {
        const table = token as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) walk(cell.tokens);
      }
    }
  };
  walk(tokens);
  return out;
}

/** A heading's anchor as GitHub makes it (and TypeDoc, for these headings): lower case, punctuation dropped, spaces to `-`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The text a heading shows: its inline tokens' text, without Markdown (code spans keep their content). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((t) => {
      if ("tokens" in t && Array.isArray(t.tokens)) return plainText(t.tokens as Token[]);
      return "text" in t && typeof t.text === "string" ? t.text : "";
    })
    .join("");
}

/** The anchors of a page's headings; a repeated heading gets `-1`, `-2`…, as on GitHub. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const token of allTokens(pageTokens(markdown))) {
    if (token.type !== "heading") continue;
    const base = slug(plainText((token as Tokens.Heading).tokens));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Every link and image target a page holds. */
export function linkTargets(markdown: string): string[] {
  return allTokens(pageTokens(markdown))
    .filter((t): t is Tokens.Link | Tokens.Image => t.type === "link" || t.type === "image")
    .map((t) => t.href);
}

/**
 * What is wrong with a relative link of `page` (a path from the repository root): a file that does not exist, or an
 * anchor its Markdown target has no heading for. Links with a scheme (`https:`, `mailto:`) are not relative: `null`.
 */
export function brokenLink(page: string, href: string, root = "."): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  const [path = "", anchor] = href.split("#", 2);
  const target = path ? normalize(join(dirname(page), decodeURIComponent(path))) : page;
  if (target.startsWith("..")) return `${href}: leaves the repository`;
  if (!existsSync(join(root, target))) return `${href}: ${target} does not exist`;
  if (anchor === undefined || !target.endsWith(".md")) return null;
  return anchors(readFileSync(join(root, target), "utf8")).has(anchor) ? null : `${href}: ${target} has no heading #${anchor}`;
}

/** The code a page shows: each code span, and each TypeScript or JavaScript block. */
export function pageCode(markdown: string): { spans: string[]; blocks: string[] } {
  const tokens = allTokens(pageTokens(markdown));
  return {
    spans: tokens.filter((t) => t.type === "codespan").map((t) => (t as Tokens.Codespan).text),
    blocks: tokens
      .filter((t): t is Tokens.Code => t.type === "code" && /^(ts|js|typescript|javascript)$/.test(t.lang ?? ""))
      .map((t) => t.text),
  };
}

/** Every identifier a piece of code uses (parsed as TypeScript; a fragment that does not parse still gives its names). */
export function identifiers(code: string): Set<string> {
  const file = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** The names a piece of code imports from `module` (`import { a, b as c } from "module"`: a and b). */
export function importsFrom(code: string, module: string): string[] {
  const file = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== module) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.map((e) => (e.propertyName ?? e.name).text));
  }
  return names;
}

/** The names src/index.ts exports; `export *` is refused (the entry names each export, so this list is exact). */
export function entryExports(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause) throw new Error(`${path}: \`export *\` hides what the entry exports; name each export`);
      if (!ts.isNamedExports(statement.exportClause)) throw new Error(`${path}: \`export * as\` is not an exported name list`);
      names.push(...statement.exportClause.elements.map((e) => e.name.text));
    } else if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      throw new Error(`${path}: the entry declares "${statement.getText(file).slice(0, 60)}"; it only re-exports`);
    }
  }
  return names;
}

/** Every name the manual's code spans and code blocks use: what counts as "named in the manual". */
export function namesInManual(root = "."): Set<string> {
  const names = new Set<string>();
  for (const page of manualPages(root)) {
    const { spans, blocks } = pageCode(readFileSync(join(root, page), "utf8"));
    for (const code of [...spans, ...blocks]) for (const name of identifiers(code)) names.add(name);
  }
  return names;
}

/**
 * The repository paths a page names in code spans: a span that is a path and nothing else, under `src/`, `scripts/`,
 * `e2e/` or `docs/`. A placeholder (`src/tools/<source>.ts`) or a glob (`e2e/*.spec.ts`) is not a path.
 */
export function namedPaths(markdown: string): string[] {
  const spans = allTokens(pageTokens(markdown))
    .filter((t) => t.type === "codespan")
    .map((t) => (t as Tokens.Codespan).text);
  return [...new Set(spans.filter((text) => /^(src|scripts|e2e|docs)\/[\w.@/-]*$/.test(text)))];
}
