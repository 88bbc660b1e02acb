/**
 * IndexedDBStore in Node over fake-indexeddb: the InMemoryStore comparison
 * scenarios, the file backends' conformance suite through StoreBackend, and
 * error normalisation (quota, unavailable). idb needs IndexedDB's classes as
 * globals (`instanceof IDBRequest`), hence fake-indexeddb/auto; each store
 * still gets its own factory-level database name.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { StoreBackend } from "../backends/store.ts";
import { backendConformance } from "../testing/backend-conformance.ts";
import { refuseIndexedDB } from "../testing/refused-indexeddb.ts";
import { FIXED_NOW } from "../testing/runtime.ts";
import { storeScenarios } from "../testing/store-scenarios.ts";
import { StorageError } from "./errors.ts";
import { toStorageError } from "./idb.ts";
import { IndexedDBStore } from "./indexeddb-store.ts";

const make = (dbName: string = `store-${crypto.randomUUID()}`) => new IndexedDBStore({ dbName });

storeScenarios("fake-indexeddb", make);
backendConformance("StoreBackend (IndexedDBStore, fake-indexeddb)", () => new StoreBackend(make(), ["fs"], () => FIXED_NOW));

describe("IndexedDBStore failures and differences", () => {
  it("throws StorageError unavailable when IndexedDB refuses to open", async () => {
    refuseIndexedDB(new Error("SecurityError: denied"));
    const err = await new IndexedDBStore({ dbName: "refused" }).get(["a"], "k").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).code).toBe("unavailable");
  });

  it("turns a quota failure of a transaction into code quota_exceeded", async () => {
    const quota = new DOMException("full", "QuotaExceededError");
    const err = toStorageError("put", new DOMException("aborted", "AbortError"), quota);
    expect(err).toMatchObject({ name: "StorageError", code: "quota_exceeded" });
  });

  it("stops listing a namespace once its last item is deleted (InMemoryStore keeps it)", async () => {
    const store = make();
    await store.put(["gone"], "k", { v: 1 });
    await store.delete(["gone"], "k");
    expect(await store.listNamespaces()).toEqual([]);
    await store.stop();
  });

  it("uses the default database name", () => {
    expect(new IndexedDBStore().dbName).toBe("deeptab-store");
  });
});
