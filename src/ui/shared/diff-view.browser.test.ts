/** diff-view.svelte in Chromium: edits, new files, markers and numbers, the row cap. */
import { afterEach, describe, expect, it } from "vitest";
import DiffView from "./diff-view.svelte";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";

afterEach(cleanupRendered);

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const marker = (row: Element) => getComputedStyle(row.querySelector(".marker")!, "::before").content;
const numbers = (row: Element) => [...row.querySelectorAll<HTMLElement>(".num")].map((n) => n.dataset.n);

describe("diff view", () => {
  it("shows an edit as a removed and an added line, with markers, numbers and 3 lines of context", () => {
    const before = numbered(30);
    const el = render(DiffView, { before, after: before.replace("line 15\n", "line fifteen\n"), path: "/src/a.ts" });
    const removed = el.querySelectorAll(".row.removed");
    const added = el.querySelectorAll(".row.added");
    expect(removed).toHaveLength(1);
    expect(added).toHaveLength(1);
    expect(removed[0]!.querySelector(".text")?.textContent).toBe("line 15");
    expect(added[0]!.querySelector(".text")?.textContent).toBe("line fifteen");
    expect(marker(removed[0]!)).toContain("−");
    expect(marker(added[0]!)).toContain("+");
    expect(numbers(removed[0]!)).toEqual(["15", ""]);
    expect(numbers(added[0]!)).toEqual(["", "15"]);
    expect(el.querySelectorAll(".row.context")).toHaveLength(6);
    expect(el.querySelector(".hunk")?.textContent).toBe("@@ -12,7 +12,7 @@");
    expect(el.textContent).toContain("/src/a.ts");
    expect(el.querySelector("section")?.getAttribute("aria-label")).toBe("Changes to /src/a.ts");
  });

  it("shows a new file as all lines added", () => {
    const el = render(DiffView, { before: "", after: "a\nb\nc\n", path: "/new.txt" });
    expect(el.querySelectorAll(".row.added")).toHaveLength(3);
    expect(el.querySelectorAll(".row.removed, .row.context")).toHaveLength(0);
    expect(el.textContent).toContain("new file");
  });

  it("caps a huge diff and says how many lines are not shown", () => {
    const el = render(DiffView, { before: "", after: numbered(10_000), path: "/big.txt" });
    expect(el.querySelectorAll(".row.added")).toHaveLength(2000);
    expect(el.textContent).toContain("8,000 more lines not shown");
  });

  it("says when nothing changed", () => {
    const el = render(DiffView, { before: "x\n", after: "x\n", path: "/same" });
    expect(el.textContent).toContain("No changes.");
  });
});
