/**
 * The one place the page starts an agent worker: the only module outside worker/ that names the worker's entry
 * (worker/agent.worker.ts), which the layer check allows here alone (scripts/check-imports.mjs, SPAWN). It imports
 * nothing, so boot.ts, the page's first script, stays a chunk of its own.
 */

/** A new agent worker: the page's own (boot.ts), a test's or a bench's. Vite bundles its entry as a separate module chunk. */
export function spawnAgentWorker(name = "deeptab-agent"): Worker {
  return new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module", name });
}
