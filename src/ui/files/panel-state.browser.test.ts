/**
 * The files panel's state without the panel (Chromium, for the runes): the "new" form's templates, its problem
 * shown only once the person typed or pressed Create, what Create sends and what a refusal leaves; the workspace
 * zip's notice; a big folder cut at FOLDER_LIMIT until "Show all".
 */
import { describe, expect, it } from "vitest";
import { fail, ok, type Result } from "../../core/result.ts";
import { MEMORY_PATH, MEMORY_TEMPLATE, skillTemplate } from "./file-tree.ts";
import { FilesPanelState, FOLDER_LIMIT, type PanelFiles } from "./panel-state.svelte.ts";

/** Files that record what the panel asked for, and answer with `created` and `zipped`. */
function fakeFiles(created: Result<null> = ok(null), zipped: Result<null> = ok(null)) {
  const calls = { create: [] as [string, string][], open: [] as string[], zips: 0 };
  const files: PanelFiles = {
    create: (path, content) => (calls.create.push([path, content]), Promise.resolve(created)),
    open: (path) => (calls.open.push(path), Promise.resolve()),
    downloadZip: () => (calls.zips++, Promise.resolve(zipped)),
  };
  return { files, calls };
}

describe("the files panel's new form", () => {
  it("opens each kind on its template: an empty file at /, the memory file, a skill named by what is typed", () => {
    const { form } = new FilesPanelState(fakeFiles().files);
    form.start("file");
    expect([form.mode, form.targetPath, form.content]).toEqual(["file", "/", ""]);
    form.start("memory");
    expect([form.targetPath, form.content]).toEqual([MEMORY_PATH, MEMORY_TEMPLATE]);
    form.start("skill");
    expect(form.content).toBe(skillTemplate("my-skill"));
    form.skillName = "write-tests";
    form.renamed();
    expect(form.targetPath).toBe("/skills/write-tests/SKILL.md");
    expect(form.content).toBe(skillTemplate("write-tests"));
    expect(form.openings).toBe(3);
  });

  it("stops rewriting a skill's content once the person edited it, until a form opens again", () => {
    const { form } = new FilesPanelState(fakeFiles().files);
    form.start("skill");
    form.content = "mine";
    form.edited();
    form.skillName = "lint";
    form.renamed();
    expect(form.content).toBe("mine");
    form.start("skill");
    form.skillName = "lint";
    form.renamed();
    expect(form.content).toBe(skillTemplate("lint"));
  });

  it("shows a path's problem once something is typed or Create is pressed, and sends nothing while there is one", async () => {
    const { files, calls } = fakeFiles();
    const { form } = new FilesPanelState(files);
    form.start("file");
    expect(form.problem).toBeTruthy();
    expect(form.showProblem).toBe(false);
    await form.submit();
    expect(form.showProblem).toBe(true);
    expect(calls.create).toEqual([]);
    expect(form.mode).toBe("file");
    form.start("file");
    form.path = "notes.md";
    expect(form.showProblem).toBe(true);
    expect(form.problem).toBe("The path must be absolute (start with /).");
  });

  it("creates the file and closes; a refusal keeps the form open with the worker's error, and Open it opens that file", async () => {
    const { files, calls } = fakeFiles();
    const panel = new FilesPanelState(files);
    panel.form.start("file");
    panel.form.path = "/notes.md";
    panel.form.content = "hi";
    await panel.form.submit();
    expect(calls.create).toEqual([["/notes.md", "hi"]]);
    expect(panel.form.mode).toBeNull();

    const refused = fakeFiles(fail("already_exists", "/notes.md exists already."));
    const { form } = new FilesPanelState(refused.files);
    form.start("file");
    form.path = "/notes.md";
    await form.submit();
    expect(form.mode).toBe("file");
    expect(form.error).toMatchObject({ code: "already_exists", message: "/notes.md exists already." });
    expect(form.creating).toBe(false);
    await form.openExisting();
    expect(form.mode).toBeNull();
    expect(refused.calls.open).toEqual(["/notes.md"]);
  });
});

describe("the files panel's state", () => {
  it("says how the workspace zip went", async () => {
    const done = new FilesPanelState(fakeFiles().files);
    await done.zip();
    expect([done.zipping, done.notice]).toEqual([false, "Workspace zip downloaded."]);
    const failed = new FilesPanelState(fakeFiles(ok(null), fail("quota", "The disk is full.")).files);
    await failed.zip();
    expect(failed.notice).toBe("The disk is full.");
  });

  it("shows a folder's first FOLDER_LIMIT children until Show all, for that folder only", () => {
    const panel = new FilesPanelState(fakeFiles().files);
    const many = Array.from({ length: FOLDER_LIMIT + 5 }, (_, i) => i);
    expect(panel.shownOf(many, "/a/")).toHaveLength(FOLDER_LIMIT);
    expect(panel.shownOf(many.slice(0, FOLDER_LIMIT), "/a/")).toHaveLength(FOLDER_LIMIT);
    panel.expandAll("/a/");
    expect(panel.shownOf(many, "/a/")).toHaveLength(FOLDER_LIMIT + 5);
    expect(panel.shownOf(many, "/b/")).toHaveLength(FOLDER_LIMIT);
  });
});
