import { describe, expect, it } from "vitest";
import { ownedThreadIds, parseThreadExport, sortThreads, threadSuffix, threadTitle } from "./thread-export.ts";

const info = (id: string, updatedAt: string) => ({ id, title: id, createdAt: updatedAt, updatedAt, messageCount: 0 });
const valid = {
  format: "deeptab-thread",
  version: 1,
  thread: info("t", "2024-01-01T00:00:00.000Z"),
  checkpoints: [{ threadSuffix: "", checkpointNs: "", checkpointId: "c1", type: "json", data: "e30=" }],
  files: { "/a.md": { content: "a", encoding: "utf-8", createdAt: "x", modifiedAt: "x" } },
};

describe("thread helpers", () => {
  it("titles: collapsed whitespace, at most 60 characters, a default", () => {
    expect(threadTitle("  hello \n world ")).toBe("hello world");
    expect(threadTitle("x".repeat(100))).toHaveLength(60);
    expect(threadTitle("   ")).toBe("New thread");
  });

  it("finds a thread's subagent threads and their suffixes", () => {
    expect(ownedThreadIds("a", ["a", "a::task::1", "ab", "b::task::a"])).toEqual(["a", "a::task::1"]);
    expect(threadSuffix("a", "a::task::1")).toBe("::task::1");
  });

  it("sorts newest first", () => {
    expect(sortThreads([info("old", "2024-01-01"), info("new", "2024-02-01")]).map((t) => t.id)).toEqual(["new", "old"]);
  });

  it("accepts an export and rejects anything else", () => {
    expect(parseThreadExport(valid)).toBe(valid);
    expect(parseThreadExport(null)).toBeNull();
    expect(parseThreadExport({ ...valid, version: 2 })).toBeNull();
    expect(parseThreadExport({ ...valid, checkpoints: [{ ...valid.checkpoints[0], threadSuffix: "other" }] })).toBeNull();
    expect(parseThreadExport({ ...valid, files: { "/memories/x": valid.files["/a.md"] } })).toBeNull();
    expect(parseThreadExport({ ...valid, files: { "/a.md": { content: 1 } } })).toBeNull();
  });
});
