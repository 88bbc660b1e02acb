import { describe, expect, it } from "vitest";
import { changesBetween, isTracked, quoted, restoreSteps, workspaceNote } from "./workspace-changes.ts";

describe("the workspace over time", () => {
  const before = { "/a.txt": "h1", "/b.txt": "h2", "/c.txt": "h3" };
  const after = { "/a.txt": "h1", "/b.txt": "h9", "/d.txt": "h4" };

  it("lists what changed between two manifests, by path", () => {
    expect(changesBetween(before, after)).toEqual([
      { path: "/b.txt", kind: "changed" },
      { path: "/c.txt", kind: "deleted" },
      { path: "/d.txt", kind: "added" },
    ]);
    expect(changesBetween(after, after)).toEqual([]);
    expect(changesBetween({}, {})).toEqual([]);
  });

  it("restores a manifest: writes what differs or went, deletes what is new; only the asked paths when given", () => {
    expect(restoreSteps(after, before)).toEqual({ write: ["/b.txt", "/c.txt"], remove: ["/d.txt"] });
    expect(restoreSteps(after, before, ["/d.txt"])).toEqual({ write: [], remove: ["/d.txt"] });
    expect(restoreSteps(after, before, ["/a.txt"])).toEqual({ write: [], remove: [] });
    expect(restoreSteps(before, before)).toEqual({ write: [], remove: [] });
  });

  it("leaves the harness's and the shared paths out", () => {
    expect(isTracked("/notes/a.md")).toBe(true);
    expect(isTracked("/uploads/x.png")).toBe(true);
    for (const p of ["/memories/AGENTS.md", "/skills/s/SKILL.md", "/large_tool_results/c1", "/conversation_history/t.md"])
      expect(isTracked(p)).toBe(false);
  });

  it("words the agent's note the same way every time", () => {
    expect(workspaceNote("revert", "Write the plan\nplease", { write: ["/plan.md"], remove: ["/new.txt"] })).toBe(
      '[Workspace note] The person reverted these files to how they were before their message "Write the plan please": ' +
        "/new.txt (deleted: it did not exist then), /plan.md (restored). Read a file again before relying on it.",
    );
    expect(workspaceNote("rewind", "go", { write: [], remove: [] })).toContain("restored the workspace to how it was before");
    expect(quoted("x".repeat(100))).toHaveLength(82);
  });
});
