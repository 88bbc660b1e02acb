/**
 * MemoryFileStore's own behaviour, which the offline shell's workspace and its
 * capped `/tmp` (ScratchStore) share: staged units applied whole, one at a
 * time, and the byte cap that refuses a unit whole.
 */
import { describe, expect, it } from "vitest";
import { textFile } from "../testing/runtime.ts";
import { MemoryFileStore } from "./memory-store.ts";
import { ScratchStore } from "./sandbox/scratch-store.ts";

const full = (what: string) => Object.assign(new Error(`full: ${what}`), { code: "FULL" });

describe("MemoryFileStore", () => {
  it("applies a unit whole, and nothing of a unit whose body fails", async () => {
    const store = new MemoryFileStore({ "/a.txt": textFile("a") });
    await expect(
      store.mutate("write then fail", async (tx) => {
        await tx.put("/b.txt", textFile("b"));
        await tx.delete("/a.txt");
        expect(await tx.get("/b.txt")).toEqual(textFile("b"));
        throw new Error("body failed");
      }),
    ).rejects.toThrow("body failed");
    expect([...(await store.snapshot()).entries()].map(([p]) => p)).toEqual(["/a.txt"]);
    expect(store.bytes).toBe(1);

    await store.mutate("write", async (tx) => {
      await tx.put("/dir/b.txt", textFile("bb"));
      await tx.delete("/a.txt");
    });
    expect(await store.get("/a.txt")).toBeUndefined();
    expect((await store.get("/dir/b.txt"))?.size).toBe(2);
    expect((await store.snapshot()).isDir("/dir")).toBe(true);
    expect(store.bytes).toBe(2);
  });

  it("runs units one at a time, so two read-modify-writes of one file lose neither", async () => {
    const store = new MemoryFileStore({ "/n": textFile("0") });
    const increment = () =>
      store.mutate("increment", async (tx) => {
        const n = Number((await tx.get("/n"))?.content);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.put("/n", textFile(String(n + 1)));
      });
    await Promise.all([increment(), increment(), increment()]);
    expect((await store.get("/n"))?.data.content).toBe("3");
  });

  it("with a cap, counts replaced and deleted files and refuses a unit over it whole with the cap's error", async () => {
    const store = new MemoryFileStore({}, { maxBytes: 10, full });
    await store.mutate("fill", async (tx) => {
      await tx.put("/a", textFile("aaaaaa"));
      await tx.put("/b", textFile("bbbb"));
    });
    expect(store.bytes).toBe(10);
    // Replacing /a with a smaller file and adding one that fits in the freed bytes is within the cap.
    await store.mutate("replace", async (tx) => {
      await tx.put("/a", textFile("aa"));
      await tx.put("/c", textFile("cccc"));
    });
    expect(store.bytes).toBe(10);
    await expect(
      store.mutate("one byte too many", async (tx) => {
        await tx.delete("/b");
        await tx.put("/d", textFile("ddddd"));
      }),
    ).rejects.toMatchObject({ message: "full: one byte too many", code: "FULL" });
    expect(store.bytes).toBe(10);
    expect(await store.get("/b")).toBeDefined();
    expect(await store.get("/d")).toBeUndefined();
    store.clear();
    expect(store.bytes).toBe(0);
    expect([...(await store.snapshot()).entries()]).toEqual([]);
  });

  // A /tmp unit runs inside the workspace's unit, which may hold an IndexedDB transaction: it must not wait.
  it("as the shell's /tmp (ScratchStore), starts a unit at once while another is open", async () => {
    const tmp = new ScratchStore();
    let release = () => {};
    const first = tmp.mutate(
      "first",
      (tx) => new Promise<void>((resolve) => (release = () => void tx.put("/tmp/a", textFile("a")).then(resolve))),
    );
    let started = false;
    const second = tmp.mutate("second", async (tx) => {
      started = true;
      await tx.put("/tmp/b", textFile("b"));
    });
    await second;
    expect(started).toBe(true);
    release();
    await first;
    expect([...(await tmp.snapshot()).entries()].map(([p]) => p).sort()).toEqual(["/tmp/a", "/tmp/b"]);
  });

  it("is the shell's /tmp: ScratchStore refuses a unit over its cap with ENOSPC", async () => {
    const tmp = new ScratchStore(2 * 1024 * 1024);
    const big = textFile("x".repeat(1024 * 1024 + 1));
    await tmp.mutate("cp a b", async (tx) => tx.put("/tmp/a", big));
    await expect(tmp.mutate("cp a b", async (tx) => tx.put("/tmp/b", big))).rejects.toMatchObject({
      code: "ENOSPC",
      message: "ENOSPC: no space left on device: /tmp holds at most 2 MB, cp a b",
    });
    expect(tmp.bytes).toBe(1024 * 1024 + 1);
  });
});
