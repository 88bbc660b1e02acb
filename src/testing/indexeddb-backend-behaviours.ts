/**
 * What the conformance suite does not cover for IndexedDBBackend: persistence
 * across reopening, scopes, the shared factory, two connections (two tabs) on
 * one database, and concurrent writers. Shared by Node and Chromium tests.
 */
import { describe, expect, it } from "vitest";
import { IndexedDBBackend, IndexedDBFiles, indexedDBBackend } from "../backends/indexeddb.ts";
import { isBackendError, type Outcome } from "../backends/protocol.ts";
import { createBackendRuntime } from "../backends/runtime.ts";
import { StepFiles } from "../backends/step-files.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(`expected success, got ${value.error}: ${value.message}`);
  return value;
}

const until = async (check: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
};

export function indexedDBBackendBehaviours(name: string): void {
  const fresh = (dbName = `files-${crypto.randomUUID()}`) => new IndexedDBFiles({ dbName });

  describe(`IndexedDBBackend (${name})`, () => {
    it("keeps files across closing and reopening the database (new instance, same name)", async () => {
      const files = fresh();
      const b = new IndexedDBBackend(files, "t1", () => "2026-01-01T00:00:00.000Z");
      ok(await b.write("/notes/a.md", "persisted ✓\n"));
      await b.uploadFiles([{ path: "/bin.dat", content: new Uint8Array([0, 255, 1, 254]) }]);
      ok(await b.edit("/notes/a.md", "persisted", "kept"));
      await files.close();

      const reopened = new IndexedDBBackend(new IndexedDBFiles({ dbName: files.dbName }), "t1", () => "2026-01-02T00:00:00.000Z");
      expect(ok(await reopened.read("/notes/a.md")).lines).toEqual(["kept ✓"]);
      expect(Array.from((await reopened.downloadFiles(["/bin.dat"]))[0]!.content!)).toEqual([0, 255, 1, 254]);
      expect(ok(await reopened.ls("/")).map((f) => [f.path, f.isDir, f.size])).toEqual([
        ["/bin.dat", false, 4],
        ["/notes", true, 0],
      ]);
      ok(await reopened.edit("/notes/a.md", "kept", "again"));
      expect(ok(await reopened.glob("**/*.md"))[0]!.modifiedAt).toBe("2026-01-02T00:00:00.000Z");
      await reopened.files.close();
    });

    it("isolates scopes; the factory scopes by thread id and shares one index", async () => {
      const factory = indexedDBBackend({ dbName: `files-${crypto.randomUUID()}` });
      const rt = (thread?: string) => createBackendRuntime({}, thread ? { configurable: { thread_id: thread } } : {});
      const one = factory(rt("one"));
      ok(await one.write("/x.md", "one"));
      ok(await factory(rt("two")).write("/x.md", "two"));
      ok(await factory(rt()).write("/d.md", "default"));
      expect(factory(rt("one")).files).toBe(one.files);
      expect(ok(await factory(rt("one")).read("/x.md")).lines).toEqual(["one"]);
      expect(ok(await factory(rt("two")).grep("o")).map((m) => m.text)).toEqual(["two"]);
      expect(await factory.listScopes()).toEqual(["default", "one", "two"]);
      expect(await factory.deleteScope("one")).toBe(1);
      expect(await factory.listScopes()).toEqual(["default", "two"]);
      expect(isBackendError(await factory(rt("one")).read("/x.md"))).toBe(true);
      expect(ok(await factory(rt("one")).ls("/"))).toEqual([]);
      expect(ok(await factory(rt("two")).read("/x.md")).lines).toEqual(["two"]);
      const custom = indexedDBBackend({ dbName: factory.files.dbName, scope: () => "two" });
      expect(ok(await custom(rt("zzz")).read("/x.md")).lines).toEqual(["two"]);
      await custom.close();
      await factory.close();
    });

    it("checks existence in the database, not in a stale index (two tabs)", async () => {
      const dbName = `files-${crypto.randomUUID()}`;
      const tabA = new IndexedDBBackend(new IndexedDBFiles({ dbName }), "s");
      const tabB = new IndexedDBBackend(new IndexedDBFiles({ dbName }), "s");
      expect(ok(await tabB.ls("/"))).toEqual([]);
      ok(await tabA.write("/shared.md", "from A"));
      // B's index still has no file: the edit finds A's in the database.
      expect(ok(await tabB.edit("/shared.md", "A", "B"))).toEqual({ path: "/shared.md", occurrences: 1 });
      // B's own mutation refreshed its index; A learns through the channel.
      expect(ok(await tabB.read("/shared.md")).lines).toEqual(["from B"]);
      await until(async () => ok(await tabA.read("/shared.md")).lines[0] === "from B");
      expect(ok(await tabA.read("/shared.md")).lines).toEqual(["from B"]);
      await tabA.files.close();
      await tabB.files.close();
    });

    it("many concurrent writers of one path each replace the file whole: one of them is the file, never a mix", async () => {
      const b = new IndexedDBBackend(fresh(), "c");
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => b.write("/race.md", `writer ${i}`)));
      expect(outcomes.filter((o) => !isBackendError(o))).toHaveLength(20);
      expect(ok(await b.read("/race.md")).lines).toEqual([expect.stringMatching(/^writer \d+$/)]);
      const edits = await Promise.all(Array.from({ length: 10 }, () => b.edit("/race.md", "writer", "writer+", false)));
      expect(edits.every((e) => !isBackendError(e))).toBe(true);
      expect(ok(await b.read("/race.md")).lines[0]).toMatch(/^writer\+{10} \d+$/);
      await b.files.close();
    });

    it("a tool call's write, edit and delete run once: the same call again answers as before, another step writes afresh", async () => {
      const factory = indexedDBBackend({ dbName: `files-${crypto.randomUUID()}` });
      const inCall = (step: string, call: string) =>
        factory(createBackendRuntime({}, { configurable: { thread_id: "t", __pregel_task_id: step }, toolCall: { id: call } } as never));
      ok(await inCall("s1", "w").write("/a.md", "a"));
      expect(await inCall("s1", "w").write("/a.md", "a")).toEqual({ path: "/a.md" });
      expect(await inCall("s1", "e").edit("/a.md", "a", "aa", true)).toEqual({ path: "/a.md", occurrences: 1 });
      expect(await inCall("s1", "e").edit("/a.md", "a", "aa", true)).toEqual({ path: "/a.md", occurrences: 1 });
      expect(ok(await inCall("s1", "r").read("/a.md")).lines).toEqual(["aa"]);
      // A new step of the thread is another call, even with the same call id; its records replace the older step's.
      expect(await inCall("s2", "w").write("/a.md", "s2")).toEqual({ path: "/a.md" });
      expect(ok(await inCall("s2", "r").read("/a.md")).lines).toEqual(["s2"]);
      ok(await inCall("s2", "d").delete("/a.md"));
      expect(await inCall("s2", "d").delete("/a.md")).toEqual({ path: "/a.md" });
      ok(await inCall("s3", "w").write("/a.md", "new"));
      const plain = () => factory(createBackendRuntime({}, { configurable: { thread_id: "t" } }));
      // Step s1's records went when s2 wrote: its edit runs afresh.
      ok(await inCall("s1", "e").edit("/a.md", "new", "x"));
      expect(ok(await plain().read("/a.md")).lines).toEqual(["x"]);
      // Deleting the scope deletes the records with the files: s3's write runs afresh too.
      await factory.deleteScope("t");
      ok(await inCall("s3", "w").write("/a.md", "again"));
      expect(ok(await plain().read("/a.md")).lines).toEqual(["again"]);
      await factory.close();
    });

    it("keeps createdAt across edits, re-uploads and overwrites; a directory blocks writes and uploads", async () => {
      let now = "2026-01-01T00:00:00.000Z";
      const b = new IndexedDBBackend(fresh(), "t", () => now);
      ok(await b.write("/d/f.txt", "a"));
      now = "2026-01-03T00:00:00.000Z";
      expect(
        await b.uploadFiles([
          { path: "/d/f.txt", content: new TextEncoder().encode("b") },
          { path: "/d", content: new Uint8Array([1]) },
        ]),
      ).toEqual([{ path: "/d/f.txt" }, { path: "/d", error: "is_directory" }]);
      expect(ok(await b.ls("/d"))).toEqual([{ path: "/d/f.txt", isDir: false, size: 1, modifiedAt: now }]);
      expect((await b.files.index("t")).get("/d/f.txt")!.data.createdAt).toBe("2026-01-01T00:00:00.000Z");
      now = "2026-01-04T00:00:00.000Z";
      ok(await b.write("/d/f.txt", "replaced"));
      expect((await b.files.index("t")).get("/d/f.txt")!.data).toMatchObject({ createdAt: "2026-01-01T00:00:00.000Z", modifiedAt: now });
      expect(await b.edit("/d", "a", "b")).toMatchObject({ error: "is_directory" });
      expect(await b.downloadFiles(["/d"])).toEqual([{ path: "/d", error: "is_directory" }]);
      // A directory is deleted with what is in it (deepagentsjs 1.13).
      expect(await b.delete("/d")).toEqual({ path: "/d" });
      expect(ok(await b.ls("/"))).toEqual([]);
      await b.files.close();
    });

    describe("calls of one step (a step's shared StepFiles)", () => {
      /** The backend of call `id` (tool `name`) of a step whose calls share `step`, on one workspace. */
      const callOf = (factory: ReturnType<typeof indexedDBBackend>, step: StepFiles, name: string, id: string) =>
        factory(createBackendRuntime({}, { configurable: { thread_id: "t" }, toolCall: { name, id } } as never, undefined, step));

      it("a write over a sibling's change to other lines is merged, one over the same words is refused and can be redone", async () => {
        const factory = indexedDBBackend({ dbName: `files-${crypto.randomUUID()}` });
        const step = new StepFiles({});
        ok(await callOf(factory, new StepFiles({}), "write_file", "setup").write("/a.md", "one\ntwo\n"));
        ok(await callOf(factory, step, "edit_file", "e").edit("/a.md", "one", "ONE"));
        // The writer knew the step's start; its change to the other line is merged with the sibling's.
        ok(await callOf(factory, step, "write_file", "w1").write("/a.md", "one\nTWO\n"));
        expect(ok(await factory.files.index("t")).get("/a.md")!.data.content).toBe("ONE\nTWO\n");
        const writer = callOf(factory, step, "write_file", "w2");
        const refused = await writer.write("/a.md", "uno\ntwo\n");
        expect(refused).toMatchObject({ error: "conflict" });
        expect(isBackendError(refused) && refused.message).toContain(
          "Conflict: this call's changes to /a.md were not applied: edit_file call e, write_file call w1, which ran beside it",
        );
        expect(ok(await factory.files.index("t")).get("/a.md")!.data.content).toBe("ONE\nTWO\n");
        // Told, the call knows the sibling's version: its next write is its own decision.
        ok(await writer.write("/a.md", "uno\n"));
        expect(ok(await factory.files.index("t")).get("/a.md")!.data.content).toBe("uno\n");
        await factory.close();
      });

      it("a delete of a file a sibling changed is refused once, with the sibling named, then goes through", async () => {
        const factory = indexedDBBackend({ dbName: `files-${crypto.randomUUID()}` });
        const step = new StepFiles({});
        ok(await callOf(factory, new StepFiles({}), "write_file", "setup").write("/a.md", "one\n"));
        ok(await callOf(factory, step, "edit_file", "e").edit("/a.md", "one", "ONE"));
        const deleter = callOf(factory, step, "delete", "d");
        expect(await deleter.delete("/a.md")).toMatchObject({
          error: "conflict",
          message: expect.stringContaining("Conflict: this call deleted /a.md, but edit_file call e, which ran beside it") as unknown,
        });
        expect(ok(await factory.files.index("t")).has("/a.md")).toBe(true);
        expect(await deleter.delete("/a.md")).toEqual({ path: "/a.md" });
        // A call of the next step (a new StepFiles) changes what the last step left, without a word.
        ok(await callOf(factory, new StepFiles({}), "write_file", "next").write("/b.md", "b"));
        ok(await callOf(factory, step, "write_file", "e").write("/b.md", "own"));
        await factory.close();
      });
    });
  });
}
