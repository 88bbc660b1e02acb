/**
 * Pyodide's files as the site's own: the build copies the core (pyodide.asm.mjs,
 * pyodide.asm.wasm), the standard library (python_stdlib.zip) and the package
 * lock from node_modules/pyodide to assets/pyodide/ beside the shell worker's
 * chunk; the dev server (and the browser tests) serve them at /__pyodide/.
 * Never committed, never fetched from a CDN. The shell's thread loads them on
 * the first `python3` (src/backends/sandbox/shell.worker.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

/** The files loadPyodide reads from its indexURL, and their types. */
const PYODIDE_FILES: Record<string, string> = {
  "pyodide.asm.mjs": "text/javascript",
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
};

const pyodideDir = () => dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));

export function pyodideAssets(): Plugin {
  return {
    name: "deeptab:pyodide-assets",
    configureServer(server) {
      server.middlewares.use("/__pyodide/", (req, res, next) => {
        const name = (req.url ?? "").replace(/^\//, "").split("?")[0] ?? "";
        const type = PYODIDE_FILES[name];
        if (!type) return next();
        res.setHeader("Content-Type", type);
        res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        res.end(readFileSync(join(pyodideDir(), name)));
      });
    },
    generateBundle() {
      for (const name of Object.keys(PYODIDE_FILES)) {
        this.emitFile({ type: "asset", fileName: `assets/pyodide/${name}`, source: readFileSync(join(pyodideDir(), name)) });
      }
    },
  };
}
