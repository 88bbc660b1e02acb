// The import rules of src/, checked by `npm run check`:
//
// 1. Layers point one way. Top to bottom:
//      ui → worker → models → agent → middleware → context → harness → backends → storage
//    A module may import its own layer or any layer below it, never one above;
//    ui/ reaches the agent only through worker/ (it imports ui/, worker/ and core/ only).
//    `core/` is a leaf every layer may import; it imports nothing of src/ but itself.
//    `testing/` holds test helpers: it may import anything, and only tests import it.
//    The entries at the root: index.ts (the library) may import any layer except ui/,
//    worker/ and testing/; main.ts (the page) may import anything but testing/.
//    Tests (*.test.ts) may import anything.
// 2. No import cycles among non-test modules (type-only imports excepted).
//
// Usage: node scripts/check-imports.mjs [srcDir]. Exits 1 and prints every violation.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const LAYERS = ["ui", "worker", "models", "agent", "middleware", "context", "harness", "backends", "storage"];
const LEAF = "core";
const TESTING = "testing";

const importRe = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|svelte)$/.test(name)) out.push(p);
  }
  return out;
}

/** Relative imports of a file: [{ spec, typeOnly }]. */
export function importsOf(source) {
  const out = [];
  for (const m of source.matchAll(importRe)) {
    if (m[3]) out.push({ spec: m[3], typeOnly: Boolean(m[2]) });
    else if (m[4]) out.push({ spec: m[4], typeOnly: false });
  }
  return out;
}

const isTest = (file) => /\.test\.ts$/.test(file);

/** The area of a file: a layer name, "core", "testing", or "root:<file>". */
function areaOf(root, file) {
  const rel = relative(root, file).split(sep);
  return rel.length === 1 ? `root:${rel[0]}` : rel[0];
}

/** Why importing `to` from `from` breaks the rules, or undefined. */
export function layerViolation(root, from, to) {
  if (isTest(from)) return undefined;
  const a = areaOf(root, from);
  const b = areaOf(root, to);
  if (b === TESTING && a !== TESTING) return "only tests and testing/ may import testing/";
  if (a === TESTING || b === LEAF || a === b) return undefined;
  if (a === LEAF) return "core/ is a leaf: it imports nothing of src/";
  if (b.startsWith("root:")) return "nothing imports the entry files";
  if (a === "root:index.ts") return ["ui", "worker"].includes(b) ? "the library entry does not export the app (ui/, worker/)" : undefined;
  if (a.startsWith("root:")) return undefined;
  if (a === "ui" && b !== "worker") return "ui/ reaches the agent only through worker/";
  const ra = LAYERS.indexOf(a);
  const rb = LAYERS.indexOf(b);
  if (ra < 0) return `${a}/ is not a layer (see LAYERS in scripts/check-imports.mjs)`;
  if (rb < 0) return `${b}/ is not a layer (see LAYERS in scripts/check-imports.mjs)`;
  return rb < ra ? `${a}/ may not import ${b}/ (it is above ${a}/ in the layer order)` : undefined;
}

export function checkImports(root) {
  const files = walk(root);
  const known = new Set(files);
  const violations = [];
  const graph = new Map();
  for (const file of files) {
    const deps = [];
    for (const { spec, typeOnly } of importsOf(readFileSync(file, "utf8"))) {
      const target = resolve(dirname(file), spec);
      if (!known.has(target)) continue;
      const why = layerViolation(root, file, target);
      if (why) violations.push(`${relative(root, file)} imports ${relative(root, target)}: ${why}`);
      // A component that renders itself (a nested tree) is recursion, not a cycle between modules.
      if (!typeOnly && !isTest(file) && target !== file) deps.push(target);
    }
    if (!isTest(file)) graph.set(file, deps);
  }
  const state = new Map();
  const cycles = [];
  const visit = (node, stack) => {
    state.set(node, 1);
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (state.get(dep) === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep].map((p) => relative(root, p)).join(" -> "));
      else if (!state.has(dep)) visit(dep, stack);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f, []);
  return { modules: graph.size, violations, cycles };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? "src");
  const { modules, violations, cycles } = checkImports(root);
  for (const v of violations) console.error(`layer violation: ${v}`);
  for (const c of cycles) console.error(`import cycle: ${c}`);
  if (violations.length || cycles.length) process.exit(1);
  console.log(`imports ok: ${modules} modules, layers ${LAYERS.join(" → ")}, no cycles`);
}
