/**
 * The tests the manual cites (`docs/*.md`: `` `path.test.ts` › "title" ``) and the titles a test file declares
 * (`it`, `test`, `describe`, found by parsing the file, not by searching its text). docs-tests.test.ts checks one
 * against the other.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";

const TEST_CALLS = new Set(["it", "test", "describe"]);

/** The titles a test file declares: string literals as written, template literals with their `${…}` kept as source. */
export function testTitles(path: string): Set<string> {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const titles = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      let callee: ts.Expression = node.expression;
      // it.skipIf(…)("title"), describe.each(…)("title"), test.fail("title")
      while (ts.isCallExpression(callee) || ts.isPropertyAccessExpression(callee)) callee = callee.expression;
      const title = node.arguments[0];
      if (ts.isIdentifier(callee) && TEST_CALLS.has(callee.text) && title) {
        if (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title)) titles.add(title.text);
        else if (ts.isTemplateExpression(title)) titles.add(title.getText(file).slice(1, -1));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return titles;
}

/** Every `` `file` › "title" `` a Markdown text cites. */
export function citedTests(markdown: string): Array<{ file: string; title: string }> {
  return [...markdown.matchAll(/`([^`\s]+\.(?:test|spec)\.ts)` › "([^"\n]+)"/g)].map((m) => ({ file: m[1]!, title: m[2]! }));
}
