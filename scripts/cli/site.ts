/**
 * What the `deeptab` command does, as functions the test calls too: `newSite` writes a site's folder
 * (templates.ts); `buildSite` copies the prebuilt app into the output folder, writes the site's agents beside it
 * (`agents/index.json` and one bundle per folder, validated by buildSiteAgents: any problem fails the build, every
 * one listed) and restamps the service worker's precache list so it matches what is served.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { SITE_FOLDER } from "../../src/agent-folders/site.ts";
import { AGENTS_DIR, siteAgentFiles } from "../vite/agents/plugin.ts";
import { restampShell } from "../vite/shell/stamp.ts";
import { deeptabPackage } from "./package-root.ts";
import { siteFiles } from "./templates.ts";

export interface NewSiteOptions {
  /** The folder to create (its last segment names the site and its first agent). */
  dir: string;
  /** The deeptab dependency's spec; default `^<this version>`. */
  deeptab?: string;
}

/** Writes a new site into `dir` (which must not exist or be empty); returns the files written. */
export async function newSite({ dir, deeptab }: NewSiteOptions): Promise<string[]> {
  const target = resolve(dir);
  const name = target.split(/[\\/]/).pop() ?? "";
  if (!SITE_FOLDER.test(name)) throw new Error(`'${name}' cannot name an agent folder: use letters, digits, - and _ (at most 64)`);
  if (existsSync(target) && (await readdir(target)).length) throw new Error(`${target} exists and is not empty`);
  const files = siteFiles(name, deeptab ?? `^${deeptabPackage().version}`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(target, path)), { recursive: true });
    await writeFile(join(target, path), text);
  }
  return Object.keys(files);
}

export interface BuildSiteOptions {
  /** The site's folder (holding agents/); default the working directory. */
  root?: string;
  /** The output folder, emptied first; default `<root>/dist`. */
  out?: string;
  /** The folder the page opens on; default DEEPTAB_DEFAULT_AGENT, else the sole agent. */
  defaultAgent?: string;
}

export interface BuiltSite {
  out: string;
  agents: string[];
  precached: number;
}

/** Builds a site: the prebuilt app plus the site's agents, in `out`. Throws listing every problem of the agents. */
export async function buildSite(options: BuildSiteOptions = {}): Promise<BuiltSite> {
  const root = resolve(options.root ?? ".");
  const out = resolve(options.out ?? join(root, "dist"));
  const { app } = deeptabPackage();
  if (!existsSync(join(app, "index.html"))) throw new Error(`deeptab's prebuilt app is missing (${app}); reinstall deeptab`);
  // Validated before anything is written: a broken agent folder leaves the previous build as it was.
  const agents = await siteAgentFiles(join(root, AGENTS_DIR), options.defaultAgent ?? (process.env.DEEPTAB_DEFAULT_AGENT || undefined));
  await rm(out, { recursive: true, force: true });
  await cp(app, out, { recursive: true, filter: (src) => src !== join(app, AGENTS_DIR) });
  for (const file of agents.files) {
    await mkdir(dirname(join(out, file.path)), { recursive: true });
    await writeFile(join(out, file.path), file.text);
  }
  const stamp = await restampShell(out);
  return { out, agents: agents.index.agents.map((a) => a.folder), precached: stamp.files };
}
