import { describe, expect, it } from "vitest";
import { backendConformance, stateStep } from "../testing/backend-conformance.ts";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { normalizePath } from "./paths.ts";
import { createBackendRuntime } from "./runtime.ts";
import { filesReducer, StateBackend } from "./state.ts";
import { StepFiles } from "./step-files.ts";

backendConformance("StateBackend", () => new StateBackend(createBackendRuntime({}, {}, () => FIXED_NOW)), { step: stateStep });

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

  it("counts a step's directories through writes and deletes, over the state's files", () => {
    const step = new StepFiles({ "/d/a.md": textFile("a"), "/e/f/g.md": textFile("g") });
    expect([step.isDir("/d"), step.isDir("/e"), step.isDir("/e/f"), step.isDir("/d/a.md"), step.isDir("/")]).toEqual([
      true,
      true,
      true,
      false,
      true,
    ]);
    step.set("/d/a.md", null);
    expect(step.isDir("/d")).toBe(false);
    step.set("/d/b/c.md", textFile("c"));
    step.set("/d/b/c.md", textFile("c2"));
    expect([step.isDir("/d"), step.isDir("/d/b")]).toEqual([true, true]);
    step.set("/d/b/c.md", null);
    step.set("/e/f/g.md", null);
    expect([step.isDir("/d"), step.isDir("/e")]).toEqual([false, false]);
    expect([...step.entries()]).toEqual([]);
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
