/**
 * The page's agent worker, created when this module is evaluated. main.ts
 * imports it before anything else, so the worker's script loads and runs on
 * its own thread while the page's other modules evaluate and the UI mounts,
 * instead of after them.
 */
import { spawnAgentWorker } from "./client.ts";

export const agentWorker: Worker = spawnAgentWorker();
// When the page asked for the worker (`npm run bench` reads it beside the worker's own "deeptab:worker-ready").
performance.mark("deeptab:worker-spawned");
