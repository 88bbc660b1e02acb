/**
 * Node tests of the worker API: one API over its own IndexedDB database
 * (fake-indexeddb, which the test imports), with tokens sent unbatched.
 * Pass `db` to open a second API on the same database (another worker).
 */
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { createWorkerApi } from "../worker/app.ts";
import { createLayout } from "../worker/layout.ts";

export function openWorkerApi(db = `t-${crypto.randomUUID()}`): { api: ReturnType<typeof createWorkerApi>; db: string } {
  const api = createWorkerApi({
    storage: { saver: new IndexedDBSaver(`${db}-checkpoints`), layout: createLayout(db) },
    notify: () => undefined,
    tokenBatchMs: 0,
  });
  return { api, db };
}
