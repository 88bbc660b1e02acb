import { describe, expect, it } from "vitest";
import { ownedThreadIds, parseThreadExport, sortThreads, threadSuffix, threadTitle } from "./thread-export.ts";

const info = (id: string, updatedAt: string) => ({ id, title: id, createdAt: updatedAt, updatedAt, messageCount: 0 });
const valid = {
  format: "deeptab-thread",
  version: 1,
  thread: info("t", "2024-01-01T00:00:00.000Z"),
  checkpoints: [{ threadSuffix: "", checkpointNs: "", checkpointId: "c1", type: "json", data: "e30=" }],
  files: { "/a.md": { content: "a", encoding: "utf-8", createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-01T00:00:00.000Z" } },
};

describe("thread helpers", () => {
  it("titles: collapsed whitespace, no control or bidi characters, at most 60 characters, a default", () => {
    expect(threadTitle("  hello \n world ")).toBe("hello world");
    expect(threadTitle("a\u0000b\u202ec")).toBe("a b c");
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

  it("accepts an export and rejects anything else, saying why", () => {
    expect(parseThreadExport(valid)).toEqual({ ok: true, value: valid });
    const reason = (data: unknown) => {
      const r = parseThreadExport(data);
      return r.ok ? "accepted" : r.error;
    };
    expect(reason(null)).toMatch(/expected object/);
    expect(reason({ ...valid, version: 2 })).toMatch(/^version/);
    expect(reason({ ...valid, checkpoints: [{ ...valid.checkpoints[0], threadSuffix: "other" }] })).toMatch(
      /^checkpoints\.0\.threadSuffix/,
    );
    expect(reason({ ...valid, files: { "/memories/x": valid.files["/a.md"] } })).toMatch(/shares/);
    // Skills are shared too: an imported one would vanish under the shared route (or overwrite everyone's), so it is refused.
    expect(reason({ ...valid, files: { "/skills/s/SKILL.md": valid.files["/a.md"] } })).toBe(
      "files: '/skills/s/SKILL.md' is under /skills/, which every thread shares (a thread's export leaves it out)",
    );
    expect(reason({ ...valid, files: { "/a.md": { content: 1 } } })).toMatch(/^files\./);
    expect(reason({ ...valid, files: { "/a/../b": valid.files["/a.md"] } })).toMatch(/traversal/);
    expect(reason({ ...valid, thread: { ...valid.thread, messageCount: -5 } })).toMatch(/^thread\.messageCount/);
    expect(reason({ ...valid, thread: { ...valid.thread, createdAt: "yesterday" } })).toMatch(/^thread\.createdAt/);
    expect(reason({ ...valid, checkpoints: [{ ...valid.checkpoints[0], data: "not base64!" }] })).toMatch(/base64/);
  });

  it("caps what an import brings: a 5,039-character title becomes a 60-character one", () => {
    const r = parseThreadExport({ ...valid, thread: { ...valid.thread, title: "t".repeat(5_039) } });
    expect(r.ok && r.value.thread.title.length).toBe(60);
  });
});
