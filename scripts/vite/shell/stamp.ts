/**
 * Writes dist/sw.js for the files a build holds: its precache list (the app shell, precache.ts), the files cached on
 * first use, and the build hash over them all, in the manifest line that starts the file. The app-shell plugin stamps
 * a fresh build with the shell its imports give (scripts/bundle-size.mjs `appShell`); `deeptab build` restamps the
 * prebuilt app once a site's own agents are written beside it, keeping the shell its manifest already lists (the
 * package does not ship the bundle measures, nor the parser they need), so the service worker precaches exactly what
 * is served. Node only.
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { SW_FILE, manifestOf, onDemandFiles, precacheFiles, shellVersion, swSource } from "./precache.ts";

/** Every file under dir, relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** What a stamp wrote: the precached files, their bytes and the build hash (on-demand files not counted). */
export interface ShellStamp {
  files: number;
  bytes: number;
  version: string;
}

/**
 * Writes `<dir>/sw.js` from the bundled worker, with the manifest of every file now in `dir`: those of `shell` (and
 * precache.ts's SHELL_ALWAYS) precached, the rest cached on first use.
 */
export async function stampShell(dir: string, bundledWorker: string, shell: ReadonlySet<string>): Promise<ShellStamp> {
  const all = await listFiles(dir);
  const files = precacheFiles(all, shell);
  const onDemand = onDemandFiles(all, shell);
  const read = (paths: string[]) => Promise.all(paths.map(async (path) => ({ path, content: await readFile(join(dir, path)) })));
  const contents = await read(files);
  // The hash covers the on-demand files too: a new Pyodide is a new build (its new files are cached on first use).
  const version = shellVersion([...contents, ...(await read(onDemand))]);
  await writeFile(join(dir, SW_FILE), swSource(bundledWorker, { version, files, onDemand }));
  return { files: files.length, bytes: contents.reduce((sum, f) => sum + f.content.byteLength, 0), version };
}

/**
 * Rewrites the manifest of an existing `<dir>/sw.js` (a built app whose files have changed since, e.g. a site's agents
 * written): the shell stays what the manifest precached, of the files still there.
 */
export async function restampShell(dir: string): Promise<ShellStamp> {
  const text = await readFile(join(dir, SW_FILE), "utf8");
  const newline = text.indexOf("\n");
  const manifest = manifestOf(text);
  if (!manifest || newline < 0) throw new Error(`${join(dir, SW_FILE)} has no precache manifest on its first line`);
  return stampShell(dir, text.slice(newline + 1), new Set(manifest.files));
}
