/**
 * A Vite plugin (build only) that keeps what LangChain's packages do and drops bytes a browser would load for
 * nothing, in the app's bundles (the agent worker's startup JS above all):
 *
 * - `@langchain/core/load` (which LangGraph's checkpoint serializer imports to revive messages) imports the whole of
 *   LangChain's core statically through its import map (`load/import_map.js`: every prompt, parser, retriever,
 *   tracer and testing helper; ≈ 26 KiB gzip of the worker's startup JS), though what a checkpoint holds is messages.
 *   A message is revived with its class taken from the module the map's `messages` entry is (classes the worker
 *   has loaded already), so reading a thread, and with it a first run, loads nothing more (it used to load the
 *   whole map, seven chunks one after another). Any other serialized object imports the map where `load()` needs
 *   it (it is async already), and everything else of `load()` is unchanged.
 * - `@langchain/core/runnables` imports the tracers behind `streamLog()` and `streamEvents()` (and with them a JSON
 *   Patch library) for every runnable, though only those two methods build the tracers; the other methods only ask
 *   whether a handler is one, by its name. The two modules load when one of those methods runs (the same modules, so
 *   the same classes), and the name checks are the packages' own one-line tests (≈ 4 KiB gzip).
 * - `@langchain/core/language_models/base` imports js-tiktoken's tokenizer for `getNumTokens()`, which deeptab never
 *   calls (it fetches the encoding from a CDN); it loads when something calls it (≈ 2 KiB gzip).
 * - LangChain's core, LangGraph, LangGraph's checkpoint package and LangSmith declare no `sideEffects`, so the
 *   bundler keeps every module their barrels name even when nothing of it is used (the XML parser and its SAX reader,
 *   message history runnables, LangSmith's prompt cache, …; ≈ 15 KiB gzip). Their modules only define and export
 *   (checked when this was written: the modules this drops are barrels and definitions; LangSmith's prompt cache
 *   starts its refresh timer only when something is cached), so they are marked free of side effects: a module stays
 *   when something of it is used, exactly as before.
 *
 * Node code (tests, scripts, the server path) keeps the packages as they are.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

/** The packages whose modules are marked free of side effects. */
const PURE =
  /[\\/]node_modules[\\/]@langchain[\\/](core|langgraph|langgraph-checkpoint)[\\/]dist[\\/]|[\\/]node_modules[\\/]langsmith[\\/]/;
const changed = (what: string) =>
  new Error(`langchain-lean: @langchain/core/dist/${what} changed; update scripts/vite/langchain-lean/plugin.ts`);

/** `@langchain/core/load`'s module. */
const LOAD = /[\\/]node_modules[\\/]@langchain[\\/]core[\\/]dist[\\/]load[\\/]index\.js$/;

const STATIC_MAP = 'import { import_map_exports } from "./import_map.js";\n';
/** LangChain's message classes: what a checkpoint holds. */
const MESSAGE_CLASSES = [
  "AIMessage",
  "AIMessageChunk",
  "ChatMessage",
  "ChatMessageChunk",
  "FunctionMessage",
  "FunctionMessageChunk",
  "HumanMessage",
  "HumanMessageChunk",
  "RemoveMessage",
  "SystemMessage",
  "SystemMessageChunk",
  "ToolMessage",
  "ToolMessageChunk",
];
/**
 * The classes, from the module the import map's `messages` entry is (load/import_map.js); named, so the bundler keeps
 * only them. Gathered on the first message revived, and kept.
 */
const MESSAGE_MAP =
  `import { ${MESSAGE_CLASSES.join(", ")} } from "../messages/index.js";\n` +
  "let messageMap;\n" +
  `const messageClasses = () => (messageMap ??= Object.freeze({ ${MESSAGE_CLASSES.join(", ")} }));\n`;
const MAP_USE = "langchain_core: import_map_exports,";
/**
 * The map for a serialized object of LangChain's core namespace (the only reader of it): for one of the message
 * classes under `messages` itself, the map's `messages` entry with only those classes (the lookup finds the same
 * class); for anything else, the whole map, imported then.
 */
const LAZY_MAP_USE =
  'langchain_core: namespace[0] !== "langchain_core" ? void 0 : ' +
  'namespace.length === 2 && namespace[1] === "messages" && Object.hasOwn(messageClasses(), name) ? { messages: messageClasses() } : ' +
  '(await import("./import_map.js")).import_map_exports,';
/** The map's entry {@link MESSAGE_MAP} stands in for, and where the map takes it from. */
const MAP_MESSAGES = ["\tmessages: () => messages_exports,\n", 'import { messages_exports } from "../messages/index.js";\n'];

/**
 * `@langchain/core/load`'s code with messages revived from the import map's message entries and the map imported on
 * demand for anything else; `importMap` is the installed `load/import_map.js`. Throws when either is not the shape
 * this was written for (a new @langchain/core): the build fails rather than silently loading the whole core again,
 * or reviving a message from another module than the map's.
 */
export function lazyImportMap(code: string, importMap: string): string {
  if (!code.includes(STATIC_MAP) || code.split(MAP_USE).length !== 2 || !code.includes("async function reviver("))
    throw changed("load/index.js");
  // The name and namespace the map is chosen by are known where the map is built.
  if (!code.includes("const [name, ...namespaceReverse] = serialized.id.slice().reverse();")) throw changed("load/index.js");
  if (MAP_MESSAGES.some((line) => !importMap.includes(line))) throw changed("load/import_map.js");
  return code.replace(STATIC_MAP, MESSAGE_MAP).replace(MAP_USE, LAZY_MAP_USE);
}

/** `@langchain/core/runnables`' base module. */
const RUNNABLES = /[\\/]node_modules[\\/]@langchain[\\/]core[\\/]dist[\\/]runnables[\\/]base\.js$/;
/** `@langchain/core/language_models`' base module. */
const LANGUAGE_MODELS = /[\\/]node_modules[\\/]@langchain[\\/]core[\\/]dist[\\/]language_models[\\/]base\.js$/;

const TRACER_IMPORTS =
  'import { LogStreamCallbackHandler, RunLog, RunLogPatch, isLogStreamHandler } from "../tracers/log_stream.js";\n' +
  'import { EventStreamCallbackHandler, isStreamEventsHandler } from "../tracers/event_stream.js";\n';
/** The packages' own checks (tracers/log_stream.js, tracers/event_stream.js), which need no tracer loaded. */
const TRACER_CHECKS =
  'const isLogStreamHandler = (handler) => handler.name === "log_stream_tracer";\n' +
  'const isStreamEventsHandler = (handler) => handler.name === "event_stream_tracer";\n';
/** The methods that build tracers, each of which gets them from a dynamic import first. */
const TRACER_METHODS = ["async *streamLog(", "async *_streamLog(", "async *_streamEventsV1(", "async *_streamEventsV2("];
const TRACER_LOAD =
  'const { LogStreamCallbackHandler, RunLog, RunLogPatch } = await import("../tracers/log_stream.js");\n' +
  'const { EventStreamCallbackHandler } = await import("../tracers/event_stream.js");\n';

/**
 * `@langchain/core/runnables`' base module with the stream tracers imported by the methods that build them. Throws
 * when the code is not the shape this was written for, or when the packages' handler checks are no longer the names.
 */
export function lazyStreamTracers(code: string, tracers: { logStream: string; eventStream: string }): string {
  const [logCheck, eventCheck] = TRACER_CHECKS.split("\n");
  if (!code.includes(TRACER_IMPORTS)) throw changed("runnables/base.js");
  if (!tracers.logStream.includes(logCheck!)) throw changed("tracers/log_stream.js");
  if (!tracers.eventStream.includes(eventCheck!)) throw changed("tracers/event_stream.js");
  let out = code.replace(TRACER_IMPORTS, TRACER_CHECKS);
  for (const method of TRACER_METHODS) {
    const parts = out.split(method);
    if (parts.length !== 2) throw changed("runnables/base.js");
    const open = parts[1].indexOf("{\n");
    if (open < 0) throw changed("runnables/base.js");
    out = parts[0] + method + parts[1].slice(0, open + 2) + TRACER_LOAD + parts[1].slice(open + 2);
  }
  // Every use of the tracers' classes is now inside one of those methods.
  return out;
}

const TIKTOKEN_IMPORT = 'import { encodingForModel } from "../utils/tiktoken.js";\n';
const TIKTOKEN_LAZY = 'const encodingForModel = async (model) => (await import("../utils/tiktoken.js")).encodingForModel(model);\n';

/** `@langchain/core/language_models`' base module with js-tiktoken imported on the first token count. */
export function lazyTiktoken(code: string): string {
  // The lazy function returns a promise: every use must await it (as each does today).
  const uses = code.split("encodingForModel(").length - 1;
  if (!code.includes(TIKTOKEN_IMPORT) || uses === 0 || code.split("await encodingForModel(").length - 1 !== uses)
    throw changed("language_models/base.js");
  return code.replace(TIKTOKEN_IMPORT, TIKTOKEN_LAZY);
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
    async transform(code, id) {
      if (LOAD.test(id)) return { code: lazyImportMap(code, await readFile(join(dirname(id), "import_map.js"), "utf8")), map: null };
      if (LANGUAGE_MODELS.test(id)) return { code: lazyTiktoken(code), map: null };
      if (!RUNNABLES.test(id)) return null;
      const tracer = (name: string) => readFile(join(dirname(id), "..", "tracers", name), "utf8");
      const [logStream, eventStream] = await Promise.all([tracer("log_stream.js"), tracer("event_stream.js")]);
      return { code: lazyStreamTracers(code, { logStream, eventStream }), map: null };
    },
  };
}
