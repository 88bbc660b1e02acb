/**
 * The manual's pages hold together and stay in step with the code: every relative link resolves (file and heading),
 * every repository path a code span names exists, every name a code example imports from `deeptab` and every name
 * "The entry, by area" presents is exported by src/index.ts, and the example agent.yaml loads. Whether every export
 * is documented is docs-build.test.ts's (TypeDoc reads the TSDoc); these checks parse the pages and need no build.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Token, Tokens } from "marked";
import { describe, expect, it } from "vitest";
import {
  allTokens,
  anchors,
  brokenLink,
  entryExports,
  importsFrom,
  linkTargets,
  manualPages,
  namedPaths,
  namesInManual,
  pageCode,
  pageTokens,
  slug,
} from "./docs-pages.ts";

const pages = manualPages();
const exported = new Set(entryExports("src/index.ts"));

/** The tokens under the heading `title` of a page, up to the next heading of its level or above. */
function section(markdown: string, title: string): Token[] {
  const tokens = pageTokens(markdown);
  const start = tokens.findIndex((t) => t.type === "heading" && t.text === title);
  if (start < 0) throw new Error(`no heading "${title}"`);
  const depth = (tokens[start] as { depth: number }).depth;
  const end = tokens.findIndex((t, i) => i > start && t.type === "heading" && (t as { depth: number }).depth <= depth);
  return tokens.slice(start + 1, end < 0 ? undefined : end);
}

describe("the manual's pages", () => {
  it("are README, CONTRIBUTING and every page of docs/, with its table of contents", () => {
    expect(pages.slice(0, 2)).toEqual(["README.md", "CONTRIBUTING.md"]);
    expect(pages).toEqual(expect.arrayContaining(["docs/README.md", "docs/library.md", "docs/security.md", "docs/guarantees.md"]));
    const contents = linkTargets(readFileSync("docs/README.md", "utf8"));
    const unlisted = pages.filter((p) => p.startsWith("docs/") && p !== "docs/README.md" && !contents.includes(p.slice(5)));
    expect(unlisted, "pages docs/README.md does not list").toEqual([]);
  });

  it("keep README a newcomer's page of at most 400 lines", () => {
    expect(readFileSync("README.md", "utf8").split("\n").length).toBeLessThanOrEqual(400);
  });

  for (const page of pages) {
    it(`every relative link of ${page} resolves, to a heading where it names one`, () => {
      const broken = linkTargets(readFileSync(page, "utf8"))
        .map((href) => brokenLink(page, href))
        .filter((problem) => problem !== null);
      expect(broken).toEqual([]);
    });
  }

  for (const page of pages) {
    it(`every repository path ${page} names in a code span exists`, () => {
      const missing = namedPaths(readFileSync(page, "utf8")).filter((path) => !existsSync(path));
      expect(missing).toEqual([]);
    });
  }

  it("name only exports when a code example imports from deeptab", () => {
    const imported = pages.flatMap((page) =>
      pageCode(readFileSync(page, "utf8")).blocks.flatMap((code) => importsFrom(code, "deeptab").map((name) => ({ page, name }))),
    );
    expect(imported.length).toBeGreaterThan(5);
    expect(imported.filter(({ name }) => !exported.has(name))).toEqual([]);
  });

  it("name only exports in the library page's tour of the entry", () => {
    const spans = allTokens(section(readFileSync("docs/library.md", "utf8"), "The entry, by area"))
      .filter((t): t is Tokens.Codespan => t.type === "codespan")
      .map((t) => t.text)
      .filter((text) => /^[A-Za-z_$][\w$]*$/.test(text));
    expect(spans.length).toBeGreaterThan(30);
    expect(spans.filter((name) => !exported.has(name))).toEqual([]);
  });

  it("reads links, anchors, code and imports by parsing the Markdown and the code", () => {
    const md =
      '---\ntitle: T\n---\n\n# A `b` c!\n\n## A `b` c!\n\n- [x](y.md#z) and `d.e(f)`\n\n```ts\nimport { g, h as i } from "deeptab";\n```\n';
    expect([...anchors(md)]).toEqual(["a-b-c", "a-b-c-1"]);
    expect(linkTargets(md)).toEqual(["y.md#z"]);
    expect(pageCode(md)).toEqual({ spans: ["b", "b", "d.e(f)"], blocks: ['import { g, h as i } from "deeptab";'] });
    expect(importsFrom(pageCode(md).blocks[0]!, "deeptab")).toEqual(["g", "h"]);
    expect(slug("Running code: python3")).toBe("running-code-python3");
    expect(slug("What the guarantees are")).toBe("what-the-guarantees-are");
    expect(brokenLink("docs/library.md", "subagents.md#async-subagents")).toBeNull();
    expect(brokenLink("docs/library.md", "subagents.md#no-such-heading")).toMatch(/has no heading/);
    expect(brokenLink("docs/library.md", "../nowhere.md")).toMatch(/does not exist/);
    expect(brokenLink("README.md", "https://example.org/x")).toBeNull();
    expect(namedPaths("`src/a.ts`, `src/a.ts` and `e2e/b/` in `node scripts/c.mjs`, `src/<name>.ts`, `e2e/*.spec.ts`, `a/b.ts`")).toEqual([
      "src/a.ts",
      "e2e/b/",
    ]);
  });

  it("count a name as named when a code span or example uses it", () => {
    const named = namesInManual();
    expect(named.has("createDeepAgent")).toBe(true);
    expect(named.has("webSearchBlocks")).toBe(true); // in `webSearchBlocks(message)`
  });
});
