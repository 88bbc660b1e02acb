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
  /** Cached on install: the app shell ({@link precacheFiles}). */
  readonly files: readonly string[];
  /** Cached the first time they are fetched ({@link onDemandFiles}); absent in sw.js files of older builds. */
  readonly onDemand?: readonly string[];
}

/** Files never cached: source maps (only DevTools reads them) and the worker itself. */
const EXCLUDED = [/\.map$/, /(^|\/)\.[^/]*$/, new RegExp(`^${SW_FILE.replace(".", "\\.")}$`)];

/**
 * Files in the app shell whatever the build's imports say: the page, the service worker's registration and a site's
 * agents (agents/*.json, a few KiB each, read as the app opens).
 */
const SHELL_ALWAYS = [/^index\.html$/, /^register-sw\.js$/, /^agents\//];

/** Files never in the app shell: Pyodide (about 13 MB: the core wasm and the standard library, scripts/vite/pyodide/plugin.ts). */
const NEVER_SHELL = [/^assets\/pyodide\//];

const cacheable = (paths: readonly string[]) =>
  paths.map((path) => path.replaceAll("\\", "/")).filter((path) => !EXCLUDED.some((re) => re.test(path)));

const inShell = (path: string, shell: ReadonlySet<string>) =>
  !NEVER_SHELL.some((re) => re.test(path)) && (shell.has(path) || SHELL_ALWAYS.some((re) => re.test(path)));

/**
 * The files of a build to precache on install (paths relative to dist/, `/`-separated), sorted: the app shell only,
 * i.e. those of `shell` (what a first visit loads before it can do anything, scripts/bundle-size.mjs `appShell`) and
 * SHELL_ALWAYS. llama.cpp's wasm, Pyodide, the shell interpreter, the terminal and every other chunk a first visit does
 * not load are cached the first time they are fetched ({@link onDemandFiles}).
 */
export function precacheFiles(paths: readonly string[], shell: ReadonlySet<string>): string[] {
  return cacheable(paths)
    .filter((path) => inShell(path, shell))
    .sort();
}

/** The files of a build cached at first use: every cacheable file not precached, sorted. */
export function onDemandFiles(paths: readonly string[], shell: ReadonlySet<string>): string[] {
  return cacheable(paths)
    .filter((path) => !inShell(path, shell))
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
