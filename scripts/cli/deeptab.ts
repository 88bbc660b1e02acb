#!/usr/bin/env node
/**
 * The `deeptab` command (the package's `bin`):
 *
 *   deeptab new <dir> [--deeptab <spec>]   a new site: agents/<dir>/, package.json, Pages workflow, README
 *   deeptab build [--out <dir>] [--default <folder>]   the app and the site's agents/ into dist/
 *   deeptab serve [<dir>] [--base /<repo>/] [--port <n>]   serves a build as GitHub Pages would (default dist/, /)
 */
import { parseArgs } from "node:util";
import { startStaticServer } from "../static-server.ts";
import { deeptabPackage } from "./package-root.ts";
import { buildSite, newSite } from "./site.ts";

const USAGE = `usage:
  deeptab new <dir> [--deeptab <spec>]              start a site with one agent in <dir>
  deeptab build [--out <dir>] [--default <folder>]  build the site (the app and agents/) into dist/
  deeptab serve [<dir>] [--base /<repo>/] [--port <n>]  serve a build locally (default dist/ at /, port 4173)`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      deeptab: { type: "string" },
      out: { type: "string" },
      default: { type: "string" },
      base: { type: "string" },
      port: { type: "string" },
      version: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, arg] = positionals;
  if (values.version) return (void console.log(deeptabPackage().version), 0);
  if (values.help || !command) return (void console.log(USAGE), command || values.help ? 0 : 1);
  switch (command) {
    case "new": {
      if (!arg) throw new Error(`deeptab new needs a folder name\n${USAGE}`);
      const files = await newSite({ dir: arg, ...(values.deeptab ? { deeptab: values.deeptab } : {}) });
      console.log(`Created ${arg}/: ${files.join(", ")}\nNext: cd ${arg} && npm install && npm run build`);
      return 0;
    }
    case "build": {
      const built = await buildSite({
        ...(values.out ? { out: values.out } : {}),
        ...(values.default ? { defaultAgent: values.default } : {}),
      });
      console.log(`Built ${built.out}: agents ${built.agents.join(", ") || "none"}; the service worker precaches ${built.precached} files`);
      return 0;
    }
    case "serve": {
      const server = await startStaticServer({ root: arg ?? "dist", base: values.base ?? "/", port: Number(values.port ?? 4173) });
      console.log(`Serving ${arg ?? "dist"} at ${server.url} (Ctrl-C to stop)`);
      return new Promise<number>(() => {});
    }
    default:
      throw new Error(`unknown command '${command}'\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`deeptab: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
