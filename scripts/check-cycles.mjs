// Fails when relative imports under src/ form a cycle.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const root = resolve("src");
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(ts|svelte)$/.test(name) && !/\.test\.ts$/.test(name)) files.push(p);
  }
})(root);

const graph = new Map();
const importRe = /(?:import|export)\s[^'"]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;
for (const file of files) {
  const src = readFileSync(file, "utf8");
  const deps = [];
  for (const m of src.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    if (/^import\s+type\s/.test(m[0]) || /^export\s+type\s/.test(m[0])) continue;
    deps.push(resolve(dirname(file), spec));
  }
  graph.set(file, deps.filter((d) => graph.has(d) || files.includes(d)));
}

const state = new Map();
const cycles = [];
function visit(node, stack) {
  state.set(node, 1);
  stack.push(node);
  for (const dep of graph.get(node) ?? []) {
    if (state.get(dep) === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
    else if (!state.has(dep)) visit(dep, stack);
  }
  stack.pop();
  state.set(node, 2);
}
for (const f of files) if (!state.has(f)) visit(f, []);

if (cycles.length) {
  for (const c of cycles) console.error("import cycle: " + c.map((p) => p.slice(root.length + 1)).join(" -> "));
  process.exit(1);
}
console.log(`no import cycles (${files.length} modules)`);
