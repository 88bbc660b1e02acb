/**
 * IndexedDBStore against Chromium's real IndexedDB: the same comparison with
 * InMemoryStore as in Node (see store-scenarios.ts).
 */
import { storeScenarios } from "../testing/store-scenarios.ts";
import { IndexedDBStore } from "./indexeddb-store.ts";

storeScenarios("Chromium", (dbName = `store-${crypto.randomUUID()}`) => new IndexedDBStore({ dbName }));
