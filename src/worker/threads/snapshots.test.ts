/**
 * The recorded workspace over the app's IndexedDB layout (fake-indexeddb): a recording stores each content once,
 * reads again only the files whose size or time changed, leaves the harness's paths out, and goes with the thread.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { createBackendRuntime, resolveBackend } from "../../backends/runtime.ts";
import { createLayout } from "../layout.ts";

function workspace(threadId: string) {
  const layout = createLayout(`snap-${crypto.randomUUID()}`);
  const fs = resolveBackend(layout.backend(layout.workspace), createBackendRuntime({}, { configurable: { thread_id: threadId } }));
  const read: string[] = [];
  const download = fs.downloadFiles!.bind(fs);
  fs.downloadFiles = (paths) => (read.push(...paths), download(paths));
  const write = (path: string, text: string) => fs.uploadFiles!([{ path, content: new TextEncoder().encode(text) }]);
  return { layout, fs, read, write };
}

describe("the recorded workspace", () => {
  it("records each file by content hash, re-reads only what changed, and forgets the thread with it", async () => {
    const { layout, fs, read, write } = workspace("t");
    const snapshots = await layout.snapshots();
    await write("/a.txt", "alpha\n");
    await write("/b.txt", "beta\n");
    await write("/large_tool_results/call_1", "offloaded");
    const first = await snapshots.take("t", "before:m1", fs);
    expect(Object.keys(first).sort()).toEqual(["/a.txt", "/b.txt"]);
    expect(read.sort()).toEqual(["/a.txt", "/b.txt"]);

    read.length = 0;
    await new Promise((r) => setTimeout(r, 5));
    await write("/b.txt", "beta, longer\n");
    const second = await snapshots.take("t", "after:m1", fs);
    expect(read).toEqual(["/b.txt"]);
    expect(second["/a.txt"]).toBe(first["/a.txt"]);
    expect(second["/b.txt"]).not.toBe(first["/b.txt"]);
    expect(await snapshots.manifest("t", "before:m1")).toEqual(first);
    expect(await snapshots.blob("t", first["/b.txt"]!)).toEqual({ content: "beta\n", encoding: "utf-8" });

    await layout.deleteThreadFiles("t");
    expect(await snapshots.manifest("t", "before:m1")).toBeUndefined();
    expect(await snapshots.blob("t", first["/a.txt"]!)).toBeUndefined();
  });
});
