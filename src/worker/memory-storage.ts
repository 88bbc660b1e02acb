/**
 * Storage when a browser denies the site IndexedDB (an exception, or an error, on open): importing this module puts
 * fake-indexeddb (an IndexedDB written in JavaScript, in memory) in place of the scope's `indexedDB` and its
 * classes, so threads, files, memories and settings work exactly as they do on disk, for the session. The agent
 * worker imports it only then (agent.worker.ts), before anything has opened a database through `idb`, which keeps
 * the IndexedDB classes of the first database it opens (a failed open keeps none).
 */
import "fake-indexeddb/auto";
