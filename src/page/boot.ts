/**
 * The page's agent worker, created when this module is evaluated. It imports only spawn.ts, which imports nothing, so
 * the build makes it an entry
 * of its own that index.html runs first (scripts/vite/shell/plugin.ts): the worker's script starts loading and runs on
 * its own thread while the page's larger module graph is still being fetched and compiled, instead of after it.
 * main.ts imports it too (the same module, evaluated once), and in `vite dev` and tests that import is what runs it.
 */

import { spawnAgentWorker } from "./spawn.ts";

/** The app's agent worker. */
export const agentWorker: Worker = spawnAgentWorker("deeptab-agent");
// When the page asked for the worker (`npm run bench` reads it beside the worker's own "deeptab:worker-ready").
performance.mark("deeptab:worker-spawned");
