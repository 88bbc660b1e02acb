// After `vite build`: fails when any emitted JavaScript (page and worker
// chunks) imports a Node built-in (`node:*`, or a bare built-in name such as
// `async_hooks`), whether by static import/export, dynamic import() or
// require(); the files are parsed, so only real imports count. Such an import means a
// Node-only module slipped into the browser bundle (the usual culprit is
// `@langchain/core/context` or `callbacks/dispatch`, which pull
// `node:async_hooks`; import `@langchain/langgraph/web` instead).
//
// Also checks that the cross-origin isolation service worker in dist/ is the
// one the `coi-serviceworker` dependency ships.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve } from "node:path";
import { parseAst } from "rolldown/parseAst";

/** The build output; a different folder may be named as the first argument. */
const dist = resolve(process.argv[2] ?? "dist");

/**
 * Allowed occurrences, by name: { file: RegExp on the dist-relative path,
 * specifier, why }. Empty: nothing in the bundle needs one. An entry is only
 * for a dependency's guarded dynamic `import("node:…")` that cannot run in a
 * browser, and needs a browser test proving the guarded path is never taken.
 */
const allowlist = [];

/** A module specifier that names a Node built-in: `node:*` or a bare built-in name such as `async_hooks`. */
const builtins = new Set(builtinModules.filter((name) => !name.startsWith("_")));
const isNodeBuiltin = (spec) => spec.startsWith("node:") || builtins.has(spec);

/** The string value of a literal or an expression-free template literal. */
function stringValue(node) {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/**
 * Every Node built-in the program imports, from its AST (so text inside
 * strings and comments, e.g. an error message that says "import('node:buffer')",
 * is not mistaken for an import). Also any string that is exactly
 * "async_hooks" or "node:async_hooks", wherever it appears.
 */
function findNodeImports(program) {
  const found = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    let spec;
    let kind;
    switch (node.type) {
      case "ImportDeclaration":
      case "ExportAllDeclaration":
      case "ExportNamedDeclaration":
        spec = stringValue(node.source);
        kind = "static import";
        break;
      case "ImportExpression":
        spec = stringValue(node.source);
        kind = "dynamic import()";
        break;
      case "CallExpression":
        if (node.callee?.type === "Identifier" && node.callee.name === "require") {
          spec = stringValue(node.arguments[0]);
          kind = "require()";
        }
        break;
      case "Literal":
      case "TemplateLiteral": {
        const value = stringValue(node);
        if (value === "async_hooks" || value === "node:async_hooks") found.push({ kind: "string", spec: value, at: node.start });
        return;
      }
    }
    if (spec !== undefined && isNodeBuiltin(spec)) {
      found.push({ kind, spec, at: node.start });
      return;
    }
    for (const key in node) if (key !== "type" && key !== "start" && key !== "end") visit(node[key]);
  };
  visit(program);
  return found;
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(m?js)$/.test(name)) out.push(p);
  }
  return out;
}

function location(src, index) {
  const before = src.slice(0, index);
  const line = before.split("\n").length;
  const column = index - before.lastIndexOf("\n");
  return `${line}:${column}`;
}

let files;
try {
  files = walk(dist);
} catch {
  console.error("check-bundle: no dist/ directory; run `vite build` first.");
  process.exit(1);
}
if (files.length === 0) {
  console.error("check-bundle: dist/ holds no .js files; the build emitted nothing to check.");
  process.exit(1);
}

// The agent worker must be a separate chunk: an inlined (data: URL) worker would escape this scan.
const workers = files.filter((f) => /\.worker-[\w-]+\.m?js$/.test(f));
if (workers.length === 0) {
  console.error("check-bundle: no *.worker-*.js chunk in dist/assets; was the agent worker inlined or not built?");
  process.exit(1);
}

const problems = [];
let bytes = 0;
for (const file of files) {
  const src = readFileSync(file, "utf8");
  bytes += Buffer.byteLength(src);
  const rel = relative(dist, file);
  for (const { kind, spec, at } of findNodeImports(parseAst(src, { sourceType: "module" }, rel))) {
    if (allowlist.some((a) => a.file.test(rel) && a.specifier === spec)) continue;
    const snippet = src.slice(Math.max(0, at - 30), at + 70).replace(/\s+/g, " ");
    problems.push(`  ${relative(process.cwd(), file)}:${location(src, at)}  ${kind} of "${spec}"\n      …${snippet}…`);
  }
}

const coiShipped = resolve("node_modules/coi-serviceworker/coi-serviceworker.js");
let coiProblem = "";
try {
  if (readFileSync(join(dist, "coi-serviceworker.js"), "utf8") !== readFileSync(coiShipped, "utf8")) {
    coiProblem =
      "dist/coi-serviceworker.js differs from the coi-serviceworker package; run `cp node_modules/coi-serviceworker/coi-serviceworker.js public/`.";
  }
} catch (err) {
  coiProblem = `coi-serviceworker check failed: ${err.message}`;
}

const kb = (bytes / 1024).toFixed(1);
if (problems.length || coiProblem) {
  if (problems.length) {
    console.error(`check-bundle: ${problems.length} Node built-in import(s) in the browser bundle:\n${problems.join("\n")}`);
    console.error("Import browser-safe entries (@langchain/langgraph/web; never @langchain/core/context or callbacks/dispatch).");
  }
  if (coiProblem) console.error(`check-bundle: ${coiProblem}`);
  process.exit(1);
}
console.log(
  `check-bundle: ok, ${files.length} .js files scanned (${workers.length} worker chunk(s)), ${kb} KiB, no Node built-in imports.`,
);
