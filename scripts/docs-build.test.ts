/**
 * `npm run docs` works: TypeDoc builds the manual's pages and the API reference from typedoc.json, offline, with no
 * warning (its validation names an export's type that is not exported, a broken `{@link}` and a page's link to a
 * missing file or heading). And every export of src/index.ts is documented: by its TSDoc, which the reference
 * renders, or, where it has none, by being named on a page of the manual (a code span or a code example).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Application, Logger, LogLevel, ReflectionKind, TSConfigReader, TypeDocReader, type DeclarationReflection } from "typedoc";
import { describe, expect, it } from "vitest";
import { entryExports, namesInManual } from "./docs-pages.ts";

/** What TypeDoc said, instead of printing it. */
class Collected extends Logger {
  readonly messages: string[] = [];
  override log(message: string, level: LogLevel): void {
    if (level >= LogLevel.Warn) this.messages.push(message);
  }
}

/** Whether TypeDoc renders a description for an export: its own comment, or its signatures'. */
function documented(reflection: DeclarationReflection): boolean {
  if (reflection.hasComment()) return true;
  return [...(reflection.signatures ?? []), ...(reflection.getAllSignatures?.() ?? [])].some((s) => s.hasComment());
}

describe("the docs build", () => {
  it("renders the manual and the API reference with no warning, and every export is documented or named in the manual", async () => {
    const out = mkdtempSync(join(tmpdir(), "deeptab-docs-"));
    try {
      const app = await Application.bootstrapWithPlugins({ out }, [new TypeDocReader(), new TSConfigReader()]);
      const logger = new Collected();
      app.logger = logger;
      const project = await app.convert();
      expect(project, logger.messages.join("\n")).toBeDefined();
      app.validate(project!);
      await app.generateDocs(project!, out);
      expect(logger.messages).toEqual([]);
      expect(app.options.getValue("treatWarningsAsErrors")).toBe(true);
      expect(readdirSync(join(out, "documents")).length).toBeGreaterThan(10);

      // With pages beside it, the one entry point is a module of the project ("index"); its children are the exports.
      const entry = project!.getChildrenByKind(ReflectionKind.Module)[0] ?? project!;
      const reflections = entry.getChildrenByKind(ReflectionKind.All) as DeclarationReflection[];
      expect(reflections.map((r) => r.name).sort()).toEqual([...new Set(entryExports("src/index.ts"))].sort());
      const named = namesInManual();
      const silent = reflections.filter((r) => !documented(r) && !named.has(r.name)).map((r) => r.name);
      expect(silent, "exports with no TSDoc that no page of the manual names").toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
