/**
 * IndexedDBBackend in Node over fake-indexeddb (idb needs its classes as
 * globals, hence fake-indexeddb/auto): the conformance suite on a fresh
 * database per test, again on one shared database with a fresh scope per
 * test, then the IndexedDB-specific behaviours.
 */
import "fake-indexeddb/auto";
import { IDBDatabase } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { backendConformance } from "../testing/backend-conformance.ts";
import { indexedDBBackendBehaviours } from "../testing/indexeddb-backend-behaviours.ts";
import { FIXED_NOW } from "../testing/runtime.ts";
import { IndexedDBBackend, IndexedDBFiles, indexedDBBackend } from "./indexeddb.ts";
import { createBackendRuntime } from "./runtime.ts";

backendConformance(
  "IndexedDBBackend (fake-indexeddb, fresh database)",
  () => new IndexedDBBackend(new IndexedDBFiles({ dbName: `files-${crypto.randomUUID()}` }), "thread", () => FIXED_NOW),
);

const shared = indexedDBBackend({ dbName: "files-shared" });
backendConformance("IndexedDBBackend (fake-indexeddb, shared database, fresh scope)", () =>
  shared(createBackendRuntime({}, { configurable: { thread_id: crypto.randomUUID() } }, () => FIXED_NOW)),
);

indexedDBBackendBehaviours("fake-indexeddb");

describe("IndexedDBBackend reads", () => {
  it("serves ls, read, grep, glob and download from one load of the scope (one transaction)", async () => {
    const dbName = `files-${crypto.randomUUID()}`;
    const writer = new IndexedDBBackend(new IndexedDBFiles({ dbName }), "s");
    await writer.uploadFiles(
      Array.from({ length: 50 }, (_, i) => ({ path: `/d${i % 5}/f${i}.md`, content: new TextEncoder().encode(`file ${i}\nTODO ${i}\n`) })),
    );
    await writer.files.close();

    const spy = vi.spyOn(IDBDatabase.prototype, "transaction");
    try {
      const reader = new IndexedDBBackend(new IndexedDBFiles({ dbName }), "s");
      expect(await reader.ls("/")).toHaveLength(5);
      expect(await reader.grep("TODO", "/d1")).toHaveLength(10);
      expect(await reader.glob("**/f4*.md")).toHaveLength(11);
      expect(await reader.read("/d0/f0.md")).toMatchObject({ lines: ["file 0", "TODO 0"] });
      expect((await reader.downloadFiles(["/d2/f7.md"]))[0]!.content).toBeInstanceOf(Uint8Array);
      expect(spy).toHaveBeenCalledTimes(1);
      await reader.files.close();
    } finally {
      spy.mockRestore();
    }
  });
});
