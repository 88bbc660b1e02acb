/**
 * The build-time half of the offline app shell: which files of dist/ the
 * service worker precaches, the build hash that names its cache, and the
 * sw.js text with both written into its first line. Pure; used by plugin.ts
 * and unit-tested in Node.
 */
import { createHash } from "node:crypto";

/** The service worker's own file name in dist/ (and in the precache exclusions). */
export const SW_FILE = "sw.js";

/** What the worker needs at run time: the build hash and the files, relative to sw.js. */
export interface ShellManifest {
  readonly version: string;
  /** Cached on install. */
  readonly files: readonly string[];
  /** Cached the first time they are fetched (see ON_DEMAND); absent in sw.js files of older builds. */
  readonly onDemand?: readonly string[];
}

/** Files never precached: source maps (only DevTools reads them) and the worker itself. */
const EXCLUDED = [/\.map$/, /(^|\/)\.[^/]*$/, new RegExp(`^${SW_FILE.replace(".", "\\.")}$`)];

/**
 * Files cached at first use instead of on install: Pyodide (about 13 MB: the core wasm and the standard library,
 * scripts/vite/pyodide/plugin.ts), which only the first `python3` needs, so a visit that never runs Python never downloads it.
 */
const ON_DEMAND = [/^assets\/pyodide\//];

const cacheable = (paths: readonly string[]) =>
  paths.map((path) => path.replaceAll("\\", "/")).filter((path) => !EXCLUDED.some((re) => re.test(path)));

/** The files of a build to precache (paths relative to dist/, `/`-separated), sorted. */
export function precacheFiles(paths: readonly string[]): string[] {
  return cacheable(paths)
    .filter((path) => !ON_DEMAND.some((re) => re.test(path)))
    .sort();
}

/** The files of a build cached at first use (see ON_DEMAND), sorted. */
export function onDemandFiles(paths: readonly string[]): string[] {
  return cacheable(paths)
    .filter((path) => ON_DEMAND.some((re) => re.test(path)))
    .sort();
}

/** A short hash over the files' paths and bytes: a new build with any change gets a new cache (and a new sw.js). */
export function shellVersion(files: readonly { path: string; content: Uint8Array }[]): string {
  const hash = createHash("sha256");
  for (const { path, content } of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${path}\0${content.byteLength}\0`);
    hash.update(content);
  }
  return hash.digest("hex").slice(0, 16);
}

/** The text of dist/sw.js: the manifest as its first line, then the bundled worker (which declares `SHELL`). */
export function swSource(bundledWorker: string, manifest: ShellManifest): string {
  return `const SHELL = ${JSON.stringify(manifest)};\n${bundledWorker}`;
}

/** Reads the manifest back from the first line of a sw.js (check-bundle, tests); undefined if it has none. */
export function manifestOf(swText: string): ShellManifest | undefined {
  const match = /^const SHELL = (\{.*\});$/m.exec(swText.split("\n", 1)[0] ?? "");
  return match?.[1] ? (JSON.parse(match[1]) as ShellManifest) : undefined;
}
