/**
 * IndexedDBBackend against Chromium's real IndexedDB: the conformance suite
 * on a fresh database per test and on one shared database with a fresh scope
 * per test, then the IndexedDB-specific behaviours (reopen, scopes, two tabs).
 */
import { backendConformance } from "../testing/backend-conformance.ts";
import { indexedDBBackendBehaviours } from "../testing/indexeddb-backend-behaviours.ts";
import { FIXED_NOW } from "../testing/runtime.ts";
import { IndexedDBBackend, IndexedDBFiles, indexedDBBackend } from "./indexeddb.ts";
import { createBackendRuntime } from "./runtime.ts";

backendConformance(
  "IndexedDBBackend (Chromium, fresh database)",
  () => new IndexedDBBackend(new IndexedDBFiles({ dbName: `files-${crypto.randomUUID()}` }), "thread", () => FIXED_NOW),
);

const shared = indexedDBBackend({ dbName: `files-shared-${crypto.randomUUID()}` });
backendConformance("IndexedDBBackend (Chromium, shared database, fresh scope)", () =>
  shared(createBackendRuntime({}, { configurable: { thread_id: crypto.randomUUID() } }, () => FIXED_NOW)),
);

indexedDBBackendBehaviours("Chromium");
