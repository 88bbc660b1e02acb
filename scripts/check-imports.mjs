// The import rules of src/, checked by `npm run check`. The check fails closed: a load it cannot follow is a
// violation, never skipped.
//
// What a load is (scripts/imports/loads.mjs). Every module of src/ (.ts, .svelte, and any other JavaScript or
// TypeScript file) is parsed with a real parser: static `import`/`export … from`, type imports, dynamic
// `import()`, `require()`, `new URL("…", import.meta.url)` (so `new Worker(new URL(…))`), `import.meta.resolve()`
// and `import.meta.glob()` count; comments and strings do not. A load whose module is not written as a string
// (`import(name)`) is a violation unless UNFOLLOWED lists it (tests and testing/ may). A load naming a URL
// (`https:`, `data:`) is a violation: the app loads code only from its own origin.
// How it resolves (scripts/imports/resolve.mjs): as Vite does for the app's build (extensionless, `.js` for `.ts`,
// a directory's index, `?url`/`?worker` suffixes, `/` from the project root, bare names through node_modules and
// the package's own name). A load that does not resolve is a violation, in tests too.
//
// 1. Rooms point one way. Top to bottom; rooms on one line sit beside each other and do not import each other:
//
//      ui/                the Svelte app; reaches the agent only through page/ and protocol/ (it imports ui/,
//                         page/, protocol/, core/), never worker/
//      page/ | worker/ | server/
//                         where code runs: page/ the page-side clients (the agent worker's client, the LangGraph
//                         client and runtime) and the hosts the page provides the worker (WebContainer, Chrome's
//                         Prompt API); worker/ the agent worker (its entry, the API it exposes, its services in
//                         folders: agents/, threads/, runs/, models/, mcp/, settings/); server/ Node's composition
//                         root (the LangGraph server's graph, Postgres wiring), which never reaches anything
//                         browser-only (rule 4). The three never import each other: page/ reaches the worker only
//                         through protocol/ and a message channel. One load is allowed across (SPAWN): page/spawn.ts
//                         names worker/agent.worker.ts in `new Worker(new URL(…))`, the one place the page starts it.
//      protocol/          what the page and the worker say to each other: the worker's API, messages, events,
//                         threads, agents, settings, the one error shape; plain types and data both sides import
//      agent-folders/     agents defined in files (AGENTS.md, agent.yaml, subagents, skills, starter files):
//                         loading, validating, hashing; the composition roots turn them into createDeepAgent options
//      models/            chat models: providers, the demo's scripted model, llama.cpp in the tab, Chrome's model
//      agent/             createDeepAgent: the agent's composition and the built-in middleware order
//      tools/             tool sources: the MCP client, fetch_url, provider-native search, interpreter tools
//      middleware/        filesystem, eviction, summarization, subagents, approvals, skills, memory, todos, …
//      context/           context engineering as pure functions
//      harness/           the loop, the middleware contract, tool execution, interrupts
//      backends/sandbox/  what runs commands and code over a backend's files: the shell, WebContainer, and the
//                         interpreters (QuickJS, Pyodide), each in its own folder here
//      backends/          the protocol, FileBackend and its stores, composite, permissions, globs, paths
//      storage/           IndexedDB: checkpointer, store, one connection/transaction runner
//
//    A module may import its own room and any room on a line below it; a room inside another (backends/sandbox/
//    in backends/) is a room of its own. Every other folder inside a room is a folder of that room, not a room
//    (worker/threads/, worker/runs/, ui/settings/: they import each other freely). `core/` is a leaf every module
//    may import; it imports only itself.
//    `testing/` holds test helpers: it may import anything, and only tests and testing/ import it.
//    Tests (*.test.ts) may import anything. Every other folder of src/ is a violation until it has a line here.
// 2. Files at the src/ root are entries, each with the rooms it may import (ROOT_FILES); nothing but tests
//    imports them, and any other file at the root is a violation.
// 3. Node built-ins and Node-only packages (NODE_ONLY) are imported only by server/, testing/ and tests, and
//    nothing but tests imports server/: nothing Node-only reaches the page or worker bundles.
// 4. server/ reaches no browser-only room or package (BROWSER_ONLY) through any chain of value imports.
// 5. No import cycles among non-test modules (type-only imports and `new URL` references excepted).
//
// Usage: node scripts/check-imports.mjs [srcDir]. Exits 1 and prints every violation.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import { loadsOf } from "./imports/loads.mjs";
import { createResolver, isNodeBuiltin, isPath, isUrl, projectOf } from "./imports/resolve.mjs";

export { VITE_RESOLVE } from "./imports/resolve.mjs";

/** The rooms, top to bottom; the rooms of one line sit beside each other (see the header). */
export const LAYERS = [
  ["ui"],
  ["page", "worker", "server"],
  ["protocol"],
  ["agent-folders"],
  ["models"],
  ["agent"],
  ["tools"],
  ["middleware"],
  ["context"],
  ["harness"],
  ["backends/sandbox"],
  ["backends"],
  ["storage"],
];
const LEAF = "core";
const TESTING = "testing";
const SERVER = "server";
/** Rooms that import only the rooms listed (besides themselves and core/). */
const ONLY = { ui: ["page", "protocol"] };

/**
 * The one load across a line of rooms: the page starts the agent worker here, and nowhere else, by its entry's URL
 * (a `new URL` reference, which Vite bundles as the worker's own chunk; it evaluates nothing of the worker's room).
 */
export const SPAWN = { file: "page/spawn.ts", kind: "url", target: "worker/agent.worker.ts" };

/** The files at the src/ root: what each is, and the rooms it may import (core/ always). */
export const ROOT_FILES = {
  "index.ts": {
    what: "the library entry (browser-safe)",
    imports: ["agent-folders", "models", "agent", "tools", "middleware", "context", "harness", "backends/sandbox", "backends", "storage"],
  },
  "main.ts": { what: "the page entry", imports: ["ui", "page", "protocol"] },
  "oauth-callback.ts": { what: "the OAuth callback page's entry (oauth-callback.html)", imports: ["ui"] },
};

/**
 * Packages that run only in Node (they pull Node built-ins into a bundle): `name` is that specifier exactly,
 * `name/*` also everything under it. Only server/, testing/ and tests import them.
 */
export const NODE_ONLY = [
  "@langchain/langgraph", // the web-safe entry is @langchain/langgraph/web
  "@langchain/core/context",
  "@langchain/core/callbacks/dispatch",
  "@langchain/langgraph-api/*",
  "@langchain/langgraph-cli/*",
  "@langchain/langgraph-checkpoint-postgres/*",
  "@langchain/mcp-adapters/*",
  "@modelcontextprotocol/sdk/client/stdio.js",
  "@modelcontextprotocol/sdk/server/*", // the SDK's server side (node:http, express): only tests' loopback servers
  "@modelcontextprotocol/client/stdio", // spawns processes
  "@modelcontextprotocol/server/*", // the 2.x server side: only tests' loopback servers
  "pg/*",
];

/** What runs only in a browser: server/ reaches none of it through value imports. */
export const BROWSER_ONLY = {
  rooms: ["ui", "page", "worker", "storage"],
  // Not just-bash/browser: it is just-bash without its Node file systems and runs in Node too (the unit project runs
  // backends/sandbox/shell.test.ts on it); the server's `execute` runs on it, inline.
  packages: ["svelte/*", "idb/*", "comlink/*", "@webcontainer/api/*", "@wllama/wllama/*"],
};

/**
 * Loads the check cannot follow (a module name computed at run time), allowed one by one:
 * { file: path under src/, kind: "dynamic" | "url" | "glob" | "require" | "resolve", why }. Every other load
 * in src/ names its module.
 */
export const UNFOLLOWED = [
  {
    file: "backends/sandbox/shell.ts",
    kind: "dynamic",
    why:
      "the offline shell's interpreter on the caller's thread (./shell-runner.ts, the same room), for places without " +
      "Web Workers (Node): a computed name, so browser bundles, which run commands on the shell's worker, carry no " +
      "second copy of just-bash",
  },
  {
    file: "backends/sandbox/shell.ts",
    kind: "url",
    why:
      'the same interpreter\'s URL (./shell-runner.ts) from a constant: Vite inlines a literal `new URL("./x.ts", ' +
      "import.meta.url)` as a base64 data URL of the source, which the agent worker would carry for a path it never takes",
  },
];

const MODULE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx|svelte)$/;
const isTest = (file) => /\.test\.[cm]?[jt]sx?$/.test(file);
const matches = (spec, entry) =>
  entry.endsWith("/*") ? spec === entry.slice(0, -2) || spec.startsWith(entry.slice(0, -1)) : spec === entry;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (MODULE.test(name)) out.push(p);
  }
  return out;
}

/** The room of a file under src/: the longest room path holding it, "core", "testing", "root:<name>", or "?<dir>". */
export function areaOf(root, file) {
  const rel = relative(root, file).split(sep);
  if (rel.length === 1) return `root:${rel[0]}`;
  const dir = rel.slice(0, -1).join("/");
  const rooms = [...LAYERS.flat(), LEAF, TESTING].sort((a, b) => b.length - a.length);
  return rooms.find((room) => dir === room || dir.startsWith(`${room}/`)) ?? `?${rel[0]}`;
}

const rankOf = (area) => LAYERS.findIndex((line) => line.includes(area));

/** Why a module in room `a` may not import a module in room `b`, or undefined. */
export function roomViolation(a, b) {
  if (b === TESTING && a !== TESTING) return "only tests and testing/ may import testing/";
  if (a.startsWith("?")) return `${a.slice(1)}/ is not a room (see LAYERS in scripts/check-imports.mjs)`;
  if (b.startsWith("?")) return `${b.slice(1)}/ is not a room (see LAYERS in scripts/check-imports.mjs)`;
  if (a === TESTING || b === LEAF || a === b) return undefined;
  if (a === LEAF) return "core/ is a leaf: it imports nothing of src/";
  if (b.startsWith("root:")) return "nothing but tests imports the entry files";
  if (a.startsWith("root:")) {
    const entry = ROOT_FILES[a.slice(5)];
    if (!entry) return undefined; // reported once, as a file that may not be at the root
    return entry.imports.includes(b) ? undefined : `${a.slice(5)} (${entry.what}) may import ${entry.imports.join("/, ")}/ and core/ only`;
  }
  if (b === SERVER) return "nothing but tests imports server/ (the Node composition root)";
  if (ONLY[a] && !ONLY[a].includes(b)) return `${a}/ reaches the agent only through ${ONLY[a].join("/ and ")}/`;
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (rb === ra) return `${a}/ and ${b}/ sit beside each other: neither imports the other`;
  return rb < ra ? `${a}/ may not import ${b}/ (it is above ${a}/ in the layer order)` : undefined;
}

/** Matches of an `import.meta.glob` pattern (relative to the file, or `/` from the project root), or undefined. */
function expandGlob(file, pattern, project) {
  const negated = pattern.startsWith("!");
  const body = negated ? pattern.slice(1) : pattern;
  if (!isPath(body)) return undefined;
  const abs = body.startsWith("/") ? join(project, body) : resolve(dirname(file), body);
  const parts = abs.split("/");
  const fixed = parts.findIndex((p) => /[*?[\]{}()!]/.test(p));
  const base = fixed < 0 ? dirname(abs) : parts.slice(0, fixed).join("/") || "/";
  const isMatch = picomatch(abs);
  return { negated, files: existsSync(base) ? walk(base).filter((f) => isMatch(f)) : [] };
}

/**
 * Checks the modules under `root` (a src/ folder; its parent holds node_modules/).
 * @returns {{ modules: number, violations: string[], cycles: string[] }}
 */
export function checkImports(root) {
  root = resolve(root);
  const project = projectOf(root);
  const resolver = createResolver(project);
  const files = walk(root);
  const violations = [];
  const graph = new Map(); // non-test module -> modules it evaluates (cycles)
  const values = new Map(); // module -> { targets, packages } of its value loads (server reachability)
  const name = (p) => (p.startsWith(root + sep) ? relative(root, p).split(sep).join("/") : relative(project, p).split(sep).join("/"));

  for (const file of files) {
    const rel = name(file);
    const test = isTest(file);
    const area = areaOf(root, file);
    const free = test || area === TESTING; // may import anything
    const report = (line, what, why) => violations.push(`${rel}:${line} ${what}: ${why}`);
    if (area.startsWith("root:") && !test && !ROOT_FILES[area.slice(5)]) {
      report(1, "is a file at the src/ root", `only ${Object.keys(ROOT_FILES).join(", ")} (and tests) live there (see ROOT_FILES)`);
    }
    if (area.startsWith("?") && !test) report(1, "is in no room", roomViolation(area, LEAF));
    let loads;
    try {
      loads = loadsOf(readFileSync(file, "utf8"), file);
    } catch (error) {
      report(1, "does not parse", String(error?.message ?? error).split("\n")[0]);
      continue;
    }
    const deps = [];
    const value = { targets: [], packages: [] };
    for (const load of loads) {
      const { kind, spec, typeOnly, line } = load;
      if (spec === undefined) {
        const allowed = UNFOLLOWED.some((u) => u.file === rel && u.kind === kind);
        if (!free && !allowed)
          report(
            line,
            `loads a module named at run time (${kind})`,
            "the check cannot follow it; name the module as a string (or list it in UNFOLLOWED with why)",
          );
        continue;
      }
      if (isUrl(spec)) {
        if (!test) report(line, `loads "${spec}"`, "code comes only from the app's own origin");
        continue;
      }
      if (isNodeBuiltin(spec) || NODE_ONLY.some((entry) => matches(spec, entry))) {
        if (!free && area !== SERVER)
          report(line, `imports "${spec}"`, "Node-only: only server/, testing/ and tests import it (the page and worker bundles must not)");
        if (!typeOnly) value.packages.push(spec);
        continue;
      }
      let targets;
      if (kind === "glob") {
        const found = expandGlob(file, spec, project);
        if (!found) {
          report(line, `globs "${spec}"`, "a glob must be a path (./, ../ or /)");
          continue;
        }
        if (found.negated) continue;
        targets = found.files;
      } else {
        const target = resolver.resolve(file, kind === "url" && !isPath(spec) ? `./${spec}` : spec, {
          node: free || area === SERVER,
          typeOnly,
        });
        if (!target) {
          report(line, `imports "${spec}"`, "it does not resolve as the bundler resolves it (the check fails closed)");
          continue;
        }
        targets = [target];
      }
      for (const target of targets) {
        const inSrc = target.startsWith(root + sep);
        if (!inSrc) {
          const external = target.split(sep).includes("node_modules");
          if (!external && !free) report(line, `imports ${name(target)}`, "it is outside src/");
          if (external && !isPath(spec) && !typeOnly) value.packages.push(spec);
          continue;
        }
        const spawn = kind === SPAWN.kind && rel === SPAWN.file && name(target) === SPAWN.target;
        const why = test || spawn ? undefined : isTest(target) ? "only tests import tests" : roomViolation(area, areaOf(root, target));
        if (why) report(line, `imports ${name(target)}`, why);
        if (!typeOnly) value.targets.push(target);
        // A component that renders itself (a nested tree) is recursion, not a cycle between modules.
        if (!typeOnly && kind !== "url" && !test && !isTest(target) && target !== file) deps.push(target);
      }
    }
    values.set(file, value);
    if (!test) graph.set(file, deps);
  }

  violations.push(...browserOnlyFromServer(root, values, name));
  return { modules: graph.size, violations, cycles: cyclesOf(graph, name) };
}

/** Rule 4: every chain of value imports from a server/ module to something browser-only. */
function browserOnlyFromServer(root, values, name) {
  const out = [];
  const browserOnly = (file) => BROWSER_ONLY.rooms.includes(areaOf(root, file));
  for (const start of values.keys()) {
    if (areaOf(root, start) !== SERVER || isTest(start)) continue;
    const from = new Map([[start, undefined]]);
    const queue = [start];
    const chain = (file) => {
      const path = [];
      for (let f = file; f; f = from.get(f)) path.unshift(name(f));
      return path.join(" -> ");
    };
    while (queue.length) {
      const file = queue.shift();
      const { targets = [], packages = [] } = values.get(file) ?? {};
      for (const spec of packages) {
        if (BROWSER_ONLY.packages.some((entry) => matches(spec, entry))) {
          out.push(`${name(start)} reaches "${spec}" (browser-only) through ${chain(file)}: server/ imports nothing browser-only`);
        }
      }
      for (const target of targets) {
        if (from.has(target)) continue;
        from.set(target, file);
        if (browserOnly(target))
          out.push(`${name(start)} reaches ${name(target)} (browser-only) through ${chain(target)}: server/ imports nothing browser-only`);
        else queue.push(target);
      }
    }
  }
  return out;
}

/** Rule 5: the import cycles of a module graph, each as "a -> b -> a". */
function cyclesOf(graph, name) {
  const state = new Map();
  const cycles = [];
  const visit = (node, stack) => {
    state.set(node, 1);
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (state.get(dep) === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep].map(name).join(" -> "));
      else if (!state.has(dep)) visit(dep, stack);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f, []);
  return cycles;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? "src");
  const { modules, violations, cycles } = checkImports(root);
  for (const v of violations) console.error(`layer violation: ${v}`);
  for (const c of cycles) console.error(`import cycle: ${c}`);
  if (violations.length || cycles.length) process.exit(1);
  console.log(`imports ok: ${modules} modules, rooms ${LAYERS.map((line) => line.join(" | ")).join(" → ")}, no cycles`);
}
