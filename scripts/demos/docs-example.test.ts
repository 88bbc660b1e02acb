import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

const repo = resolve(import.meta.dirname, "../..");

/** The first `ts` block of `section` in a docs page. */
async function example(page: string, section: string): Promise<string> {
  const text = await readFile(join(repo, "docs", page), "utf8");
  const from = text.indexOf(`\n## ${section}\n`);
  if (from < 0) throw new Error(`docs/${page} has no section '${section}'`);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(from));
  if (!block) throw new Error(`docs/${page} › ${section} has no ts example`);
  return block[1]!;
}

afterEach(() => vi.restoreAllMocks());

describe("the library page's examples", () => {
  it("the library page's demo example runs: it records, serializes, parses and replays to the same answer", async () => {
    // The example as written, importing the library's entry where a package imports "deeptab".
    const code = (await example("library.md", "Recorded demos")).replace(
      `from "deeptab"`,
      `from ${JSON.stringify(join(repo, "src/index.ts"))}`,
    );
    const dir = await mkdtemp(join(repo, "scripts/demos/.example-"));
    try {
      const file = join(dir, "example.ts");
      await writeFile(file, code);
      const logged: unknown[][] = [];
      vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logged.push(args));
      await import(/* @vite-ignore */ file);
      expect(logged).toEqual([["Wrote /hello.md.", ["/hello.md"]]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
