/**
 * Where the installed deeptab package is (its package.json), from this module: `dist-lib/scripts/cli/` in the
 * package, `scripts/cli/` in the repository. The prebuilt app ships in `<root>/dist-app/`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface DeeptabPackage {
  root: string;
  version: string;
  /** The prebuilt app (vite build with base "./"), copied into every site. */
  app: string;
}

export function deeptabPackage(from = fileURLToPath(import.meta.url)): DeeptabPackage {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "deeptab" && pkg.version) return { root: dir, version: pkg.version, app: join(dir, "dist-app") };
  }
  throw new Error(`no deeptab package.json above ${from}`);
}
