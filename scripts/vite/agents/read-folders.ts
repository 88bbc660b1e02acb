/**
 * Reads a site's agent folders from disk (every folder under `agents/`) for buildSiteAgents: each file's path
 * relative to its folder, with `/` separators, and its bytes. Symbolic links are refused, as in a zip: they could
 * point anywhere on the machine that builds the site.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { SiteFolder } from "../../../src/agent-folders/site.ts";

async function walk(dir: string, root: string, out: Array<[string, Uint8Array]>): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isSymbolicLink()) throw new Error(`${full} is a symbolic link; an agent folder holds plain files only`);
    if (entry.isDirectory()) await walk(full, root, out);
    else if (entry.isFile()) out.push([relative(root, full).split(sep).join("/"), new Uint8Array(await readFile(full))]);
  }
}

/** The folders under `root` (none when it does not exist), each with its files. */
export async function readAgentFolders(root: string): Promise<SiteFolder[]> {
  const exists = await lstat(root).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists) return [];
  const folders: SiteFolder[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const files: Array<[string, Uint8Array]> = [];
    await walk(join(root, entry.name), join(root, entry.name), files);
    folders.push({ folder: entry.name, files });
  }
  return folders;
}
