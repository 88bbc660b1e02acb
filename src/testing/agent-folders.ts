/** Agent folders on disk for Node tests: the example agents under agents/ and a reader for any folder. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The repository's example agents (one folder each). */
export const EXAMPLE_AGENTS = join(import.meta.dirname, "../../agents");

/** A folder on disk as a file map: path relative to the folder → bytes. */
export function folderFiles(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path));
  }
  return files;
}
