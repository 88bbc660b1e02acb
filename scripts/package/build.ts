/**
 * `npm run build:package` (and `prepack`, so `npm pack` always packs a fresh build): what the npm package ships.
 *
 * 1. dist-lib/: `tsc -p tsconfig.lib.json`, one ESM .js and .d.ts per source file of the library (src/index.ts)
 *    and of the `deeptab` command. tsc rather than a bundler: the consumer's bundler keeps tree-shaking per module
 *    and builds deeptab's workers and wasm itself (a Vite library build would inline the shell's worker and the
 *    10 MB llama.cpp wasm as base64), and the declarations come from the same compiler. `rewriteRelativeImportExtensions`
 *    turns the sources' `./x.ts` imports into `./x.js`; it leaves `new URL("./x.ts", import.meta.url)` alone, so
 *    those (the shell's worker and runner) are rewritten here, as are the declarations' imports (tsc keeps `.ts` there,
 *    which only some resolvers accept), and the build fails if any `.ts` reference remains.
 * 2. dist-app/: the app as `vite build` makes it with base "./" (it works under any sub-path) and without the
 *    repository's own example agents (a site brings its own; `deeptab build` writes them and restamps sw.js),
 *    checked by scripts/check-bundle.mjs like the app's own build.
 */
import { execFileSync } from "node:child_process";
import { readFile, readdir, rm, writeFile, chmod } from "node:fs/promises";
import { join, resolve } from "node:path";
import { build } from "vite";
import { restampShell } from "../vite/shell/stamp.ts";

const root = resolve(import.meta.dirname, "../..");
const lib = join(root, "dist-lib");
const app = join(root, "dist-app");

/** `new URL("./x.ts", import.meta.url)` as the sources write it. */
const TS_URL = /new URL\((["'])(\.{1,2}\/[^"']+)\.ts\1, import\.meta\.url\)/g;
/** A relative import in a declaration file (`from "./x.ts"`, `import("./x.ts")`): tsc keeps the sources' `.ts`. */
const DTS_IMPORT = /((?:from |import\()\s*(["']))(\.{1,2}\/[^"']+)\.ts\2/g;
/** Any relative module reference still ending in .ts after the rewrite (static, dynamic or URL). */
const LEFT_TS = /(?:from |import\(|new URL\()\s*["']\.{1,2}\/[^"']+\.ts["']/;

async function files(dir: string, ext: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => join(e.parentPath, e.name));
}

async function buildLib(): Promise<void> {
  await rm(lib, { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.lib.json")], {
    stdio: "inherit",
  });
  const emitted = [...(await files(lib, ".js")), ...(await files(lib, ".d.ts"))];
  const left: string[] = [];
  for (const file of emitted) {
    const text = await readFile(file, "utf8");
    const rewritten = text
      .replace(TS_URL, (_, quote: string, path: string) => `new URL(${quote}${path}.js${quote}, import.meta.url)`)
      .replace(DTS_IMPORT, (_, head: string, quote: string, path: string) => `${head}${path}.js${quote}`);
    if (rewritten !== text) await writeFile(file, rewritten);
    if (LEFT_TS.test(rewritten)) left.push(file);
    if (rewritten.includes('types="vite/client"')) left.push(`${file} (references vite/client)`);
  }
  if (left.length) throw new Error(`dist-lib still names TypeScript sources:\n  ${left.join("\n  ")}`);
  await chmod(join(lib, "scripts/cli/deeptab.js"), 0o755);
  console.log(`dist-lib: ${emitted.length} files`);
}

async function buildApp(): Promise<void> {
  await build({
    root,
    configFile: join(root, "vite.config.ts"),
    base: "./",
    logLevel: "warn",
    build: { outDir: app, emptyOutDir: true, sourcemap: false },
  });
  await rm(join(app, "agents"), { recursive: true, force: true });
  const stamp = await restampShell(app);
  execFileSync(process.execPath, [join(root, "scripts/check-bundle.mjs"), app], { stdio: "inherit" });
  console.log(`dist-app: ${stamp.files} files, ${(stamp.bytes / 1024 / 1024).toFixed(1)} MiB`);
}

await buildLib();
await buildApp();
