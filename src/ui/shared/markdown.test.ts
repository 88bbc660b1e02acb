/**
 * The markdown stage before sanitizing (Node has no DOM for DOMPurify; the
 * sanitized output is tested in markdown.browser.test.ts).
 */
import { describe, expect, it } from "vitest";
import { codeLanguage, markdownToHtml } from "./markdown.ts";

/** A ~100 KB answer: headings, prose with inline markup and links, code, lists, tables. */
function bigAnswer(size = 100_000): string {
  const parts = [
    "## Heading\n\n",
    "Some **bold** text with `code`, a [link](https://example.com/a) and _emphasis_, then more words to fill the line.\n\n",
    "```ts\nfunction f(x: number): number {\n  return x * 2; // double\n}\n```\n\n",
    "- item one\n- item two with `code`\n  - nested\n\n",
    "| h1 | h2 |\n|----|----|\n| a | b |\n\n",
  ];
  let doc = "";
  while (doc.length < size) doc += parts.join("");
  return doc;
}

describe("markdownToHtml", () => {
  it("escapes raw HTML instead of passing it through", () => {
    expect(markdownToHtml('<img src=x onerror="alert(1)">')).toBe("<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>\n");
    expect(markdownToHtml("a <script>x()</script> b")).toContain("&lt;script&gt;x()&lt;/script&gt;");
  });

  it("turns images into links so nothing is fetched", () => {
    const html = markdownToHtml("![a cat](https://img.example/cat.png)");
    expect(html).toContain('<a href="https://img.example/cat.png" class="image-link">image: a cat</a>');
    expect(html).not.toContain("<img");
  });

  it("marks fenced code with its language and survives an unclosed fence", () => {
    expect(markdownToHtml("```TypeScript extra\nlet a = 1;\n```")).toContain('<code class="language-typescript">let a = 1;\n</code>');
    expect(markdownToHtml("text\n\n```py\nprint(1)\nprint(")).toContain('<code class="language-py">print(1)\nprint(\n</code>');
    expect(codeLanguage('"><script>')).toBe("script");
  });

  it("renders GFM: tables, strikethrough, task lists, autolinks", () => {
    const html = markdownToHtml("| a |\n|---|\n| 1 |\n\n~~old~~ www.example.com\n\n- [x] done");
    expect(html).toContain("<table>");
    expect(html).toContain("<del>old</del>");
    expect(html).toContain('href="http://www.example.com"');
    expect(html).toContain('type="checkbox"');
  });

  it("renders a 100 KB answer (time reported, not asserted)", () => {
    const doc = bigAnswer();
    markdownToHtml(doc);
    const runs = 5;
    const start = performance.now();
    for (let i = 0; i < runs; i++) markdownToHtml(doc);
    const ms = (performance.now() - start) / runs;
    console.log(`markdownToHtml: ${(doc.length / 1024).toFixed(0)} KB in ${ms.toFixed(1)} ms (Node, mean of ${runs})`);
    expect(ms).toBeGreaterThan(0);
  });
});
