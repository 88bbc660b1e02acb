import { describe, expect, it } from "vitest";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { createBackendRuntime } from "./runtime.ts";
import { StateBackend } from "./state.ts";
import { stepFileNoteText } from "./step-file-notes.ts";
import { StepFiles } from "./step-files.ts";

/** A StateBackend for one call of a step whose calls share `step`. */
function callBackend(step: StepFiles, name: string, id: string): StateBackend {
  return new StateBackend(createBackendRuntime({}, { toolCall: { name, id } } as never, () => FIXED_NOW, step));
}

describe("StepFiles: one view per step, and changes made against the step's start merged into it", () => {
  it("merges a subagent's change into a file a sibling wrote through the view, naming that sibling", async () => {
    const start = { "/notes.md": textFile("alpha\nbeta\ngamma\n") };
    const step = new StepFiles(start);
    const edit = await callBackend(step, "edit_file", "c1").edit("/notes.md", "alpha", "ALPHA");
    expect(edit).not.toHaveProperty("error");
    // The subagent started from the step's files and changed another line.
    const notes = await step.add("task call c2", { "/notes.md": textFile("alpha\nbeta\nGAMMA\n") });
    expect(notes).toEqual([{ path: "/notes.md", earlier: ["edit_file call c1"], outcome: "merged" }]);
    expect((await step.update())?.["/notes.md"]?.content).toBe("ALPHA\nbeta\nGAMMA\n");
    // A later call of the step reads the merged file through the view.
    expect(await callBackend(step, "read_file", "c3").read("/notes.md")).toMatchObject({ lines: ["ALPHA", "beta", "GAMMA"] });
  });

  it("keeps the sibling's version and says what was lost when both changed the same words", async () => {
    const step = new StepFiles({ "/a.md": textFile("one two\n") });
    step.set("/a.md", textFile("one TWO\n"), "write_file call w");
    const [note] = await step.add("task call t", { "/a.md": textFile("one deux\n") });
    expect(note).toMatchObject({ path: "/a.md", earlier: ["write_file call w"], outcome: "conflict", ours: "one deux\n" });
    expect(stepFileNoteText(note!)).toContain("were not applied: write_file call w");
    expect((await step.update())?.["/a.md"]?.content).toBe("one TWO\n");
  });

  it("never lets a subagent's change make a path both a file and a directory in the step", async () => {
    const step = new StepFiles({});
    await callBackend(step, "write_file", "w").write("/dir/f.md", "f");
    const notes = await step.add("task call t", { "/dir": textFile("file"), "/ok.md": textFile("ok") });
    expect(notes.map((n) => [n.path, n.outcome])).toEqual([["/dir", "placement"]]);
    expect(Object.keys((await step.update()) ?? {}).sort()).toEqual(["/dir/f.md", "/ok.md"]);
    expect(step.isDir("/dir")).toBe(true);
  });

  it("takes a change of a path no other call changed as it is, without a note", async () => {
    const step = new StepFiles({ "/a.md": textFile("a") });
    expect(await step.add("task call t", { "/a.md": null, "/b/c.md": textFile("c") })).toEqual([]);
    expect(await step.update()).toEqual({ "/a.md": null, "/b/c.md": textFile("c") });
  });
});
