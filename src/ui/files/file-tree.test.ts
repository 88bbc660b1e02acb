import { describe, expect, it } from "vitest";
import type { FileEntry } from "../../protocol/files.ts";
import { ancestorsOf, buildGroups, formatKB, formatSize, pathProblem, skillNameProblem, skillTemplate } from "./file-tree.ts";

const file = (path: string, size = 10): FileEntry => ({ path, isDir: false, size });

describe("file tree", () => {
  it("groups files by route, folders first, sorted, with counts and sizes", () => {
    const groups = buildGroups([
      file("/b.txt"),
      file("/src/a.ts", 5),
      file("/a.txt"),
      file("/memories/AGENTS.md"),
      file("/skills/write-tests/SKILL.md"),
      file("/large_tool_results/call_1"),
      file("/uploads/x.png", 2048),
      { path: "/src", isDir: true, size: 0 },
    ]);
    expect(groups.map((g) => g.prefix)).toEqual(["/", "/uploads/", "/memories/", "/skills/", "/large_tool_results/"]);
    const ws = groups[0]!;
    expect(ws.nodes.map((n) => n.path)).toEqual(["/src/", "/a.txt", "/b.txt"]);
    expect(ws).toMatchObject({ files: 3, size: 25 });
    expect(groups[3]!.nodes[0]).toMatchObject({ kind: "folder", path: "/skills/write-tests/", files: 1 });
  });

  it("always shows the workspace, memories and skills", () => {
    expect(buildGroups([]).map((g) => g.prefix)).toEqual(["/", "/memories/", "/skills/"]);
  });

  it("lists the keys that reveal a path", () => {
    expect(ancestorsOf("/skills/a/SKILL.md")).toEqual(["/skills/", "/skills/a/"]);
    expect(ancestorsOf("/x.md")).toEqual(["/"]);
    expect(ancestorsOf("/src/lib/a.ts")).toEqual(["/", "/src/", "/src/lib/"]);
  });

  it("checks new paths: absolute, no .., a file name", () => {
    expect(pathProblem("/notes.md")).toBeUndefined();
    expect(pathProblem("/a/b/c.txt")).toBeUndefined();
    expect(pathProblem("notes.md")).toMatch(/absolute/);
    expect(pathProblem("/a/../b")).toMatch(/\.\./);
    expect(pathProblem("/a/")).toMatch(/file name/);
    expect(pathProblem("")).toMatch(/Enter/);
    expect(pathProblem("/a//b")).toMatch(/empty/);
    expect(pathProblem("/a\\b")).toMatch(/\//);
  });

  it("checks skill names and fills the template's frontmatter", () => {
    expect(skillNameProblem("write-tests")).toBeUndefined();
    expect(skillNameProblem("Write")).toBeDefined();
    expect(skillNameProblem("a--b")).toBeDefined();
    expect(skillTemplate("write-tests")).toMatch(/^---\nname: write-tests\ndescription: <what it does and when to use it>\n---\n/);
  });

  it("formats sizes", () => {
    expect(formatSize(0)).toBe("0 B");
    expect(formatSize(1536)).toBe("1.5 KB");
    expect(formatSize(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatKB(2048)).toBe("2 KB");
  });
});
