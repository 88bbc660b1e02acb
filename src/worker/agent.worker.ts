/**
 * The agent worker's entry: opens IndexedDB (threads, files and memories
 * survive reloads; the same stores in memory for the session when the browser
 * denies the site IndexedDB, memory-storage.ts), assembles the
 * worker API (app.ts) and exposes it over Comlink. The page reaches it only
 * through protocol/ (see page/client.ts). The API is exposed at once; calls
 * wait until storage is open.
 */
import { expose } from "comlink";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { preloadRunCode } from "./runs/agents.ts";
import { createWorkerApi } from "./app.ts";
import { createLayout } from "./layout.ts";
import { THREADS_CHANNEL, type ThreadEvent } from "../protocol/threads.ts";
import type { AgentWorkerApi } from "../protocol/worker-api.ts";

/** The IndexedDB database prefix; a worker named "db:<name>" uses another one (tests). */
const dbName = self.name.startsWith("db:") ? self.name.slice(3) : "deeptab";
const channel = new BroadcastChannel(THREADS_CHANNEL);
const notify = (event: ThreadEvent) => channel.postMessage(event);

async function open(): Promise<AgentWorkerApi> {
  let saver = new IndexedDBSaver(`${dbName}-checkpoints`);
  const opened = await saver.open();
  if (!opened.ok) {
    // Denied: the same stores in memory. Nothing has opened through `idb` yet, so it wraps the in-memory classes.
    console.warn(`deeptab: IndexedDB did not open (${opened.error.message}); this session keeps everything in memory`);
    await import("./memory-storage.ts");
    saver = new IndexedDBSaver(`${dbName}-checkpoints`);
  }
  // A first run's code loads now, while the page mounts, not after its first message arrives; its failure (even a
  // thrown one) is the first run's to report, never the boot's.
  void Promise.resolve()
    .then(preloadRunCode)
    .catch(() => undefined);
  return createWorkerApi({ storage: { saver, layout: createLayout(dbName), inMemory: !opened.ok }, notify });
}

const ready = open();
// The worker's boot, from its creation (its time origin) to an API that answers: `npm run bench` reads this mark.
void ready.then(() => performance.mark("deeptab:worker-ready"));

/** Every call waits for storage, then goes to the assembled API. */
const api = new Proxy({} as AgentWorkerApi, {
  get: (_target, name: string) => {
    if (name === "then") return undefined;
    return async (...args: unknown[]) => {
      const target = (await ready) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return target[name]!(...args);
    };
  },
});
expose(api);
