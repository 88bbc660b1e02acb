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

const validV2 = {
  format: "deeptab-thread",
  version: 2,
  thread: info("t", "2024-01-01T00:00:00.000Z"),
  messages: [{ lc: 1, type: "constructor", id: ["langchain_core", "messages", "HumanMessage"], kwargs: { content: "hi" } }],
  values: [{ threadSuffix: "", checkpointNs: "", channel: "messages", version: 2, messages: [0] }],
  checkpoints: [
    {
      threadSuffix: "",
      checkpointNs: "",
      checkpointId: "c1",
      checkpoint: { type: "json", json: { v: 4, id: "c1", channel_versions: { messages: 2 }, channel_values: {} } },
      metadata: { type: "json", json: { source: "input", step: -1 } },
      pendingWrites: [{ task: "t1", channel: "messages", message: 0 }],
    },
  ],
  files: valid.files,
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
    expect(reason({ ...valid, version: 3 })).toMatch(/^version/);
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

  it("accepts a version 2 export and rejects a malformed history, saying where", () => {
    expect(parseThreadExport(validV2)).toEqual({ ok: true, value: validV2 });
    const reason = (data: unknown) => {
      const r = parseThreadExport(data);
      return r.ok ? "accepted" : r.error;
    };
    expect(reason({ ...validV2, messages: undefined })).toMatch(/^messages/);
    expect(reason({ ...validV2, values: [{ ...validV2.values[0], messages: [-1] }] })).toMatch(/^values\.0/);
    expect(reason({ ...validV2, values: [{ ...validV2.values[0], channel: "" }] })).toMatch(/^values\.0\.channel/);
    expect(reason({ ...validV2, checkpoints: [{ ...validV2.checkpoints[0], checkpoint: { type: "msgpack", base64: "!" } }] })).toMatch(
      /^checkpoints\.0\.checkpoint/,
    );
    expect(reason({ ...validV2, checkpoints: [{ ...validV2.checkpoints[0], extra: 1 }] })).toMatch(/^checkpoints\.0/);
    expect(reason({ ...validV2, checkpoints: [{ ...validV2.checkpoints[0], pendingWrites: [{ task: "t", channel: "x" }] }] })).toMatch(
      /^checkpoints\.0\.pendingWrites\.0/,
    );
  });

  it("caps what an import brings: a 5,039-character title becomes a 60-character one", () => {
    const r = parseThreadExport({ ...valid, thread: { ...valid.thread, title: "t".repeat(5_039) } });
    expect(r.ok && r.value.thread.title.length).toBe(60);
  });
});
