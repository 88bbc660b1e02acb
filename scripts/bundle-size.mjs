// What a browser loads from the build before it can do anything, in bytes (raw and gzip): the page's first-load
// JS (the scripts index.html names, and everything they import statically) and the agent worker's startup JS (its
// entry chunk and everything it imports statically). A dynamic `import()` is not followed: that code loads on
// demand. Used by the bundle check (scripts/check-bundle.mjs, which holds the worker to its budget) and the app
// bench (scripts/bench/app.ts, which reports both).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { parseAst } from "rolldown/parseAst";

/**
 * The goal for the agent worker's startup JS (gzip): 250 KiB (issue 20). Met (≈ 248.6 KiB): what LangChain's core,
 * LangGraph, its checkpoint package, LangSmith's run trees, zod (v3 and v4: core uses both) and core's JSON-schema
 * validator keep after scripts/vite/langchain-lean is ≈ 170 KiB gzip (each compressed alone), all reached from code a first
 * turn runs (runnables, tools, chat models, the graph's loop); deeptab's own startup code is ≈ 80 KiB.
 */
export const WORKER_STARTUP_GOAL = 250 * 1024;

/**
 * The most gzip bytes the agent worker may load at startup (its entry chunk and static imports); the bundle check
 * fails the build above it. A ratchet a little above today's 344 KiB (717 KiB before just-bash, yaml, fflate, the
 * in-tab models, the provider clients and the shell's filesystem were loaded on demand; the approval, permission,
 * key-redaction and harness-index work added about 10 KiB since; the agent calls' glue 0.8 KiB, their loader, YAML and
 * zip loading with the first agent call; upstream's file-tool parity 1.6 KiB: recursive delete through every store,
 * argument aliases, the shell's files on one tree; the MCP servers' wiring, whose code loads on first use, 0.1 KiB;
 * tool results' images, whose check and image blocks load with the first image, 0.3 KiB; fetch_url's wiring and the
 * request log's line for redirects a browser follows, 0.2 KiB, fetch_url's code and its HTML-to-Markdown libraries
 * loading with the first run; harness profiles 3 KiB: resolution runs when the first agent is built and the built-ins'
 * prompt texts reach the first request of a Claude or Codex model). LangSmith's clients, replaced by a no-op at build
 * (scripts/vite/langsmith-off), took 47 KiB off (355 → 307.5 KiB); LangChain's import map on demand and its packages'
 * unused modules left out (scripts/vite/langchain-lean) 40 KiB more (307.8 → 267.6 KiB); the in-tab models' store
 * loading with the first listing or download 1.7 KiB (265.9 KiB); async subagents' descriptors and web search's
 * wiring added 1.1 KiB, the WebContainer backend, a thread export's validation and the async tools' code loading on
 * demand took 0.6, and the shell interpreter's source no longer inlined as a data URL 2.6 (264.0 KiB); picomatch left
 * out (it only re-validated what glob.ts's parser checks) 8.3 (264.6 → 256.3 KiB); core's stream tracers (for
 * streamLog/streamEvents) and js-tiktoken loading when used, and LangGraph's MemorySaver gone (a browser that denies
 * IndexedDB gets the same stores in memory, loaded only then) 7.7 (256.3 → 248.6 KiB); clearing old tool results'
 * wiring 0.1 (its code and fitting a request to the window load when first needed); safe links (issue 39) added 1.6:
 * every form of a secret redacted, keys bound to their origin, the parallel-edit guard on shared stores, the MCP output
 * cap; the in-tab models' service and local servers' window probes loading when first used took 1.6 (249.2 KiB):
 * one table per concept (issue 43: the provider rows' api, waitingFor and serverEnv, the settings' specs, the tool
 * names' table) added 0.3, trimmed back to a few bytes over 249.5 (budget 249.75 KiB); steering a running agent
 * (issue 40: the loop's inbox step, the steered event, runQueued; the queues' code loads with the first message sent
 * during a run) 0.5 (250.0 KiB, budget 250.0); the person's terminal (issue 40: runCommand and cancelCommand, whose
 * code loads with the first command) 0.07 (budget 250.25); rewind and a turn's changes (issue 40: the message id, the
 * workspace note's mark, the turn hooks; their service and snapshots load at a first turn's start) 0.15 (budget
 * 250.5); the workspace recorded as a steered message lands (issue 40: the inbox waits for it) a few bytes over
 * (budget 250.75); recorded demos (issue 41: each run's recorder wiring, the replay mark on a turn, saveDemo's
 * service hooks, resume keeping a replay; the recorder, its store, the demo schema and the replay model load when
 * first used) 1.2 (252.0 KiB, budget 252.25); upstream parity, winter 2026 (issue 42: subagents under their own
 * harness profiles with the tool-exclusion middleware, the fork preamble and task refusal, async subagents' status
 * notes at a run's start, compact texts with descriptions, read windows; the header form and pinned skills load when
 * first used) 1.4 (253.4 KiB, budget 253.75): lower it when the startup JS shrinks (issue 44).
 */
export const WORKER_STARTUP_BUDGET = 253.75 * 1024;

/**
 * The goal for a first visit that sends one message with the demo model, on the wire (issue 44): 1 MB, the app shell
 * and what that first turn loads. e2e/first-visit.spec.ts measures it on a host that serves as GitHub Pages does.
 */
export const FIRST_VISIT_GOAL = 1_000_000;

/**
 * The most gzip bytes the service worker may precache on install (the app shell, {@link appShell}); the bundle check
 * fails the build above it. Issue 44: the precache was ≈ 16 MB (every file of the build, llama.cpp's wasm 10.2 MB of
 * it) until only the shell was precached and the rest cached on first use: 432.1 KiB (the page's first-load JS and
 * stylesheets, the agent worker's startup JS, index.html and the site's agents).
 */
export const PRECACHE_BUDGET = 440 * 1024;

/** The first-load JS target of the page (gzip): 150 KiB. */
export const FIRST_LOAD_TARGET = 150 * 1024;

/** The relative module specifiers a chunk imports statically (import and export … from). */
export function staticImports(code, name = "chunk.js") {
  const out = [];
  for (const node of parseAst(code, { sourceType: "module" }, name).body) {
    const isImport = node.type === "ImportDeclaration" || node.type === "ExportAllDeclaration" || node.type === "ExportNamedDeclaration";
    const spec = isImport && node.source && typeof node.source.value === "string" ? node.source.value : undefined;
    if (spec?.startsWith(".")) out.push(spec);
  }
  return out;
}

/**
 * Every file a set of entry chunks loads before it runs: the entries and their static imports, transitively, each
 * once. Sizes are of the files as served (raw) and gzip-compressed.
 */
export function closure(dist, entries) {
  const seen = new Set();
  const files = [];
  const visit = (given) => {
    // One key per file however it was reached: an entry named from index.html (under `dist` as given, perhaps
    // relative) and the same file as a chunk's static import (resolved, absolute) are counted once.
    const file = resolve(given);
    if (seen.has(file)) return;
    seen.add(file);
    if (!existsSync(file)) throw new Error(`bundle-size: ${relative(dist, file)} is imported but not in the build`);
    const code = readFileSync(file);
    files.push({ file: relative(dist, file).split(sep).join("/"), raw: code.length, gzip: gzipSync(code).length });
    for (const spec of staticImports(code.toString("utf8"), file)) visit(resolve(dirname(file), spec));
  };
  for (const entry of entries) visit(entry);
  return { files, raw: files.reduce((n, f) => n + f.raw, 0), gzip: files.reduce((n, f) => n + f.gzip, 0) };
}

/** The agent worker's entry chunks (`assets/agent.worker-<hash>.js`) in a build. */
function workerEntries(dist) {
  return existsSync(join(dist, "assets")) ? readdirSync(join(dist, "assets")).filter((f) => /^agent\.worker-[\w-]+\.js$/.test(f)) : [];
}

/** The agent worker's entry chunk (`assets/agent.worker-<hash>.js`); an error when there is not exactly one. */
export function workerEntry(dist) {
  const found = workerEntries(dist);
  if (found.length !== 1) throw new Error(`bundle-size: expected one assets/agent.worker-*.js in ${dist}, found ${found.length}`);
  return join(dist, "assets", found[0]);
}

/** The worker's startup JS: its entry chunk and its static imports. */
export function workerStartup(dist) {
  return closure(dist, [workerEntry(dist)]);
}

/**
 * The file of dist/ a page reference names: `./assets/a.js` and `assets/a.js` as they are, and `/deeptab/assets/a.js`
 * (a build for a sub-path, DEEPTAB_BASE) without the leading segments of its base.
 */
function inDist(dist, ref) {
  const parts = ref.replace(/^\.?\//, "").split("/");
  while (parts.length > 1 && !existsSync(join(dist, ...parts))) parts.shift();
  return join(dist, ...parts);
}

/** The page's first-load JS: the same-origin scripts and module preloads of index.html, and their static imports. */
export function firstLoad(dist) {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]);
  const local = refs.filter((r) => !/^(?:[a-z]+:)?\/\//i.test(r)).map((r) => inDist(dist, r));
  return closure(dist, local);
}

/** The same-origin stylesheets index.html links (`<link rel="stylesheet" href>`), as files of dist/. */
function stylesheets(dist, html) {
  const refs = [...html.matchAll(/<link\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => /\srel="stylesheet"/.test(tag))
    .map((tag) => /\shref="([^"]+)"/.exec(tag)?.[1])
    .filter((ref) => ref !== undefined && !/^(?:[a-z]+:)?\/\//i.test(ref));
  return refs.map((ref) => inDist(dist, ref));
}

/**
 * The app shell: what a first visit loads before it can do anything, which the service worker precaches on install
 * (scripts/vite/shell/stamp.ts): index.html, its scripts and module preloads with their static imports, its
 * stylesheets, and the agent worker's startup JS (when the build has an agent worker). Sizes raw and gzip.
 */
export function appShell(dist) {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const code = closure(dist, [
    ...firstLoad(dist).files.map((f) => join(dist, f.file)),
    ...workerEntries(dist).map((f) => join(dist, "assets", f)),
  ]);
  const other = [join(dist, "index.html"), ...stylesheets(dist, html)].map((file) => {
    const bytes = readFileSync(file);
    return { file: relative(dist, file).split(sep).join("/"), raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  const files = [...other, ...code.files];
  return { files, raw: files.reduce((n, f) => n + f.raw, 0), gzip: files.reduce((n, f) => n + f.gzip, 0) };
}
