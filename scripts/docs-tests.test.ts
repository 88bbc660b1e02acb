/**
 * The manual's promises name the tests that hold them (`docs/*.md`: `` `path.test.ts` › "title" ``). Every named file
 * must exist and declare a test or suite of that title, so a renamed or deleted test fails here instead of leaving a
 * promise unchecked.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { citedTests, testTitles } from "./docs-tests.ts";

const docs = existsSync("docs") ? readdirSync("docs").filter((f) => f.endsWith(".md")) : [];

describe("the manual's cited tests", () => {
  it("docs/security.md cites tests", () => {
    expect(docs).toContain("security.md");
    expect(citedTests(readFileSync("docs/security.md", "utf8")).length).toBeGreaterThan(20);
  });

  for (const doc of docs) {
    it(`every test docs/${doc} cites exists under that title`, () => {
      const missing = citedTests(readFileSync(`docs/${doc}`, "utf8")).filter(
        ({ file, title }) => !existsSync(file) || !testTitles(file).has(title),
      );
      expect(missing.map(({ file, title }) => `${file} › "${title}"`)).toEqual([]);
    });
  }

  it("reads titles as the test runner declares them, not as text that merely mentions them", () => {
    const cited = citedTests('a — `src/x.test.ts` › "one thing"; b — `e2e/y.spec.ts` › "two"');
    expect(cited).toEqual([
      { file: "src/x.test.ts", title: "one thing" },
      { file: "e2e/y.spec.ts", title: "two" },
    ]);
    const titles = testTitles("scripts/docs-tests.test.ts");
    expect(titles.has("reads titles as the test runner declares them, not as text that merely mentions them")).toBe(true);
    expect(titles.has("every test docs/${doc} cites exists under that title")).toBe(true);
    expect(titles.has("one thing")).toBe(false);
  });
});
