/**
 * A test worker (Chromium): the app's agent worker (agent.worker.ts) in a scope whose IndexedDB refuses to open, as
 * in a browser that denies the site storage. The worker then keeps everything in memory for the session (a
 * MemorySaver, which it loads only then). Modules run in import order: the refusal is in place before the worker's
 * entry opens storage, and the entry still exposes its API synchronously (no message is missed).
 */
import "./refuse-indexeddb-in-scope.ts";
import "../worker/agent.worker.ts";
