/**
 * IndexedDBSaver against Chromium's real IndexedDB: LangGraph's conformance
 * suite (its spec files only need vitest's globals, which the browser project
 * does not enable, so they are installed here before the suite is imported),
 * then the same behaviours as in Node.
 */
import * as vitest from "vitest";
import { IndexedDBSaver } from "./indexeddb-saver.ts";
import { saverBehaviours } from "../testing/saver-behaviours.ts";
import { graphBehaviours } from "../testing/graph-behaviours.ts";

const globals = globalThis as Record<string, unknown>;
for (const name of ["describe", "it", "test", "expect", "beforeAll", "afterAll", "beforeEach", "afterEach"] as const) {
  globals[name] ??= vitest[name];
}
const { validate, deltaChannelHistoryTests } = await import("@langchain/langgraph-checkpoint-validation");

const created: string[] = [];
const initializer = {
  checkpointerName: "IndexedDBSaver",
  createCheckpointer: () => {
    const name = `validate-${crypto.randomUUID()}`;
    created.push(name);
    return new IndexedDBSaver(name);
  },
  destroyCheckpointer: async (saver: IndexedDBSaver) => {
    await saver.close();
    await new Promise<void>((resolve) => {
      const req = indexedDB.deleteDatabase(saver.dbName);
      req.onsuccess = req.onerror = req.onblocked = () => resolve();
    });
  },
};

validate(initializer);
deltaChannelHistoryTests(initializer);

saverBehaviours({ name: "Chromium IndexedDB", factory: () => indexedDB });
graphBehaviours({ name: "Chromium IndexedDB", factory: () => indexedDB });

vitest.afterAll(async () => {
  // Databases the behaviours created; the conformance ones are deleted as they go.
  const dbs = (await indexedDB.databases?.()) ?? [];
  await Promise.all(
    dbs
      .filter((d) => d.name?.startsWith("behaviours-") || d.name?.startsWith("graph-"))
      .map(
        (d) =>
          new Promise<void>((resolve) => {
            const req = indexedDB.deleteDatabase(d.name!);
            req.onsuccess = req.onerror = req.onblocked = () => resolve();
          }),
      ),
  );
});
