import { describe, expect, it } from "vitest";
import { diffRows } from "./diff-rows.ts";

const numbered = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

describe("diffRows", () => {
  it("shows an edit as removed and added lines with 3 lines of context and line numbers", () => {
    const before = numbered(20);
    const after = before.replace("line 10\n", "line ten\n");
    const d = diffRows(before, after);
    expect([d.added, d.removed, d.hidden, d.identical, d.approximate]).toEqual([1, 1, 0, false, false]);
    expect(d.rows[0]).toEqual({ kind: "hunk", text: "@@ -7,7 +7,7 @@" });
    expect(d.rows.filter((r) => r.kind === "context")).toHaveLength(6);
    expect(d.rows).toContainEqual({ kind: "removed", oldLine: 10, text: "line 10" });
    expect(d.rows).toContainEqual({ kind: "added", newLine: 10, text: "line ten" });
  });

  it("keeps old and new numbers apart after a deletion", () => {
    const d = diffRows(numbered(10), numbered(10).replace("line 2\n", ""));
    expect(d.rows).toContainEqual({ kind: "context", oldLine: 3, newLine: 2, text: "line 3" });
  });

  it("shows a new file as all lines added", () => {
    const d = diffRows("", "a\nb\nc\n");
    expect(d.rows).toEqual([
      { kind: "hunk", text: "@@ -0,0 +1,3 @@" },
      { kind: "added", newLine: 1, text: "a" },
      { kind: "added", newLine: 2, text: "b" },
      { kind: "added", newLine: 3, text: "c" },
    ]);
  });

  it("notes a missing final newline", () => {
    expect(diffRows("x", "y").rows).toContainEqual({ kind: "note", text: "No newline at end of file" });
  });

  it("reports equal texts", () => {
    expect(diffRows("same\n", "same\n")).toMatchObject({ identical: true, rows: [] });
  });

  it("caps the rows and counts the lines not shown", () => {
    const d = diffRows("", numbered(10_000), { maxLines: 2000 });
    expect(d.rows.filter((r) => r.kind === "added")).toHaveLength(2000);
    expect(d.hidden).toBe(8000);
    expect(d.added).toBe(10_000);
  });

  it("falls back to a whole-file replace when the exact diff is too costly", () => {
    const d = diffRows(
      numbered(5000),
      numbered(5000, (i) => `other ${i}`),
      { maxLines: 100 },
    );
    expect(d.approximate).toBe(true);
    expect(d.rows.length).toBe(101);
    expect(d.hidden).toBe(10_000 - 100);
  });
});
