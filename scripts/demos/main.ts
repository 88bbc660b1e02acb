/**
 * Rebuilds the demos of the site's agents (`agents/<name>/demos/<slug>.json`) from their scripts (scripts.ts), by
 * running each agent on its prompt against a scripted provider over loopback (record.ts).
 *
 *   npm run demos              writes the demos
 *   npm run demos -- --check   writes nothing; fails when a demo file is missing or differs from what its script makes
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { demoFileName, serializeDemo } from "../../src/models/replay/format.ts";
import { AGENTS_ROOT, recordDemo } from "./record.ts";
import { DEMO_SCRIPTS, type DemoScript } from "./scripts.ts";

/** Where a script's demo lives, relative to `agents/`. */
export function demoPath(script: DemoScript): string {
  return `${script.agent}/${demoFileName(script.title, new Set())}`;
}

/** Makes every demo; with `check`, compares with the files instead of writing them. The problems found (check). */
export async function buildDemos(options: { check?: boolean; root?: string; log?: (line: string) => void } = {}): Promise<string[]> {
  const root = options.root ?? AGENTS_ROOT;
  const log = options.log ?? (() => undefined);
  const problems: string[] = [];
  for (const script of DEMO_SCRIPTS) {
    const path = demoPath(script);
    const text = serializeDemo(await recordDemo(script, root));
    const file = join(root, path);
    if (options.check) {
      const current = await readFile(file, "utf8").catch(() => undefined);
      if (current === undefined) problems.push(`agents/${path} is missing`);
      else if (current !== text) problems.push(`agents/${path} is out of date`);
      else log(`agents/${path} is up to date`);
    } else {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
      log(`wrote agents/${path}`);
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const check = process.argv.includes("--check");
  const problems = await buildDemos({ check, log: (line) => console.log(line) });
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error("Run `npm run demos` to rebuild them.");
    process.exit(1);
  }
  process.exit(0);
}
