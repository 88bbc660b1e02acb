/**
 * IndexedDBSaver in Node over fake-indexeddb: LangGraph's official
 * conformance suite (plus its opt-in getDeltaChannelHistory spec), then what
 * the suite does not cover (message storage, rollback, quota errors, graphs).
 */
import "fake-indexeddb/auto";
import { validate, deltaChannelHistoryTests } from "@langchain/langgraph-checkpoint-validation";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { IndexedDBSaver } from "./indexeddb-saver.ts";
import { StorageError } from "./errors.ts";
import { saverBehaviours } from "../testing/saver-behaviours.ts";
import { graphBehaviours } from "../testing/graph-behaviours.ts";
import { refuseIndexedDB } from "../testing/refused-indexeddb.ts";

let counter = 0;
const initializer = {
  checkpointerName: "IndexedDBSaver",
  createCheckpointer: () => new IndexedDBSaver(`validate-${counter++}`),
  destroyCheckpointer: async (saver: IndexedDBSaver) => saver.close(),
};

validate(initializer);
deltaChannelHistoryTests(initializer);

saverBehaviours({ name: "fake-indexeddb", factory: () => indexedDB });

graphBehaviours({ name: "fake-indexeddb", factory: () => indexedDB });

describe("IndexedDBSaver when IndexedDB refuses to open", () => {
  it("reports unavailable as a value from open() and as a StorageError from methods", async () => {
    refuseIndexedDB();
    const saver = new IndexedDBSaver("denied");
    const result = await saver.open();
    expect(result).toMatchObject({ ok: false, error: { name: "StorageError", code: "unavailable" } });
    await expect(saver.getTuple({ configurable: { thread_id: "x" } })).rejects.toMatchObject({ code: "unavailable" });
    await expect(
      saver.put({ configurable: { thread_id: "x" } }, emptyCheckpoint(), { source: "input", step: -1, parents: {} }, {}),
    ).rejects.toBeInstanceOf(StorageError);
  });
});
