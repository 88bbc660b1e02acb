/**
 * The startup closure of a build: an entry chunk and what it imports
 * statically, never what it imports with import() (that loads on demand).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PRECACHE_BUDGET, FIRST_VISIT_GOAL, appShell, firstLoad, staticImports, workerStartup } from "./bundle-size.mjs";

function build(files: Record<string, string>): string {
  const dist = mkdtempSync(join(tmpdir(), "bundle-size-"));
  mkdirSync(join(dist, "assets"));
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dist, name), code);
  return dist;
}

describe("bundle size", () => {
  it("follows static imports and re-exports, not dynamic import() or strings", () => {
    expect(
      staticImports(
        [
          'import { a } from "./a.js";',
          'export * from "./b.js";',
          'export { c } from "./c.js";',
          'const lazy = () => import("./lazy.js");',
          "const s = \"import x from './not.js'\";",
          'import "./side.js";',
        ].join("\n"),
      ),
    ).toEqual(["./a.js", "./b.js", "./c.js", "./side.js"]);
  });

  it("counts the worker entry and its static imports, transitively and once each, raw and gzip", () => {
    const shared = Array.from({ length: 50 }, (_, i) => `export const shared${i} = ${i};\n`).join("");
    const dist = build({
      "assets/agent.worker-abc.js": 'import { shared0 } from "./shared-1.js";\nimport("./shell-2.js");\nexport * from "./core-3.js";\n',
      "assets/shared-1.js": shared,
      "assets/core-3.js": 'import { shared0 } from "./shared-1.js";\nexport const core = shared0;\n',
      "assets/shell-2.js": "export const shell = 'big';\n",
    });
    const startup = workerStartup(dist);
    expect(startup.files.map((f) => f.file).sort()).toEqual(["assets/agent.worker-abc.js", "assets/core-3.js", "assets/shared-1.js"]);
    expect(startup.raw).toBe(startup.files.reduce((n, f) => n + f.raw, 0));
    expect(startup.files.find((f) => f.file === "assets/shared-1.js")).toMatchObject({
      raw: shared.length,
      gzip: gzipSync(shared).length,
    });
  });

  it("counts what index.html loads: its scripts and module preloads with their imports, not other origins", () => {
    const dist = build({
      "index.html":
        '<script type="module" src="./assets/index-1.js"></script><link rel="modulepreload" href="./assets/vendor-2.js">' +
        '<script src="https://cdn.example/x.js"></script><script src="./register-sw.js"></script>',
      "assets/index-1.js": 'import "./vendor-2.js";\nimport("./later-3.js");\n',
      "assets/vendor-2.js": "export const v = 1;\n",
      "assets/later-3.js": "export const l = 1;\n",
      "register-sw.js": "navigator.serviceWorker;\n",
      "assets/agent.worker-x.js": "",
    });
    expect(
      firstLoad(dist)
        .files.map((f) => f.file)
        .sort(),
    ).toEqual(["assets/index-1.js", "assets/vendor-2.js", "register-sw.js"]);
  });

  it("counts a module preload that the entry also imports once, whatever the base and however dist/ is named", () => {
    const files = (base: string) => ({
      "index.html":
        `<script type="module" src="${base}assets/index-1.js"></script><link rel="modulepreload" href="${base}assets/dialog-2.js">` +
        `<script src="${base}register-sw.js"></script>`,
      "assets/index-1.js": 'import "./dialog-2.js";\n',
      "assets/dialog-2.js": `export const d = "${"dialog ".repeat(100)}";\n`,
      "register-sw.js": "navigator.serviceWorker;\n",
    });
    const counts = [];
    for (const base of ["./", "/deeptab/"]) {
      const dist = build(files(base));
      for (const named of [dist, relative(process.cwd(), dist)]) {
        const load = firstLoad(named);
        expect(load.files.map((f) => f.file).sort(), `${base} ${named}`).toEqual([
          "assets/dialog-2.js",
          "assets/index-1.js",
          "register-sw.js",
        ]);
        counts.push(load.gzip);
      }
    }
    expect(new Set(counts).size).toBe(1);
  });

  it("fails when the worker entry is missing or imports a file the build does not have", () => {
    expect(() => workerStartup(build({ "assets/other.js": "" }))).toThrow(/expected one assets\/agent\.worker-\*\.js/);
    expect(() => workerStartup(build({ "assets/agent.worker-a.js": 'import "./gone.js";' }))).toThrow(
      /gone\.js is imported but not in the build/,
    );
  });

  it("takes as the app shell the page, its scripts and stylesheets with their imports and the worker's startup JS; nothing later", () => {
    const dist = build({
      "index.html":
        '<script type="module" src="./assets/index-1.js"></script><link rel="stylesheet" crossorigin href="./assets/index-4.css">' +
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="https://cdn.example/x.css"><script src="./register-sw.js"></script>',
      "assets/index-1.js":
        'import "./vendor-2.js";\nimport("./later-3.js");\nnew Worker(new URL("./agent.worker-w.js", import.meta.url));\n',
      "assets/vendor-2.js": "export const v = 1;\n",
      "assets/later-3.js": "export const l = 1;\n",
      "assets/index-4.css": "body { margin: 0 }\n",
      "assets/agent.worker-w.js": 'import "./core-5.js";\nimport("./wllama-6.js");\n',
      "assets/core-5.js": "export const c = 1;\n",
      "assets/wllama-6.js": "export const w = 1;\n",
      "register-sw.js": "navigator.serviceWorker;\n",
    });
    const shell = appShell(dist);
    expect(shell.files.map((f) => f.file).sort()).toEqual([
      "assets/agent.worker-w.js",
      "assets/core-5.js",
      "assets/index-1.js",
      "assets/index-4.css",
      "assets/vendor-2.js",
      "index.html",
      "register-sw.js",
    ]);
    expect(shell.gzip).toBe(shell.files.reduce((n, f) => n + f.gzip, 0));
    // A build without an agent worker (a page alone) has a shell too.
    const page = build({ "index.html": '<script type="module" src="./assets/a-1.js"></script>', "assets/a-1.js": "" });
    expect(
      appShell(page)
        .files.map((f) => f.file)
        .sort(),
    ).toEqual(["assets/a-1.js", "index.html"]);
  });

  it("budgets the precache well under the first visit's goal on the wire (the first turn's code comes on top)", () => {
    expect(PRECACHE_BUDGET).toBeLessThan(FIRST_VISIT_GOAL / 2);
  });
});
