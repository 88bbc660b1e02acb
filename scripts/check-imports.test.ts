import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { checkImports } from "./check-imports.mjs";

interface Report {
  modules: number;
  violations: string[];
  cycles: string[];
}
const check = checkImports as (root: string) => Report;

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  dirs.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

describe("the import check", () => {
  it("passes on src/ as it is", () => {
    const report = check(resolve("src"));
    expect(report.violations).toEqual([]);
    expect(report.cycles).toEqual([]);
    expect(report.modules).toBeGreaterThan(50);
  });

  it("catches an import that points up the layer order", () => {
    const root = tree({
      "harness/loop.ts": `import { x } from "../middleware/hitl.ts";\nexport const y = x;`,
      "middleware/hitl.ts": `import type { T } from "../harness/types.ts";\nexport const x = 1 as T;`,
      "harness/types.ts": `export type T = number;`,
    });
    expect(check(root).violations).toEqual([
      "harness/loop.ts imports middleware/hitl.ts: harness/ may not import middleware/ (it is above harness/ in the layer order)",
    ]);
  });

  it("counts type-only and dynamic imports as dependencies, and keeps ui/ to worker/", () => {
    const root = tree({
      "ui/chat.svelte.ts": `import type { HarnessError } from "../harness/errors.ts";\nconst m = () => import("../agent/create.ts");`,
      "harness/errors.ts": `export class HarnessError {}`,
      "agent/create.ts": `export {};`,
    });
    expect(check(root).violations).toHaveLength(2);
  });

  it("keeps core/ a leaf and testing/ for tests", () => {
    const root = tree({
      "core/errors.ts": `import { a } from "../storage/a.ts";`,
      "storage/a.ts": `import { s } from "../testing/scripted.ts";\nexport const a = s;`,
      "storage/a.test.ts": `import { s } from "../testing/scripted.ts";`,
      "testing/scripted.ts": `import { a } from "../storage/a.ts";\nexport const s = 1;`,
    });
    const { violations } = check(root);
    expect(violations.some((v) => v.startsWith("core/errors.ts imports storage/a.ts"))).toBe(true);
    expect(violations.some((v) => v.startsWith("storage/a.ts imports testing/scripted.ts"))).toBe(true);
    expect(violations.some((v) => v.startsWith("storage/a.test.ts"))).toBe(false);
  });

  it("finds cycles, ignoring type-only imports", () => {
    const root = tree({
      "backends/a.ts": `import { b } from "./b.ts";\nexport const a = b;`,
      "backends/b.ts": `import { a } from "./a.ts";\nexport const b = a;`,
      "backends/c.ts": `import type { D } from "./d.ts";\nexport type C = D;`,
      "backends/d.ts": `import type { C } from "./c.ts";\nexport type D = C;`,
    });
    expect(check(root).cycles).toEqual(["backends/a.ts -> backends/b.ts -> backends/a.ts"]);
  });
});
