// Resolves a load as the bundler does, with oxc-resolver (the resolver rolldown, Vite's bundler, is built on),
// configured with Vite's own resolve options for the app's client build: its extensions (so `./x` finds x.ts,
// never x.svelte), `.js` written for a `.ts` file, a directory's index, its export conditions and main fields,
// `/…` from the project root, bare names through node_modules (and the package's own name, self-reference), and
// a query suffix (`?url`, `?worker`, `?raw`) dropped. scripts/check-imports.test.ts holds VITE_RESOLVE equal to
// what vite.config.ts resolves to, so a change there (an alias, a new extension) fails that test until it is
// mirrored here.
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { ResolverFactory } from "oxc-resolver";

/** Vite's client-build resolve options for vite.config.ts (with @sveltejs/vite-plugin-svelte's additions). */
export const VITE_RESOLVE = {
  extensions: [".mjs", ".js", ".mts", ".ts", ".jsx", ".tsx", ".json"],
  conditions: ["module", "browser", "development|production", "svelte"],
  mainFields: ["svelte", "browser", "module", "jsnext:main", "jsnext"],
  alias: [],
};

/** Node's conditions, for what runs in Node (server/, testing/, tests) when a package has no browser build. */
const NODE_CONDITIONS = ["module", "node", "development|production", "svelte"];

const builtins = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** `node:*`, or a bare built-in name such as `fs` or `fs/promises`. */
export function isNodeBuiltin(spec) {
  return spec.startsWith("node:") || builtins.has(spec);
}

/** A specifier with a URL scheme (`https:`, `data:`, `blob:`): not a module of this project. `node:` is not one. */
export function isUrl(spec) {
  return /^[a-z][a-z0-9+.-]*:/i.test(spec) && !spec.startsWith("node:");
}

/** `./`, `../`, `/`: a path, not a package name. */
export function isPath(spec) {
  return spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("/") || spec === "." || spec === "..";
}

function options(conditions) {
  return {
    extensions: VITE_RESOLVE.extensions,
    // A TypeScript importer may name its import by the compiled name; Vite then tries the source.
    extensionAlias: { ".js": [".js", ".ts", ".tsx"], ".jsx": [".jsx", ".tsx"], ".mjs": [".mjs", ".mts"], ".cjs": [".cjs", ".cts"] },
    conditionNames: ["import", ...conditions.map((c) => (c === "development|production" ? "production" : c)), "default"],
    mainFields: [...VITE_RESOLVE.mainFields, "main"],
    mainFiles: ["index"],
    aliasFields: [["browser"]],
    builtinModules: false,
  };
}

/**
 * A resolver for the project at `projectRoot` (the folder holding src/ and node_modules/).
 * `resolve(file, spec, { node, typeOnly })` gives the absolute path a load of `spec` from `file` reaches, or
 * undefined when the bundler would not find it. `node`: may also resolve with Node's conditions; `typeOnly`: may
 * also resolve to type declarations (a type import is erased, so it only needs the types).
 */
export function createResolver(projectRoot) {
  const browser = new ResolverFactory({ ...options(VITE_RESOLVE.conditions), roots: [projectRoot] });
  const node = browser.cloneWithOptions({ ...options(NODE_CONDITIONS), roots: [projectRoot] });
  return {
    resolve(file, spec, { node: nodeToo = false, typeOnly = false } = {}) {
      const request = spec.replace(/\?.*$/, "");
      // Vite resolves `/x` from the project root first (a file system path only when it exists outside of it).
      const dir = dirname(file);
      const tries = [() => browser.sync(dir, request)];
      if (nodeToo) tries.push(() => node.sync(dir, request));
      if (typeOnly) tries.push(() => browser.resolveDtsSync(file, request));
      if (request.startsWith("/")) tries.unshift(() => browser.sync(projectRoot, `.${request}`));
      for (const attempt of tries) {
        const { path } = attempt();
        if (path) return path;
      }
      return undefined;
    },
  };
}

/** The project folder of a src/ folder. */
export function projectOf(srcRoot) {
  return join(srcRoot, "..");
}
