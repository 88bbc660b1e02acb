/**
 * Behaviours of {@link IndexedDBSaver} beyond LangGraph's conformance suite,
 * written once and run in Node (fake-indexeddb) and in Chromium (real
 * IndexedDB): storage layout, message dedup and deltas, rollback on failure,
 * quota errors, corrupt records. Test-only; imported by the *.test.ts files.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ERROR, TASKS, emptyCheckpoint, uuid6, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import { afterEach, describe, expect, it } from "vitest";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { ALL_STORES, type StoreName } from "../storage/schema.ts";

export interface SaverHarness {
  /** Label for the describe block. */
  name: string;
  /** The IndexedDB implementation under test (the saver uses the global one; this reads it raw). */
  factory: () => IDBFactory;
}

const meta = (step: number, source: CheckpointMetadata["source"] = "loop"): CheckpointMetadata => ({ source, step, parents: {} });

function ckpt(values: Record<string, unknown>, versions: Record<string, number>): Checkpoint {
  return { ...emptyCheckpoint(), id: uuid6(-3), channel_values: values, channel_versions: versions };
}

function ai(i: number): AIMessage {
  return new AIMessage({ id: `ai-${i}`, content: "", tool_calls: [{ id: `call-${i}`, name: "lookup", args: { n: i } }] });
}

function tool(i: number): ToolMessage {
  return new ToolMessage({ id: `tool-${i}`, tool_call_id: `call-${i}`, content: `result ${i} ${"r".repeat(1000)}` });
}

async function rawCounts(factory: IDBFactory, name: string): Promise<Record<StoreName, number>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const tx = db.transaction(ALL_STORES, "readonly");
  const counts = await Promise.all(
    ALL_STORES.map(
      (s) =>
        new Promise<number>((resolve, reject) => {
          const req = tx.objectStore(s).count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        }),
    ),
  );
  db.close();
  return Object.fromEntries(ALL_STORES.map((s, i) => [s, counts[i]!])) as Record<StoreName, number>;
}

/** Deletes one record directly, bypassing the saver. */
async function rawDelete(factory: IDBFactory, name: string, store: StoreName, key: IDBValidKey): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(store, "readwrite");
    tx.objectStore(store).delete(key);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

/** Rewrites one record directly, bypassing the saver (to corrupt it the way a bug or a bad disk would). */
async function rawUpdate(
  factory: IDBFactory,
  name: string,
  store: StoreName,
  key: IDBValidKey,
  change: (record: Record<string, unknown>) => unknown,
): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(store, "readwrite");
    const os = tx.objectStore(store);
    const get = os.get(key);
    get.onsuccess = () => {
      const next = change(get.result as Record<string, unknown>);
      if (os.keyPath) os.put(next);
      else os.put(next, key);
    };
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

/**
 * Temporarily replaces `IDBObjectStore.prototype.put` for one store, to fail
 * a transaction midway the way a crash or a full disk would.
 */
function failPuts(store: StoreName, how: "abort" | "quota", afterCalls = 0): () => void {
  const proto = IDBObjectStore.prototype;
  const original = proto.put;
  let calls = 0;
  proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
    if (this.name !== store || calls++ < afterCalls) return original.apply(this, args);
    if (how === "quota") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    const request = original.apply(this, args);
    this.transaction.abort();
    return request;
  };
  return () => {
    proto.put = original;
  };
}

export function saverBehaviours({ name, factory }: SaverHarness): void {
  describe(`IndexedDBSaver behaviours (${name})`, () => {
    const open: IndexedDBSaver[] = [];
    let restore: (() => void) | undefined;
    let n = 0;
    const dbNames: string[] = [];
    const make = (options: { snapshotEvery?: number } = {}) => {
      const dbName = `behaviours-${Date.now()}-${n++}-${Math.random().toString(36).slice(2)}`;
      dbNames.push(dbName);
      const f = factory();
      const saver = new IndexedDBSaver(dbName, options);
      open.push(saver);
      const reopen = () => {
        const s = new IndexedDBSaver(dbName, options);
        open.push(s);
        return s;
      };
      return { saver, reopen, counts: () => rawCounts(f, dbName), f, dbName };
    };

    afterEach(async () => {
      restore?.();
      restore = undefined;
      await Promise.all(open.splice(0).map((s) => s.close()));
    });

    it("round-trips channel values, metadata and parent links; messages come back as message classes", async () => {
      const { saver, reopen } = make();
      const messages = [new HumanMessage({ id: "h", content: "hi" }), ai(1), tool(1)];
      const c1 = ckpt({ messages, files: { "/a.txt": { content: ["x"] } }, count: 3 }, { messages: 1, files: 1, count: 1 });
      const cfg1 = await saver.put({ configurable: { thread_id: "t", checkpoint_ns: "" } }, c1, meta(0, "input"), c1.channel_versions);
      expect(cfg1).toEqual({ configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: c1.id } });

      const c2 = ckpt({ messages, files: { "/a.txt": { content: ["x"] } }, count: 4 }, { messages: 1, files: 1, count: 2 });
      const cfg2 = await saver.put(cfg1, c2, meta(1), { count: 2 });

      for (const s of [saver, reopen()]) {
        const latest = await s.getTuple({ configurable: { thread_id: "t" } });
        expect(latest?.config).toEqual(cfg2);
        expect(latest?.parentConfig).toEqual(cfg1);
        expect(latest?.metadata).toEqual(meta(1));
        expect(latest?.checkpoint).toEqual(c2);
        const restored = latest?.checkpoint.channel_values.messages as BaseMessage[];
        expect(restored.map((m) => m.constructor.name)).toEqual(["HumanMessage", "AIMessage", "ToolMessage"]);
        expect((restored[1] as AIMessage).tool_calls?.[0]?.args).toEqual({ n: 1 });
        expect((await s.getTuple(cfg1))?.checkpoint).toEqual(c1);
      }
    });

    it("lists newest first with thread, namespace, metadata filter, before and limit", async () => {
      const { saver } = make();
      const ids: Record<string, string[]> = {};
      for (const thread of ["a", "b"]) {
        for (const ns of ["", "child"]) {
          let config = { configurable: { thread_id: thread, checkpoint_ns: ns } };
          for (let step = 0; step < 3; step += 1) {
            const c = ckpt({ step }, { step: step + 1 });
            config = (await saver.put(config, c, meta(step, step === 0 ? "input" : "loop"), { step: step + 1 })) as typeof config;
            (ids[`${thread}/${ns}`] ??= []).push(c.id);
          }
        }
      }
      const listIds = async (config: object, options?: object) => {
        const out: string[] = [];
        for await (const t of saver.list({ configurable: config }, options)) out.push(t.checkpoint.id);
        return out;
      };
      expect(await listIds({ thread_id: "a", checkpoint_ns: "" })).toEqual([...ids["a/"]!].reverse());
      expect(await listIds({ thread_id: "a" })).toHaveLength(6);
      expect(await listIds({})).toHaveLength(12);
      expect(await listIds({ thread_id: "b", checkpoint_ns: "child" }, { limit: 2 })).toEqual([...ids["b/child"]!].reverse().slice(0, 2));
      const before = { configurable: { thread_id: "a", checkpoint_ns: "", checkpoint_id: ids["a/"]![2] } };
      expect(await listIds({ thread_id: "a", checkpoint_ns: "" }, { before })).toEqual([ids["a/"]![1], ids["a/"]![0]]);
      expect(await listIds({ thread_id: "a", checkpoint_ns: "" }, { filter: { source: "input" } })).toEqual([ids["a/"]![0]]);
      expect(await listIds({}, { filter: { source: "input" } })).toHaveLength(4);
      expect(await listIds({}, { filter: { step: 2, source: "loop" }, limit: 3 })).toHaveLength(3);
      expect(await listIds({ thread_id: "a" }, { limit: 0 })).toEqual([]);
      expect(await listIds({ thread_id: "nope" })).toEqual([]);
      const one = ids["b/"]![1]!;
      expect(await listIds({ thread_id: "b", checkpoint_ns: "", checkpoint_id: one })).toEqual([one]);
      expect(await saver.listThreads()).toEqual(["a", "b"]);
    });

    it("keeps namespaces of one thread apart", async () => {
      const { saver } = make();
      const root = ckpt({ v: "root" }, { v: 1 });
      const child = ckpt({ v: "child" }, { v: 1 });
      await saver.put({ configurable: { thread_id: "t" } }, root, meta(0), { v: 1 });
      await saver.put({ configurable: { thread_id: "t", checkpoint_ns: "sub:1" } }, child, meta(0), { v: 1 });
      expect((await saver.getTuple({ configurable: { thread_id: "t" } }))?.checkpoint.channel_values).toEqual({ v: "root" });
      expect((await saver.getTuple({ configurable: { thread_id: "t", checkpoint_ns: "sub:1" } }))?.checkpoint.channel_values).toEqual({
        v: "child",
      });
    });

    it("stores pending writes in (task_path, task_id, idx) order; regular writes are kept, special ones replaced", async () => {
      const { saver, reopen } = make();
      const c = ckpt({}, {});
      const cfg = await saver.put({ configurable: { thread_id: "w" } }, c, meta(0), {});
      await saver.putWrites(
        cfg,
        [
          ["messages", [tool(1)]],
          ["x", 1],
        ],
        "task-b",
        "~__pregel_pull, b",
      );
      await saver.putWrites(cfg, [["messages", ai(2)]], "task-a", "~__pregel_pull, a");
      await saver.putWrites(cfg, [["x", 99]], "task-b", "~__pregel_pull, b");
      await saver.putWrites(cfg, [[ERROR, "first"]], "task-c");
      await saver.putWrites(cfg, [[ERROR, "second"]], "task-c");
      await saver.putWrites(cfg, [[TASKS, { node: "n", args: {} }]], "task-0", "");
      for (const s of [saver, reopen()]) {
        const writes = (await s.getTuple(cfg))?.pendingWrites ?? [];
        expect(writes.map(([task, channel]) => `${task}:${channel}`)).toEqual([
          "task-0:__pregel_tasks",
          "task-c:__error__",
          "task-a:messages",
          "task-b:messages",
          "task-b:x",
        ]);
        expect(writes[1]![2]).toBe("second");
        expect(writes[2]![2]).toBeInstanceOf(AIMessage);
        expect(writes[3]![2]).toEqual([tool(1)]);
        expect(writes[3]![2]).toSatisfy((v: unknown) => Array.isArray(v) && v[0] instanceof ToolMessage);
        expect(writes[4]![2]).toBe(1);
      }
    });

    it("stores each message once and grows linearly with the thread", async () => {
      const { saver, counts, reopen } = make();
      const messages: BaseMessage[] = [new HumanMessage({ id: "h", content: "go" })];
      let config = { configurable: { thread_id: "lin", checkpoint_ns: "" } };
      const bytesAt: number[] = [];
      for (let i = 1; i <= 40; i += 1) {
        messages.push(ai(i), tool(i));
        const c = ckpt({ messages: [...messages] }, { messages: i });
        config = (await saver.put(config, c, meta(i), { messages: i })) as typeof config;
        if (i === 20 || i === 40) bytesAt.push(saver.stats.bytesWritten);
      }
      expect((await counts()).messages).toBe(81);
      // Twice the steps: about twice the bytes (quadratic storage would be ~4x).
      expect(bytesAt[1]! / bytesAt[0]!).toBeLessThan(2.3);
      const raw = messages.reduce((sum, m) => sum + JSON.stringify(m).length, 0);
      expect(saver.stats.bytesWritten).toBeLessThan(2 * raw);
      const latest = await reopen().getTuple({ configurable: { thread_id: "lin" } });
      expect((latest?.checkpoint.channel_values.messages as BaseMessage[]).map((m) => m.id)).toEqual(messages.map((m) => m.id));
    });

    it("shares one message record between an id-less write and the checkpoint after the reducer gave it an id", async () => {
      const { saver, counts, reopen } = make();
      const c0 = ckpt({ messages: [ai(1)] }, { messages: 1 });
      const cfg = await saver.put({ configurable: { thread_id: "ids" } }, c0, meta(0), { messages: 1 });
      const result = new ToolMessage({ tool_call_id: "call-1", content: "same text" });
      const twin = new ToolMessage({ id: "twin", tool_call_id: "call-1", content: "same text" });
      await saver.putWrites(cfg, [["messages", [result]]], "tools");
      result.id = "assigned-by-reducer";
      result.lc_kwargs.id = result.id;
      const c1 = ckpt({ messages: [ai(1), result, twin] }, { messages: 2 });
      await saver.put(cfg, c1, meta(1), { messages: 2 });
      // ai(1) plus one record for the tool result, its id-less write and its equal-content twin.
      expect((await counts()).messages).toBe(2);
      const s = reopen();
      const written = (await s.getTuple(cfg))?.pendingWrites?.[0]?.[2] as ToolMessage[];
      expect(written[0]?.id).toBeUndefined();
      expect(written[0]?.content).toBe("same text");
      const latest = (await s.getTuple({ configurable: { thread_id: "ids" } }))?.checkpoint.channel_values.messages as ToolMessage[];
      expect(latest.map((m) => m.id)).toEqual(["ai-1", "assigned-by-reducer", "twin"]);
      expect(latest[1]?.lc_kwargs.id).toBe("assigned-by-reducer");
      expect(latest[2]).toEqual(twin);
    });

    it("re-serializes a message whose field was reassigned after it was checkpointed", async () => {
      const { saver, reopen } = make();
      const m = new AIMessage({ id: "m", content: "draft" });
      let cfg = await saver.put({ configurable: { thread_id: "mut" } }, ckpt({ messages: [m] }, { messages: 1 }), meta(0), { messages: 1 });
      m.content = "final";
      cfg = await saver.put(cfg, ckpt({ messages: [m] }, { messages: 2 }), meta(1), { messages: 2 });
      const latest = await reopen().getTuple(cfg);
      expect((latest?.checkpoint.channel_values.messages as BaseMessage[])[0]?.content).toBe("final");
    });

    it("rebuilds every checkpoint's list through delta chains, edits, removals and update-by-id", async () => {
      const { saver, reopen, counts } = make({ snapshotEvery: 3 });
      const expected: Array<[string, string[]]> = [];
      let list: BaseMessage[] = [];
      let config = { configurable: { thread_id: "d", checkpoint_ns: "" } };
      const put = async (next: BaseMessage[], v: number) => {
        list = next;
        const c = ckpt({ messages: next }, { messages: v });
        config = (await saver.put(config, c, meta(v), { messages: v })) as typeof config;
        expected.push([c.id, next.map((m) => String(m.content).slice(0, 12))]);
      };
      for (let i = 1; i <= 7; i += 1) await put([...list, ai(i), tool(i)], i);
      // update-by-id: same id, new content, in the middle of the list
      await put(
        list.map((m) => (m.id === "tool-2" ? new ToolMessage({ id: "tool-2", tool_call_id: "call-2", content: "edited" }) : m)),
        8,
      );
      await put(
        list.filter((m) => m.id !== "ai-5" && m.id !== "tool-5"),
        9,
      );
      await put([new HumanMessage({ id: "summary", content: "summary" })], 10);
      await put([...list, ai(11)], 11);
      expect((await counts()).messages).toBe(14 + 1 + 1 + 1);
      const fresh = reopen();
      for (const [id, contents] of expected) {
        const t = await fresh.getTuple({ configurable: { thread_id: "d", checkpoint_ns: "", checkpoint_id: id } });
        expect((t?.checkpoint.channel_values.messages as BaseMessage[]).map((m) => String(m.content).slice(0, 12))).toEqual(contents);
      }
      const listed = [];
      for await (const t of saver.list({ configurable: { thread_id: "d" } })) listed.push(t.checkpoint.channel_values.messages);
      expect(listed).toHaveLength(expected.length);
    });

    it("deleteThread removes every record of that thread and nothing else", async () => {
      const { saver, counts } = make();
      for (const thread of ["gone", "kept"]) {
        const c = ckpt({ messages: [ai(1), tool(1)], n: 1 }, { messages: 1, n: 1 });
        const cfg = await saver.put({ configurable: { thread_id: thread } }, c, meta(0), c.channel_versions);
        await saver.putWrites(
          cfg,
          [
            ["messages", [ai(2)]],
            ["n", 2],
          ],
          "task",
        );
      }
      const before = await counts();
      expect(before).toEqual({ checkpoints: 2, blobs: 4, messages: 6, writes: 4 });
      await saver.deleteThread("gone");
      expect(await counts()).toEqual({ checkpoints: 1, blobs: 2, messages: 3, writes: 2 });
      expect(await saver.getTuple({ configurable: { thread_id: "gone" } })).toBeUndefined();
      expect((await saver.getTuple({ configurable: { thread_id: "kept" } }))?.pendingWrites).toHaveLength(2);
      expect(await saver.listThreads()).toEqual(["kept"]);
    });

    it("rolls back a put aborted midway: the previous checkpoint still reads, nothing half-written remains", async () => {
      const { saver, counts, reopen } = make();
      const first = ckpt({ messages: [ai(1), tool(1)], n: 1 }, { messages: 1, n: 1 });
      const cfg = await saver.put({ configurable: { thread_id: "tx" } }, first, meta(0), first.channel_versions);
      const before = await counts();
      const bytesBefore = saver.stats.bytesWritten;

      // Messages and blobs are issued before the checkpoint record: abort there.
      restore = failPuts("checkpoints", "abort");
      const second = ckpt({ messages: [ai(1), tool(1), ai(2), tool(2)], n: 2 }, { messages: 2, n: 2 });
      const failed = saver.put(cfg, second, meta(1), { messages: 2, n: 2 });
      await expect(failed).rejects.toMatchObject({ name: "StorageError", code: "transaction_failed" });
      restore();
      restore = undefined;

      expect(await counts()).toEqual(before);
      expect(saver.stats.bytesWritten).toBe(bytesBefore);
      for (const s of [saver, reopen()]) {
        const latest = await s.getTuple({ configurable: { thread_id: "tx" } });
        expect(latest?.checkpoint).toEqual(first);
      }
      // The saver keeps working, and its delta base was not advanced by the failed put.
      await saver.put(cfg, second, meta(1), { messages: 2, n: 2 });
      const latest = await reopen().getTuple({ configurable: { thread_id: "tx" } });
      expect(latest?.checkpoint).toEqual(second);
    });

    it("reports a quota failure as code quota_exceeded and rolls the transaction back", async () => {
      const { saver, counts } = make();
      const first = ckpt({ messages: [ai(1)], n: 1 }, { messages: 1, n: 1 });
      const cfg = await saver.put({ configurable: { thread_id: "q" } }, first, meta(0), first.channel_versions);
      const before = await counts();
      // Fail on the second blob: the messages and the first blob were already issued.
      restore = failPuts("blobs", "quota", 1);
      const second = ckpt({ messages: [ai(1), tool(1)], n: 2 }, { messages: 2, n: 2 });
      const err = await saver.put(cfg, second, meta(1), { messages: 2, n: 2 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: "StorageError", code: "quota_exceeded" });
      restore();
      restore = undefined;
      expect(await counts()).toEqual(before);
      expect((await saver.getTuple({ configurable: { thread_id: "q" } }))?.checkpoint).toEqual(first);

      restore = failPuts("writes", "quota", 1);
      const writeErr = await saver
        .putWrites(
          cfg,
          [
            ["a", 1],
            ["b", 2],
          ],
          "task",
        )
        .catch((e: unknown) => e);
      expect(writeErr).toMatchObject({ code: "quota_exceeded" });
      restore();
      restore = undefined;
      expect((await saver.getTuple(cfg))?.pendingWrites).toEqual([]);
    });

    it("rejects bad configs with invalid_config and reads without thread_id as undefined", async () => {
      const { saver } = make();
      const c = ckpt({}, {});
      await expect(saver.put({ configurable: {} }, c, meta(0), {})).rejects.toMatchObject({ code: "invalid_config" });
      await expect(saver.putWrites({ configurable: { thread_id: "t" } }, [["a", 1]], "task")).rejects.toMatchObject({
        code: "invalid_config",
      });
      expect(await saver.getTuple({ configurable: {} })).toBeUndefined();
    });

    it("reports a list referencing a missing message as corrupt_record", async () => {
      const { saver, reopen, f, dbName } = make();
      const c = ckpt({ messages: [ai(1), tool(1)] }, { messages: 1 });
      await saver.put({ configurable: { thread_id: "c" } }, c, meta(0), { messages: 1 });
      const key = (await saver.getTuple({ configurable: { thread_id: "c" } }))!.checkpoint.channel_values.messages as BaseMessage[];
      expect(key).toHaveLength(2);
      await saver.close();
      // Remove the tool message's record behind the saver's back.
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = f.open(dbName);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const records = await new Promise<{ keys: IDBValidKey[]; values: Array<{ bytes: Uint8Array }> }>((resolve) => {
        const store = db.transaction("messages").objectStore("messages");
        const k = store.getAllKeys();
        const v = store.getAll();
        v.onsuccess = () => resolve({ keys: k.result, values: v.result });
      });
      db.close();
      const toolKey = records.keys[records.values.findIndex((r) => new TextDecoder().decode(r.bytes).includes("result 1 "))]!;
      await rawDelete(f, dbName, "messages", toolKey);
      await expect(reopen().getTuple({ configurable: { thread_id: "c" } })).rejects.toMatchObject({ code: "corrupt_record" });
    });

    it("reports every corrupted record as corrupt_record with its thread and checkpoint; the rest stays usable", async () => {
      const { saver, reopen, f, dbName } = make();
      const ids: Record<string, string> = {};
      for (const thread of ["good", "bytes", "type", "shape", "list", "lost", "lostValue", "legacy"]) {
        const c = ckpt({ messages: [ai(1), tool(1)], count: 1 }, { messages: 1, count: 1 });
        ids[thread] = c.id;
        await saver.put({ configurable: { thread_id: thread } }, c, meta(0), { messages: 1, count: 1 });
      }
      await saver.close();
      const key = (thread: string) => [thread, "", ids[thread]!];
      // Bytes that do not deserialize, an unknown serialization type, a record of the wrong shape.
      await rawUpdate(f, dbName, "checkpoints", key("bytes"), (r) => ({
        ...r,
        metadata: { t: "v", type: "json", bytes: new TextEncoder().encode("{not json") },
      }));
      await rawUpdate(f, dbName, "checkpoints", key("type"), (r) => ({
        ...r,
        checkpoint: { ...(r.checkpoint as object), type: "no-such-type" },
      }));
      await rawUpdate(f, dbName, "checkpoints", key("shape"), (r) => ({ ...r, versions: null }));
      await rawUpdate(f, dbName, "checkpoints", key("list"), (r) => ({ ...r, metadata: 42 }));
      // A value the checkpoint refers to is gone: the message list, a plain value.
      await rawDelete(f, dbName, "blobs", ["lost", "", "messages", 1]);
      await rawDelete(f, dbName, "blobs", ["lostValue", "", "count", 1]);
      // A record from before `valued` was kept cannot tell a lost value from an empty channel: it reads as empty.
      await rawUpdate(f, dbName, "checkpoints", key("legacy"), ({ valued: _, ...r }) => r);
      await rawDelete(f, dbName, "blobs", ["legacy", "", "count", 1]);
      const fresh = reopen();
      for (const thread of ["bytes", "type", "shape", "lost", "lostValue"]) {
        const err = await fresh.getTuple({ configurable: { thread_id: thread } }).catch((e: unknown) => e);
        expect(err, thread).toMatchObject({ name: "StorageError", code: "corrupt_record", threadId: thread, checkpointId: ids[thread] });
        expect((err as Error).message).toContain(`thread ${thread}, checkpoint ${ids[thread]}`);
      }
      const listed = async (thread: string) => {
        const out: string[] = [];
        for await (const t of fresh.list({ configurable: { thread_id: thread } })) out.push(t.checkpoint.id);
        return out;
      };
      await expect(listed("list")).rejects.toMatchObject({ code: "corrupt_record", threadId: "list", checkpointId: ids.list });
      await expect(listed("shape")).rejects.toMatchObject({ code: "corrupt_record", threadId: "shape" });
      await expect(listed("lost")).rejects.toMatchObject({ code: "corrupt_record", threadId: "lost", checkpointId: ids.lost });
      await expect(fresh.getTuple({ configurable: { thread_id: "lost" } })).rejects.toThrow(/channel 'messages' \(version 1\) is missing/);
      const legacy = await fresh.getTuple({ configurable: { thread_id: "legacy" } });
      expect(Object.keys(legacy!.checkpoint.channel_values)).toEqual(["messages"]);
      // The other thread still reads, lists and takes new checkpoints.
      expect((await fresh.getTuple({ configurable: { thread_id: "good" } }))!.checkpoint.channel_values.count).toBe(1);
      expect(await listed("good")).toEqual([ids.good]);
      const next = ckpt({ count: 2 }, { count: 2 });
      await fresh.put({ configurable: { thread_id: "good", checkpoint_id: ids.good } }, next, meta(1), { count: 2 });
      expect((await fresh.getTuple({ configurable: { thread_id: "good" } }))!.checkpoint.id).toBe(next.id);
    });

    it("hands out increasing, branch-unique channel versions", () => {
      const saver = new IndexedDBSaver("unused");
      const a = saver.getNextVersion(undefined);
      const b = saver.getNextVersion(a);
      expect(a).toBeGreaterThan(1);
      expect(a).toBeLessThan(2);
      expect(b).toBeGreaterThan(a);
      expect(Math.floor(b)).toBe(2);
      const forks = new Set(Array.from({ length: 200 }, () => saver.getNextVersion(5)));
      expect(forks.size).toBeGreaterThan(190);
    });
  });
}
