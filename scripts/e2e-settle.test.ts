/**
 * Every e2e spec waits for the page to settle before it evaluates in it (scripts/e2e-settle.ts, e2e/fixtures.ts):
 * the specs as they are, and the rule itself on small sources that break it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { settleProblems } from "./e2e-settle.ts";

/** The specs that turn settling off, and why. */
const MAY_OPT_OUT: Readonly<Record<string, string>> = {
  "hosting.spec.ts": "it watches the isolation reload itself, and settles (settled) where it evaluates",
};

const specs = readdirSync("e2e").filter((f) => f.endsWith(".spec.ts"));

describe("e2e specs settle before they evaluate", () => {
  it("finds the specs", () => {
    expect(specs.length).toBeGreaterThan(10);
    for (const name of Object.keys(MAY_OPT_OUT)) expect(specs).toContain(name);
  });

  for (const spec of specs) {
    it(`e2e/${spec} keeps the rule`, () => {
      expect(settleProblems(`e2e/${spec}`, readFileSync(`e2e/${spec}`, "utf8"), spec in MAY_OPT_OUT)).toEqual([]);
    });
  }
});

describe("settleProblems", () => {
  const fixtures = 'import { settled, test } from "./fixtures.ts";\n';

  it("wants `test` from the fixtures, not from Playwright", () => {
    expect(settleProblems("a.spec.ts", fixtures, false)).toEqual([]);
    expect(settleProblems("a.spec.ts", 'import { type Page, expect } from "@playwright/test";\n' + fixtures, false)).toEqual([]);
    expect(settleProblems("a.spec.ts", 'import { expect, test } from "@playwright/test";\n', false)).toEqual([
      'a.spec.ts:1: takes `test` from "@playwright/test", not "./fixtures.ts"',
    ]);
    expect(settleProblems("a.spec.ts", 'import { expect } from "@playwright/test";\n', false)).toEqual([
      'a.spec.ts: does not take `test` from "./fixtures.ts"',
    ]);
  });

  it("lets only the allowed specs turn settling off", () => {
    const source = fixtures + "test.use({ settleNavigations: false });\n";
    expect(settleProblems("a.spec.ts", source, true)).toEqual([]);
    expect(settleProblems("a.spec.ts", source, false)).toEqual(["a.spec.ts:2: turns settling off, which only the specs allowed to may"]);
  });

  it("with settling off, wants settled(…) between a navigation and an evaluation, also through the file's own helpers", () => {
    const off = fixtures + "test.use({ settleNavigations: false });\n";
    const spec = (body: string) => `${off}const scope = (page) => page.evaluate(() => 1);\ntest("t", async ({ page }) => {\n${body}\n});\n`;
    expect(settleProblems("a.spec.ts", spec('await page.goto("/");\nawait settled(page);\nawait page.evaluate(() => 1);'), true)).toEqual(
      [],
    );
    expect(
      settleProblems("a.spec.ts", spec('await page.goto("/");\nexpect(await settled(page)).toBe("isolated");\nawait scope(page);'), true),
    ).toEqual([]);
    expect(
      settleProblems("a.spec.ts", spec('await page.goto("/");\nexpect(await page.evaluate(() => crossOriginIsolated)).toBe(true);'), true),
    ).toEqual(["a.spec.ts:6: evaluate after a navigation without settled(…) between"]);
    expect(
      settleProblems(
        "a.spec.ts",
        spec('await page.goto("/");\nawait settled(page);\nawait page.reload();\nawait expect.poll(() => scope(page)).toBe(1);'),
        true,
      ),
    ).toEqual(["a.spec.ts:8: scope after a navigation without settled(…) between"]);
    expect(settleProblems("a.spec.ts", spec('await page.goto("/");\nawait page.getByTestId("x").evaluate((el) => el.id);'), true)).toEqual([
      "a.spec.ts:6: evaluate after a navigation without settled(…) between",
    ]);
  });

  it("wants a context of the spec's own to block service workers", () => {
    const spec = (options: string) =>
      `${fixtures}test("t", async ({ browser }) => {\nconst context = await browser.newContext(${options});\n});\n`;
    expect(settleProblems("a.spec.ts", spec('{ serviceWorkers: "block" }'), false)).toEqual([]);
    expect(settleProblems("a.spec.ts", spec(""), false)).toEqual(['a.spec.ts:3: a context of its own without `serviceWorkers: "block"`']);
    expect(settleProblems("a.spec.ts", spec('{ serviceWorkers: "allow" }'), false)).toEqual([
      'a.spec.ts:3: a context of its own without `serviceWorkers: "block"`',
    ]);
  });
});
