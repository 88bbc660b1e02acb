/** Where stored agents and link pins live in the IndexedDB store (agent-store.ts); a leaf the worker's startup imports. */
export const AGENTS_NS = ["agents"];
export const AGENT_LINKS_NS = ["agent-links"];
