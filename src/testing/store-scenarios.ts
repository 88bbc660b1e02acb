/**
 * Scenarios run against both LangGraph's InMemoryStore and an IndexedDBStore,
 * comparing results: the IndexedDB store must answer exactly like the
 * reference. Items are inserted in (namespace, key) order, the one order both
 * stores agree on (InMemoryStore keeps insertion order, IndexedDB sorts).
 * Shared by the Node (fake-indexeddb) and Chromium test files.
 */
import { InMemoryStore, InvalidNamespaceError, type BaseStore, type Item } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { StorageError } from "../storage/errors.ts";
import type { IndexedDBStore } from "../storage/indexeddb-store.ts";

type Scenario = (store: BaseStore) => Promise<unknown>;

/** Items without their times (checked separately), so two stores' results compare. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === "object" && "createdAt" in value && "updatedAt" in value) {
    const { createdAt, updatedAt, ...rest } = value as Item;
    expect(createdAt).toBeInstanceOf(Date);
    expect(updatedAt).toBeInstanceOf(Date);
    expect(updatedAt.getTime()).toBeGreaterThanOrEqual(createdAt.getTime());
    return rest;
  }
  return value;
}

async function seed(store: BaseStore): Promise<void> {
  await store.batch([
    { namespace: ["docs"], key: "a", value: { kind: "note", n: 1, tags: "x" } },
    { namespace: ["docs"], key: "b", value: { kind: "report", n: 2, nested: { deep: true } } },
    { namespace: ["docs", "archive"], key: "c", value: { kind: "note", n: 3 } },
    { namespace: ["docs", "archive", "2025"], key: "d", value: { kind: "report", n: 4, flag: false } },
    { namespace: ["docsx"], key: "e", value: { kind: "note", n: 5 } },
    { namespace: ["users", "u1", "prefs"], key: "theme", value: { theme: "dark", n: "6" } },
    { namespace: ["users", "u2", "prefs"], key: "theme", value: { theme: "light", n: 7 } },
  ]);
}

const scenarios: Record<string, Scenario> = {
  "get, update keeps createdAt, delete": async (s) => {
    await s.put(["a"], "k", { v: 1 });
    const first = await s.get(["a"], "k");
    // InMemoryStore hands out its live item, so copy the times now.
    const [created, updated] = [first!.createdAt.getTime(), first!.updatedAt.getTime()];
    await new Promise((r) => setTimeout(r, 5));
    await s.put(["a"], "k", { v: 2 });
    const second = await s.get(["a"], "k");
    expect(second!.createdAt.getTime()).toBe(created);
    expect(second!.updatedAt.getTime()).toBeGreaterThan(updated);
    const value = second!.value;
    await s.delete(["a"], "k");
    return [value, await s.get(["a"], "k"), await s.get(["a"], "missing"), await s.get(["nowhere"], "k")];
  },
  "search by namespace prefix (not a string prefix)": async (s) => {
    await seed(s);
    return [await s.search(["docs"]), await s.search(["docs", "archive"]), await s.search(["users"]), await s.search([], { limit: 100 })];
  },
  "filters: equality and operators": async (s) => {
    await seed(s);
    const f = (filter: Record<string, unknown>) => s.search([], { filter, limit: 100 });
    return [
      await f({ kind: "note" }),
      await f({ kind: "note", n: 3 }),
      await f({ kind: { $eq: "report" } }),
      await f({ kind: { $ne: "report" } }),
      await f({ n: { $gt: 2 } }),
      await f({ n: { $gte: 2, $lt: 5 } }),
      await f({ n: { $lte: 6 } }),
      await f({ kind: { $in: ["report", "other"] } }),
      await f({ kind: { $nin: ["report"] } }),
      await f({ flag: false }),
      await f({ missing: { $ne: 1 } }),
      await f({ nested: { deep: true } }),
      await f({ theme: { $in: "dark" } }),
    ];
  },
  "limit (default 10) and offset": async (s) => {
    await s.batch(
      Array.from({ length: 15 }, (_, i) => ({
        namespace: ["many"],
        key: `k${String(i).padStart(2, "0")}`,
        value: { i, even: i % 2 === 0 },
      })),
    );
    return [
      (await s.search(["many"])).length,
      await s.search(["many"], { limit: 3 }),
      await s.search(["many"], { limit: 3, offset: 13 }),
      await s.search(["many"], { offset: 20 }),
      await s.search(["many"], { filter: { even: true }, limit: 2, offset: 2 }),
    ];
  },
  "listNamespaces: prefix, suffix, wildcards, maxDepth, limit, offset": async (s) => {
    await seed(s);
    return [
      await s.listNamespaces(),
      await s.listNamespaces({ prefix: ["docs"] }),
      await s.listNamespaces({ prefix: ["users", "*"] }),
      await s.listNamespaces({ suffix: ["prefs"] }),
      await s.listNamespaces({ suffix: ["*", "prefs"], prefix: ["users"] }),
      await s.listNamespaces({ maxDepth: 1 }),
      await s.listNamespaces({ prefix: ["docs"], maxDepth: 2 }),
      await s.listNamespaces({ limit: 2, offset: 1 }),
      await s.listNamespaces({ prefix: ["a", "b", "c", "d"] }),
    ];
  },
  "a batch reads the state before its puts; last put of a key wins": async (s) => {
    await s.put(["b"], "old", { v: 0 });
    const results = await s.batch([
      { namespace: ["b"], key: "k", value: { v: 1 } },
      { namespace: ["b"], key: "k" },
      { namespace: ["b"], key: "k", value: { v: 2 } },
      { namespace: ["b"], key: "old", value: null },
      { namespacePrefix: ["b"], limit: 10, offset: 0 },
      { matchConditions: undefined, limit: 10, offset: 0 },
    ]);
    return [results, await s.get(["b"], "k"), await s.get(["b"], "old")];
  },
  "reserved root readable through batch": async (s) => {
    await s.batch([{ namespace: ["langgraph", "x"], key: "k", value: { v: 1 } }]);
    return [await s.get(["langgraph", "x"], "k"), await s.search(["langgraph"])];
  },
};

/** `make(dbName)` opens that database (a fresh one without a name) on the same IndexedDB each time. */
export function storeScenarios(name: string, make: (dbName?: string) => IndexedDBStore): void {
  describe(`IndexedDBStore answers like InMemoryStore (${name})`, () => {
    for (const [title, run] of Object.entries(scenarios)) {
      it(title, async () => {
        const expected = strip(await run(new InMemoryStore()));
        const store = make();
        try {
          expect(strip(await run(store))).toEqual(expected);
        } finally {
          await store.stop();
        }
      });
    }

    it("rejects the namespaces InMemoryStore rejects, before writing anything", async () => {
      for (const store of [new InMemoryStore(), make()] as BaseStore[]) {
        await expect(store.put([], "k", { v: 1 })).rejects.toBeInstanceOf(InvalidNamespaceError);
        await expect(store.put(["a.b"], "k", { v: 1 })).rejects.toBeInstanceOf(InvalidNamespaceError);
        await expect(store.put(["a:b"], "k", { v: 1 })).rejects.toBeInstanceOf(InvalidNamespaceError);
        await expect(store.put(["langgraph"], "k", { v: 1 })).rejects.toBeInstanceOf(InvalidNamespaceError);
        await expect(
          store.batch([
            { namespace: ["ok"], key: "k", value: { v: 1 } },
            { namespace: [""], key: "k", value: { v: 1 } },
          ]),
        ).rejects.toBeInstanceOf(InvalidNamespaceError);
        expect(await store.get(["ok"], "k")).toBeNull();
        await store.stop();
      }
    });

    it("keeps a batch's puts atomic: one bad value writes nothing", async () => {
      const store = make();
      await store.put(["t"], "keep", { v: 0 });
      const bad = { fn: () => 1 } as unknown as Record<string, unknown>;
      const err = await store
        .batch([
          { namespace: ["t"], key: "a", value: { v: 1 } },
          { namespace: ["t"], key: "keep", value: null },
          { namespace: ["t"], key: "b", value: bad },
        ])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).code).toBe("transaction_failed");
      expect(await store.get(["t"], "a")).toBeNull();
      expect((await store.get(["t"], "keep"))?.value).toEqual({ v: 0 });
      await store.stop();
    });

    it("keeps items across closing and reopening the database", async () => {
      const first = make();
      await first.put(["p"], "k", { text: "persisted ✓" });
      const created = (await first.get(["p"], "k"))!.createdAt;
      await first.stop();
      const second = make(first.dbName);
      const again = (await second.get(["p"], "k"))!;
      expect(again.value).toEqual({ text: "persisted ✓" });
      expect(again.createdAt).toEqual(created);
      expect(await second.listNamespaces()).toEqual([["p"]]);
      await second.stop();
    });

    it("empties nothing on an empty batch and supports a read-only batch", async () => {
      const store = make();
      expect(await store.batch([])).toEqual([]);
      expect(
        await store.batch([
          { namespace: ["r"], key: "k" },
          { namespacePrefix: ["r"], limit: 1, offset: 0 },
        ]),
      ).toEqual([null, []]);
      await store.stop();
    });
  });
}
