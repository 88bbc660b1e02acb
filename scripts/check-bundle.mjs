// After `vite build`: fails when any emitted JavaScript (page and worker
// chunks) imports a Node built-in (`node:*`, or a bare built-in name such as
// `async_hooks`), whether by static import/export, dynamic import() or
// require(); the files are parsed, so only real imports count. Such an import means a
// Node-only module slipped into the browser bundle (the usual culprit is
// `@langchain/core/context` or `callbacks/dispatch`, which pull
// `node:async_hooks`; import `@langchain/langgraph/web` instead).
//
// Also checks the page for static hosting under its Content-Security-Policy:
// dist/index.html has no inline <script> (one without src, or a data:/blob:
// src), no inline event handler attribute, no script or link to another
// origin, and the CSP meta tag before every script and stylesheet; and
// dist/sw.js lists every file of the build but source maps (its first line is
// the manifest the app-shell plugin writes, scripts/vite/shell/plugin.ts):
// the app shell precached on install, everything else cached on first use.
//
// And holds the first visit to its budget: the files sw.js precaches on install (the app shell: index.html, the
// page's first-load JS and stylesheets, the agent worker's startup JS) must be the whole shell and at most
// PRECACHE_BUDGET gzip bytes (scripts/bundle-size.mjs); llama.cpp, Pyodide and the rest are cached on first use.
//
// And holds the agent worker to its startup budget: its entry chunk and everything that chunk imports statically
// must be at most WORKER_STARTUP_BUDGET gzip bytes (scripts/bundle-size.mjs, which says why that is above the
// 250 KiB goal); what a first turn does not need (provider clients, the shell, llama.cpp's glue, zip, YAML, …) is
// loaded with a dynamic import() when first used. And LangSmith's client is in no bundle (scripts/vite/langsmith-off).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import { parseAst } from "rolldown/parseAst";
import { gzipSync } from "node:zlib";
import { PRECACHE_BUDGET, WORKER_STARTUP_BUDGET, WORKER_STARTUP_GOAL, appShell, workerStartup } from "./bundle-size.mjs";

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

// Pyodide's own runtime (scripts/vite/pyodide/plugin.ts), copied as published: its Node branches (behind ENVIRONMENT_IS_NODE)
// never run in a browser, and it is not our bundle to fix.
const VENDORED = join(dist, "assets", "pyodide");

let files;
try {
  files = walk(dist).filter((file) => !file.startsWith(VENDORED));
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

/** Attributes of a start tag's text (`<script src="…" defer>`), names lower-cased. */
function attributes(tag) {
  const attrs = new Map();
  const body = tag.replace(/^<[a-z]+/i, "").replace(/\/?>$/, "");
  for (const m of body.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attrs.set(m[1].toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attrs;
}

/** A URL that leaves the page's origin: scheme-qualified (http:, https:, …) or protocol-relative (//host). */
const otherOrigin = (url) => /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(url);

/** Problems of dist/index.html for the CSP and static hosting. */
function checkPage(html) {
  const out = [];
  const page = html.replace(/<!--[\s\S]*?-->/g, "");
  const csp = page.search(/<meta\s[^>]*http-equiv=["']?Content-Security-Policy/i);
  if (csp < 0) out.push('no <meta http-equiv="Content-Security-Policy"> (is the app-shell plugin in vite.config.ts?)');
  for (const m of page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi)) {
    const tag = m[0].slice(0, m[0].indexOf(">") + 1);
    const src = attributes(tag).get("src");
    if (src === undefined || src.trim() === "") out.push(`inline <script> (no src): ${m[0].slice(0, 80).replace(/\s+/g, " ")}…`);
    else if (/^\s*(?:data|blob|javascript):/i.test(src)) out.push(`<script src="${src.slice(0, 40)}…"> is inline code`);
    else if (otherOrigin(src)) out.push(`<script src="${src}"> loads from another origin`);
    else if (m[1].trim()) out.push(`<script src="${src}"> also has inline content`);
    if (csp >= 0 && m.index < csp) out.push(`<script src="${src}"> comes before the CSP meta tag, which does not govern it`);
  }
  for (const m of page.matchAll(/<link\b[^>]*>/gi)) {
    const attrs = attributes(m[0]);
    const href = attrs.get("href") ?? "";
    if (otherOrigin(href)) out.push(`<link rel="${attrs.get("rel") ?? ""}" href="${href}"> points to another origin`);
    if (csp >= 0 && m.index < csp) out.push(`<link href="${href}"> comes before the CSP meta tag`);
  }
  for (const m of page.matchAll(/<[a-z][^>]*\son[a-z]+\s*=[^>]*>/gi)) out.push(`inline event handler: ${m[0].slice(0, 80)}`);
  return out;
}

/** The service worker's manifest (the first line of dist/sw.js), or undefined. */
function readManifest() {
  const sw = join(dist, "sw.js");
  if (!existsSync(sw)) return undefined;
  const match = /^const SHELL = (\{.*\});$/.exec(readFileSync(sw, "utf8").split("\n", 1)[0]);
  return match ? JSON.parse(match[1]) : undefined;
}

/** Problems of dist/sw.js: its manifest must list every file of the build but source maps and itself. */
function checkServiceWorker(allFiles) {
  const sw = join(dist, "sw.js");
  if (!existsSync(sw)) return ["no dist/sw.js (the app-shell plugin writes it after the build)"];
  const first = readFileSync(sw, "utf8").split("\n", 1)[0];
  const match = /^const SHELL = (\{.*\});$/.exec(first);
  if (!match) return ["dist/sw.js does not start with its precache manifest (`const SHELL = {…};`)"];
  const manifest = JSON.parse(match[1]);
  const listed = new Set([...manifest.files, ...(manifest.onDemand ?? [])]);
  const out = [];
  // Pyodide (~13 MB) is cached at first use, never on install (scripts/vite/shell/precache.ts ON_DEMAND).
  for (const rel of manifest.files) if (rel.startsWith("assets/pyodide/")) out.push(`sw.js precaches ${rel} on install (it is on-demand)`);
  // The whole app shell is precached, so the page opens offline after a first visit.
  const precached = new Set(manifest.files);
  if (existsSync(join(dist, "index.html"))) {
    for (const { file } of appShell(dist).files)
      if (!precached.has(file)) out.push(`sw.js does not precache ${file}, part of the app shell`);
  }
  for (const file of allFiles) {
    const rel = relative(dist, file).split(sep).join("/");
    if (rel === "sw.js" || rel.endsWith(".map")) continue;
    if (!listed.has(rel)) out.push(`dist/${rel} is not precached by sw.js (the app would not load it offline)`);
  }
  for (const rel of listed) if (!existsSync(join(dist, rel))) out.push(`sw.js precaches ${rel}, which is not in dist/`);
  if (!listed.has("index.html")) out.push("sw.js does not precache index.html");
  return out;
}

/** Every file under dir. */
function walkAll(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walkAll(p) : [p];
  });
}

const indexHtml = join(dist, "index.html");
const hostingProblems = [
  ...(existsSync(indexHtml) ? checkPage(readFileSync(indexHtml, "utf8")) : ["no dist/index.html"]),
  ...checkServiceWorker(walkAll(dist)),
];

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const startup = workerStartup(dist);
const budgetProblems =
  startup.gzip > WORKER_STARTUP_BUDGET
    ? [
        `the agent worker loads ${kib(startup.gzip)} gzip at startup, over its ${kib(WORKER_STARTUP_BUDGET)} budget ` +
          `(${startup.files.map((f) => `${f.file} ${kib(f.gzip)}`).join(", ")}); load what a first turn does not need ` +
          "with a dynamic import()",
      ]
    : [];

/** What the service worker precaches on install, gzip-compressed as a host serves it. */
const manifest = readManifest();
const precache = (manifest?.files ?? []).filter((rel) => existsSync(join(dist, rel)));
const precacheGzip = precache.reduce((n, rel) => n + gzipSync(readFileSync(join(dist, rel))).length, 0);
if (precacheGzip > PRECACHE_BUDGET) {
  budgetProblems.push(
    `sw.js precaches ${kib(precacheGzip)} gzip on install (${precache.length} files), over its ${kib(PRECACHE_BUDGET)} budget: ` +
      "a first visit precaches the app shell only; cache the rest on first use (scripts/vite/shell/precache.ts)",
  );
}

// LangSmith's real client (its run-ingest endpoint) must not be in any bundle: scripts/vite/langsmith-off replaces it.
const LANGSMITH_CLIENT = "/runs/multipart";
for (const file of files) {
  if (readFileSync(file, "utf8").includes(LANGSMITH_CLIENT)) {
    budgetProblems.push(
      `${relative(process.cwd(), file)} holds LangSmith's client ("${LANGSMITH_CLIENT}"): scripts/vite/langsmith-off no longer replaces it`,
    );
  }
}

const kb = (bytes / 1024).toFixed(1);
if (problems.length || hostingProblems.length || budgetProblems.length) {
  if (problems.length) {
    console.error(`check-bundle: ${problems.length} Node built-in import(s) in the browser bundle:\n${problems.join("\n")}`);
    console.error("Import browser-safe entries (@langchain/langgraph/web; never @langchain/core/context or callbacks/dispatch).");
  }
  if (hostingProblems.length) {
    console.error(
      `check-bundle: ${hostingProblems.length} problem(s) for static hosting:\n${hostingProblems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
  for (const problem of budgetProblems) console.error(`check-bundle: ${problem}.`);
  process.exit(1);
}
console.log(
  `check-bundle: ok, ${files.length} .js files scanned (${workers.length} worker chunk(s)), ${kb} KiB, no Node built-in imports; ` +
    "index.html: CSP first, no inline or other-origin scripts; sw.js lists every file; " +
    `it precaches the app shell, ${kib(precacheGzip)} gzip (${precache.length} files), within its ${kib(PRECACHE_BUDGET)} budget; ` +
    `agent worker startup ${kib(startup.gzip)} gzip (${startup.files.length} file(s), ${kib(startup.raw)} raw) ` +
    `within its ${kib(WORKER_STARTUP_BUDGET)} budget (goal ${kib(WORKER_STARTUP_GOAL)}).`,
);
