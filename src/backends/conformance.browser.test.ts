/**
 * The backend conformance suite in Chromium for the backends that do not need
 * IndexedDB-specific setup (IndexedDBBackend and ShellBackend have their own
 * browser files: indexeddb.browser.test.ts, sandbox/shell.browser.test.ts), plus
 * StoreBackend over the IndexedDB store and deeptab's own composite layout:
 * workspace in IndexedDBBackend, /memories/ in StoreBackend over IndexedDBStore.
 */
import { IndexedDBStore } from "../storage/indexeddb-store.ts";
import { backendConformance, inMemoryConformance, stateStep } from "../testing/backend-conformance.ts";
import { FIXED_NOW } from "../testing/runtime.ts";
import { CompositeBackend } from "./composite.ts";
import { IndexedDBBackend, IndexedDBFiles } from "./indexeddb.ts";
import { createBackendRuntime } from "./runtime.ts";
import { StateBackend } from "./state.ts";
import { StoreBackend } from "./store.ts";

const state = () => new StateBackend(createBackendRuntime({}, {}, () => FIXED_NOW));
const idbStore = () => new IndexedDBStore({ dbName: `store-${crypto.randomUUID()}` });

backendConformance("StateBackend (Chromium)", state, { step: stateStep });
inMemoryConformance("Chromium");
backendConformance("StoreBackend (IndexedDBStore, Chromium)", () => new StoreBackend(idbStore(), ["fs"], () => FIXED_NOW));
backendConformance(
  "CompositeBackend (IndexedDB workspace, IndexedDBStore /memories/, Chromium)",
  () =>
    new CompositeBackend(new IndexedDBBackend(new IndexedDBFiles({ dbName: `files-${crypto.randomUUID()}` }), "t", () => FIXED_NOW), {
      "/memories/": new StoreBackend(idbStore(), ["memories"], () => FIXED_NOW),
    }),
  { rootExtras: ["/memories"] },
);
