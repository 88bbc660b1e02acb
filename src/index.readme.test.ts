/**
 * README's "What the entry exports" and src/index.ts name the same things: every name exported by the entry is in
 * that list, and every name in the list (a code span holding one identifier) is exported. Both are parsed; the
 * failure names what is missing on either side.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** The names src/index.ts exports; `export *` is refused (the entry names each export, so this list is exact). */
function entryExports(path: string): string[] {
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

/** The identifiers in code spans of README's "What the entry exports" section. */
function readmeExports(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const start = text.indexOf("### What the entry exports");
  if (start < 0) throw new Error(`${path} has no "### What the entry exports" section`);
  const end = text.indexOf("\n#", start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter((span) => /^[A-Za-z_$][\w$]*$/.test(span));
}

describe("README's export list", () => {
  it("names exactly what src/index.ts exports", () => {
    const entry = new Set(entryExports("src/index.ts"));
    const readme = new Set(readmeExports("README.md"));
    expect(entry.size).toBeGreaterThan(100);
    expect([...entry].filter((n) => !readme.has(n)).sort(), "exported by src/index.ts but not in README").toEqual([]);
    expect([...readme].filter((n) => !entry.has(n)).sort(), "in README but not exported by src/index.ts").toEqual([]);
  });
});
