/**
 * The built app a bench measures: dist/ when it is newer than everything the
 * build reads (src/, index.html, public/, vite.config.ts and its plugins,
 * package-lock.json), otherwise a fresh production `vite build` into a
 * temporary folder (dist/ is left as it is). DEEPTAB_BENCH_DIST names a
 * build to measure as it is (e.g. another branch's, to compare). Also the
 * floor page the app's first token is set against (`floorBuild`).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type InlineConfig } from "vite";
import { langchainLean } from "../vite/langchain-lean/plugin.ts";
import { langsmithOff } from "../vite/langsmith-off/plugin.ts";

export interface AppBuild {
  dir: string;
  /** How the build was found or made, for the bench's output. */
  note: string;
}

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/** The build's inputs, relative to the repository root: the app, and the config with the plugins it imports. */
const INPUTS = ["src", "index.html", "public", "vite.config.ts", "scripts/vite", "package-lock.json"];

export async function appBuild(root: string): Promise<AppBuild> {
  const given = process.env.DEEPTAB_BENCH_DIST;
  if (given) return { dir: given, note: `the build in ${given} (DEEPTAB_BENCH_DIST)` };
  const dist = join(root, "dist");
  const built = existsSync(join(dist, "index.html")) ? statSync(join(dist, "index.html")).mtimeMs : 0;
  const changed = Math.max(...INPUTS.map((p) => newest(join(root, p))));
  if (built > changed) return { dir: dist, note: "dist/ (newer than its sources)" };
  const dir = await mkdtemp(join(tmpdir(), "deeptab-bench-build-"));
  const started = performance.now();
  await productionBuild({ root, configFile: join(root, "vite.config.ts"), build: { outDir: dir, emptyOutDir: true } });
  const why = built ? "dist/ is older than its sources" : "no dist/";
  return { dir, note: `a fresh build in ${dir} (${why}; built in ${((performance.now() - started) / 1000).toFixed(1)} s)` };
}

/**
 * The floor under the app's first token (scripts/bench/pages/floor/): a blank page and a bare LangGraph loop in a
 * worker, built as the app's worker is (the same LangChain and LangSmith plugins), into a temporary folder.
 */
export async function floorBuild(root: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "deeptab-bench-floor-"));
  await productionBuild({
    root: join(root, "scripts/bench/pages/floor"),
    configFile: false,
    base: "./",
    plugins: [langsmithOff(), langchainLean()],
    worker: { format: "es", plugins: () => [langsmithOff(), langchainLean()] },
    build: { outDir: dir, emptyOutDir: true },
  });
  return dir;
}

/**
 * A production build, as `npm run build` makes: the plugins read NODE_ENV (Svelte compiles its dev checks in
 * otherwise), and something earlier in the bench's process may have set it to development.
 */
async function productionBuild(config: InlineConfig): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ ...config, mode: "production", logLevel: "error" });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
