/**
 * A Vite plugin (build only) that keeps what LangChain's packages do and drops bytes a browser would load for
 * nothing, in the app's bundles (the agent worker's startup JS above all):
 *
 * - `@langchain/core/load` (which LangGraph's checkpoint serializer imports to revive messages) imports the whole of
 *   LangChain's core statically through its import map (`load/import_map.js`: every prompt, parser, retriever,
 *   tracer and testing helper; ≈ 26 KiB gzip of the worker's startup JS), for the one case where a checkpoint holds a
 *   serialized LangChain object. `load()` is async already: the map is imported there, on the first object that
 *   needs it (the same module, so the same classes), and everything else of `load()` is unchanged.
 * - LangChain's core, LangGraph, LangGraph's checkpoint package and LangSmith declare no `sideEffects`, so the
 *   bundler keeps every module their barrels name even when nothing of it is used (the XML parser and its SAX reader,
 *   message history runnables, LangSmith's prompt cache, …; ≈ 15 KiB gzip). Their modules only define and export
 *   (checked when this was written: the modules this drops are barrels and definitions; LangSmith's prompt cache
 *   starts its refresh timer only when something is cached), so they are marked free of side effects: a module stays
 *   when something of it is used, exactly as before.
 *
 * Node code (tests, scripts, the server path) keeps the packages as they are.
 */
import type { Plugin } from "vite";

/** The packages whose modules are marked free of side effects. */
const PURE =
  /[\\/]node_modules[\\/]@langchain[\\/](core|langgraph|langgraph-checkpoint)[\\/]dist[\\/]|[\\/]node_modules[\\/]langsmith[\\/]/;
/** `@langchain/core/load`'s module. */
const LOAD = /[\\/]node_modules[\\/]@langchain[\\/]core[\\/]dist[\\/]load[\\/]index\.js$/;

const STATIC_MAP = 'import { import_map_exports } from "./import_map.js";\n';
const MAP_USE = "langchain_core: import_map_exports,";
/** The map, imported when a serialized object of LangChain's core namespace is revived (the only reader of it). */
const LAZY_MAP_USE = 'langchain_core: namespace[0] === "langchain_core" ? (await import("./import_map.js")).import_map_exports : void 0,';

/**
 * `@langchain/core/load`'s code with its import map imported on demand. Throws when the code is not the shape this
 * was written for (a new @langchain/core): the build fails rather than silently loading the whole core again.
 */
export function lazyImportMap(code: string): string {
  if (!code.includes(STATIC_MAP) || code.split(MAP_USE).length !== 2 || !code.includes("async function reviver("))
    throw new Error("langchain-lean: @langchain/core/dist/load/index.js changed; update scripts/langchain-lean/plugin.ts");
  return code.replace(STATIC_MAP, "").replace(MAP_USE, LAZY_MAP_USE);
}

export function langchainLean(): Plugin {
  return {
    name: "deeptab:langchain-lean",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!importer || (!PURE.test(importer) && !source.startsWith("@langchain/") && !source.startsWith("langsmith"))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && !resolved.external && PURE.test(resolved.id) ? { ...resolved, moduleSideEffects: false } : null;
    },
    transform(code, id) {
      return LOAD.test(id) ? { code: lazyImportMap(code), map: null } : null;
    },
  };
}
