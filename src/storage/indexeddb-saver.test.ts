/**
 * IndexedDBSaver in Node over fake-indexeddb: LangGraph's official
 * conformance suite (plus its opt-in getDeltaChannelHistory spec), then what
 * the suite does not cover (message storage, rollback, quota errors, graphs).
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { validate, deltaChannelHistoryTests } from "@langchain/langgraph-checkpoint-validation";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { IndexedDBSaver } from "./indexeddb-saver.ts";
import { StorageError } from "./errors.ts";
import { saverBehaviours } from "./saver-behaviours.ts";
import { graphBehaviours } from "./graph-behaviours.ts";

let counter = 0;
const initializer = {
  checkpointerName: "IndexedDBSaver",
  createCheckpointer: () => new IndexedDBSaver(`validate-${counter++}`, { factory: new IDBFactory() }),
  destroyCheckpointer: async (saver: IndexedDBSaver) => saver.close(),
};

validate(initializer);
deltaChannelHistoryTests(initializer);

saverBehaviours({ name: "fake-indexeddb", factory: () => new IDBFactory() });

graphBehaviours({ name: "fake-indexeddb", factory: () => new IDBFactory() });

describe("IndexedDBSaver when IndexedDB refuses to open", () => {
  it("reports unavailable as a value from open() and as a StorageError from methods", async () => {
    const denied = {
      open: () => {
        throw new DOMException("The user denied permission to access the database.", "SecurityError");
      },
    } as unknown as IDBFactory;
    const saver = new IndexedDBSaver("denied", { factory: denied });
    const result = await saver.open();
    expect(result).toMatchObject({ ok: false, error: { name: "StorageError", code: "unavailable" } });
    await expect(saver.getTuple({ configurable: { thread_id: "x" } })).rejects.toMatchObject({ code: "unavailable" });
    await expect(saver.put({ configurable: { thread_id: "x" } }, emptyCheckpoint(), { source: "input", step: -1, parents: {} }, {})).rejects.toBeInstanceOf(StorageError);
  });
});
