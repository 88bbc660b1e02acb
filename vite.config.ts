import { svelte } from "@sveltejs/vite-plugin-svelte";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { chromiumArgs, chromiumPath } from "./scripts/chromium.ts";
import { siteAgentsPlugin } from "./scripts/vite/agents/plugin.ts";
import { langchainLean } from "./scripts/vite/langchain-lean/plugin.ts";
import { langsmithOff } from "./scripts/vite/langsmith-off/plugin.ts";
import { appShell, BOOT_ENTRY } from "./scripts/vite/shell/plugin.ts";
import { pyodideAssets } from "./scripts/vite/pyodide/plugin.ts";

/** Cross-origin isolation: WebContainer and SharedArrayBuffer need it. */
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

/** Dependencies the worker imports; pre-bundled so the dev server does not reload mid-test. */
const workerDeps = [
  "@langchain/langgraph/web",
  "@langchain/core/errors",
  "@langchain/core/messages",
  "@langchain/core/language_models/chat_models",
  "@langchain/core/outputs",
  "@langchain/core/tools",
  "@langchain/core/utils/json_schema",
  "comlink",
  "idb",
  "just-bash/browser",
  "@wllama/wllama",
  "yaml",
  "picomatch/posix.js",
  "zod",
  "fflate",
  "@langchain/core/callbacks/base",
  "@langchain/openai",
  "@langchain/anthropic",
  "marked",
  "dompurify",
  "diff",
  "highlight.js/lib/core",
  "@webcontainer/api",
  "fake-indexeddb/auto",
];

/** Where the app is served: "./" (any folder) by default; the Pages workflow sets "/<repo>/". */
const base = process.env.DEEPTAB_BASE || "./";

export default defineConfig({
  base,
  // siteAgents: agents/ bundled as JSON under the base (served in dev and tests); appShell (build only): CSP meta,
  // service worker (isolation without server headers, offline shell).
  // langsmithOff (build only): LangSmith's client as a no-op in the page and the workers (never a tracing request).
  // langchainLean (build only): LangChain's import map loaded on demand, its packages' unused modules left out.
  plugins: [svelte(), siteAgentsPlugin(), appShell(), langsmithOff(), langchainLean(), pyodideAssets()],
  // The offline shell's worker is spawned from the agent worker on the first command; transforming it ahead keeps
  // that first command (and the first browser test that runs one) from waiting seconds for the dev server.
  server: { headers: isolation, warmup: { clientFiles: ["./src/backends/sandbox/shell.worker.ts"] } },
  preview: { headers: isolation },
  worker: { format: "es", plugins: () => [langsmithOff(), langchainLean()] },
  optimizeDeps: { include: workerDeps },
  build: {
    target: "es2022",
    sourcemap: true,
    // Rolldown's build-time advice fires on slow machines: the main build's time is mostly the worker's own build
    // (vite:worker-import-meta-url), which is no plugin to speed up. `npm run build` stays free of warnings.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // The OAuth callback page of MCP sign-ins (oauth-callback.html) beside the app's page; `boot` (the agent worker's
      // creation) an entry of its own, so index.html can run it before the page's graph has loaded (appShell adds it).
      input: { index: "index.html", "oauth-callback": "oauth-callback.html", [BOOT_ENTRY]: "src/page/boot.ts" },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          // Real workers, real shells and real servers on a loaded 2-core CI machine: a test that hangs still fails,
          // but a slow first worker boot (seen at 5–22 s beside another CPU-heavy job) does not.
          testTimeout: 30_000,
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["src/**/*.browser.test.ts", "src/**/*.server.test.ts"],
          globals: true,
        },
      },
      {
        extends: true,
        test: {
          // LangGraph's API server (langgraph dev, npm run serve on PostgreSQL) in child processes: each start is tens of
          // seconds on a loaded 2-core machine, so files run one at a time with long bounds.
          name: "server",
          environment: "node",
          include: ["src/**/*.server.test.ts"],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["src/**/*.browser.test.ts"],
          // The same bounds for real IndexedDB, workers and models in Chromium; expect.element and expect.poll wait on
          // the state they need for up to 30 s rather than the 1 s default.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 30_000 } },
          globalSetup: ["src/testing/browser-global-setup.ts"],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
