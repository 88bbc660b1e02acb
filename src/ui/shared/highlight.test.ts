import { describe, expect, it } from "vitest";
import { highlighterRequested, languageForPath, renderHighlighted, resolveLanguage, splitHighlightedLines } from "./highlight.ts";

describe("highlight helpers", () => {
  it("resolves fence names and extensions to grammars", () => {
    expect(resolveLanguage("TS")).toBe("typescript");
    expect(resolveLanguage("tsx")).toBe("typescript");
    expect(resolveLanguage("sh")).toBe("bash");
    expect(resolveLanguage("html")).toBe("xml");
    expect(resolveLanguage("c++")).toBe("cpp");
    expect(resolveLanguage("yml")).toBe("yaml");
    expect(resolveLanguage("brainfuck")).toBeUndefined();
    expect(resolveLanguage("constructor")).toBeUndefined();
    expect(resolveLanguage(undefined)).toBeUndefined();
    expect(languageForPath("/src/a.test.ts")).toBe("typescript");
    expect(languageForPath("/Makefile")).toBeUndefined();
  });

  it("escapes code of an unknown language without loading highlight.js", async () => {
    expect(await renderHighlighted("<b>&</b>", "nope")).toBe("&lt;b&gt;&amp;&lt;/b&gt;");
    expect(highlighterRequested()).toBe(false);
  });

  it("splits highlighted HTML into balanced lines", () => {
    const html = 'a<span class="c">/* one\ntwo */</span>\n<span class="k">let</span> <span class="s">x<span class="e">\\n</span>\ny</span>';
    expect(splitHighlightedLines(html)).toEqual([
      'a<span class="c">/* one</span>',
      '<span class="c">two */</span>',
      '<span class="k">let</span> <span class="s">x<span class="e">\\n</span></span>',
      '<span class="s">y</span>',
    ]);
    expect(splitHighlightedLines("")).toEqual([""]);
    expect(splitHighlightedLines("a\n\nb")).toEqual(["a", "", "b"]);
  });
});
