import { describe, expect, it } from "vitest";
import { backendConformance } from "../testing/backend-conformance.ts";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { normalizePath } from "./paths.ts";
import { createBackendRuntime } from "./runtime.ts";
import { filesReducer, StateBackend } from "./state.ts";

backendConformance("StateBackend", () => new StateBackend(createBackendRuntime({}, {}, () => FIXED_NOW)));

describe("StateBackend", () => {
  it("reads state, sees its own pending writes, and records updates with delete markers", async () => {
    const rt = createBackendRuntime({ "/keep.md": textFile("k"), "/drop.md": textFile("d") }, {}, () => FIXED_NOW);
    const b = new StateBackend(rt);
    await b.write("/new.md", "n");
    await b.delete("/drop.md");
    expect(rt.pendingFiles).toEqual({ "/new.md": textFile("n"), "/drop.md": null });
    expect((await b.ls("/")).valueOf()).toEqual([
      { path: "/keep.md", isDir: false, size: 1, modifiedAt: FIXED_NOW },
      { path: "/new.md", isDir: false, size: 1, modifiedAt: FIXED_NOW },
    ]);
    expect(rt.stateFiles["/drop.md"]).toBeDefined();
  });

  it("merges updates with null deleting", () => {
    expect(filesReducer({ "/a": textFile("a"), "/b": textFile("b") }, { "/b": null, "/c": textFile("c") })).toEqual({
      "/a": textFile("a"),
      "/c": textFile("c"),
    });
  });
});

describe("paths", () => {
  it("normalizes and rejects escapes", () => {
    expect(normalizePath("/a//b/./c/")).toBe("/a/b/c");
    expect(normalizePath("/")).toBe("/");
    for (const bad of ["a", "../a", "/a/../b", "~", "~/a", "/a/~/b", "C:/a", "/a\\b", "/a\u0000b", ""]) {
      expect(normalizePath(bad), bad).toMatchObject({ error: "invalid_path" });
    }
  });
});
