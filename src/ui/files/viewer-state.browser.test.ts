/**
 * The file viewer's state without the viewer (Chromium, for the runes), over fake files: why Edit is off, the line
 * range of one page of many and the pages either side, editing (the draft, Save's note, a failed save), leaving the
 * modes for another file, and Delete's outcome.
 */
import { describe, expect, it } from "vitest";
import { fail, ok, type Result } from "../../core/result.ts";
import type { FilePage } from "../../protocol/files.ts";
import { EDIT_LIMIT, type OpenFile, type ViewerFiles } from "./files.svelte.ts";
import { FileViewerState } from "./viewer-state.svelte.ts";

function pageOf(lines: string[], over: Partial<FilePage> = {}): FilePage {
  return { path: "/a.md", lines, offset: 0, totalLines: lines.length, binary: false, size: lines.join("\n").length, ...over };
}

/** Files showing `current`, recording pages and saves, answering with `answers`. */
function fakeFiles(
  current: OpenFile | null,
  answers: { text?: Result<string>; save?: Result<null>; remove?: Result<null>; savedNote?: string } = {},
) {
  const calls = { pages: [] as number[], saves: [] as [string, string][], removed: [] as string[] };
  const files: ViewerFiles = {
    current,
    ...(answers.savedNote ? { savedNote: answers.savedNote } : {}),
    entry: () => ({ size: 7 }),
    page: (offset) => (calls.pages.push(offset), Promise.resolve()),
    text: () => Promise.resolve(answers.text ?? ok("# Title")),
    imageUrl: () => Promise.resolve(ok("blob:x")),
    save: (path, content) => (calls.saves.push([path, content]), Promise.resolve(answers.save ?? ok(null))),
    remove: (path) => (calls.removed.push(path), Promise.resolve(answers.remove ?? ok(null))),
    download: () => Promise.resolve(ok(null)),
  };
  return { files, calls };
}

const open = (page: FilePage | null): OpenFile => ({ path: "/a.md", page, loading: false, error: null });

describe("the file viewer's state", () => {
  it("says why a file cannot be edited: still loading, binary, over 2 MB; a small text file can be", () => {
    const reason = (file: OpenFile) => new FileViewerState(() => fakeFiles(file).files).editReason;
    expect(reason(open(null))).toBe("The file is still loading.");
    expect(reason(open(pageOf([], { binary: true, size: 10 })))).toBe("Binary files cannot be edited here.");
    expect(reason(open(pageOf(["x"], { size: EDIT_LIMIT + 1 })))).toMatch(/^Files over 2 MB cannot be edited here \(this one is /);
    expect(reason(open(pageOf(["# Title"])))).toBeNull();
  });

  it("numbers one page of many and asks for the page before or after it", () => {
    const page = pageOf(
      Array.from({ length: 500 }, (_, i) => `line ${i + 501}`),
      { offset: 500, totalLines: 2_000 },
    );
    const { files, calls } = fakeFiles(open(page));
    const viewer = new FileViewerState(() => files);
    expect([viewer.paged, viewer.firstLine, viewer.lastLine, viewer.markdown, viewer.language]).toEqual([
      true,
      501,
      1000,
      true,
      "markdown",
    ]);
    viewer.loadMore("next");
    viewer.loadMore("previous");
    expect(calls.pages).toEqual([1000, 0]);
    const whole = new FileViewerState(() => fakeFiles(open(pageOf(["a", "b"]))).files);
    expect([whole.paged, whole.firstLine, whole.lastLine]).toEqual([false, 1, 2]);
  });

  it("edits the whole file: the draft is its text, Save sends it and says so; a failed save keeps the draft open", async () => {
    const { files, calls } = fakeFiles(open(pageOf(["# Title"])), { savedNote: "Saved to the agent's folder." });
    const viewer = new FileViewerState(() => files);
    viewer.preview = true;
    expect(await viewer.startEdit()).toBe(true);
    expect([viewer.editing, viewer.preview, viewer.draft]).toEqual([true, false, "# Title"]);
    viewer.draft = "# New";
    await viewer.save();
    expect(calls.saves).toEqual([["/a.md", "# New"]]);
    expect([viewer.editing, viewer.status, viewer.busy]).toEqual([false, "Saved to the agent's folder.", null]);

    const refusing = new FileViewerState(() => fakeFiles(open(pageOf(["x"])), { save: fail("quota", "The disk is full.") }).files);
    await refusing.startEdit();
    await refusing.save();
    expect([refusing.editing, refusing.problem]).toEqual([true, "The disk is full."]);
    const unreadable = new FileViewerState(() => fakeFiles(open(pageOf(["x"])), { text: fail("not_found", "It is gone.") }).files);
    expect(await unreadable.startEdit()).toBe(false);
    expect([unreadable.editing, unreadable.problem]).toEqual([false, "It is gone."]);
  });

  it("leaves preview, editing, the confirmation and its messages when another file is shown, not for the same one", async () => {
    const viewer = new FileViewerState(() => fakeFiles(open(pageOf(["x"]))).files);
    viewer.follow("/a.md");
    await viewer.startEdit();
    viewer.confirming = true;
    viewer.status = "Copied the file.";
    viewer.follow("/a.md");
    expect([viewer.editing, viewer.confirming, viewer.status]).toEqual([true, true, "Copied the file."]);
    viewer.follow("/b.md");
    expect([viewer.editing, viewer.preview, viewer.confirming, viewer.status, viewer.problem]).toEqual([false, false, false, "", null]);
  });

  it("deletes the file shown and says true; a refusal says false and shows why", async () => {
    const { files, calls } = fakeFiles(open(pageOf(["x"])));
    const viewer = new FileViewerState(() => files);
    viewer.confirming = true;
    expect(await viewer.remove()).toBe(true);
    expect([calls.removed, viewer.confirming]).toEqual([["/a.md"], false]);
    const refusing = new FileViewerState(() => fakeFiles(open(pageOf(["x"])), { remove: fail("denied", "Read-only.") }).files);
    expect(await refusing.remove()).toBe(false);
    expect(refusing.problem).toBe("Read-only.");
  });
});
