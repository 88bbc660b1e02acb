import { describe, expect, it } from "vitest";
import { runTool, textFile } from "../testing/runtime.ts";
import { FILE_TOOLS } from "../testing/tool-names.ts";
import { EMPTY_CONTENT_WARNING, MAX_LINE_LENGTH } from "./fs-format.ts";
import type { AgentTool } from "../harness/types.ts";
import { fileTool, filesystemTools } from "./fs-tools.ts";

const [lsTool, readFileTool, writeFileTool, editFileTool, deleteTool, globTool, grepTool, executeTool] = FILE_TOOLS.map(fileTool) as [
  AgentTool,
  AgentTool,
  AgentTool,
  AgentTool,
  AgentTool,
  AgentTool,
  AgentTool,
  AgentTool,
];

const files = {
  "/README.md": textFile("# Title\nhello world\n"),
  "/src/a.ts": textFile("export const a = 1;\n// TODO: more\n"),
  "/src/lib/b.ts": textFile("import { a } from '../a';\n// TODO: b\nconsole.log(a); // TODO again\n"),
  "/docs/my notes.md": textFile("spaces in path\n"),
};

describe("the file tools", () => {
  it("are deepagents' eight, in its order", () => {
    expect(filesystemTools.map((tool) => tool.name)).toEqual(FILE_TOOLS);
  });
});

describe("ls", () => {
  it("lists direct children, directories with a trailing slash", async () => {
    expect((await runTool(lsTool, { path: "/" }, files)).text).toBe("['/README.md', '/docs/', '/src/']");
    expect((await runTool(lsTool, { path: "/src" }, files)).text).toBe("['/src/a.ts', '/src/lib/']");
  });
  it("reports a missing directory and invalid paths as errors", async () => {
    const missing = await runTool(lsTool, { path: "/nope" }, files);
    expect(missing.status).toBe("error");
    expect(missing.text).toBe("Error: Directory '/nope' not found");
    const escape = await runTool(lsTool, { path: "/src/../etc" }, files);
    expect(escape.status).toBe("error");
    expect(escape.text).toBe("Error: Path traversal not allowed: /src/../etc");
  });
});

describe("read_file", () => {
  it("returns numbered lines", async () => {
    expect((await runTool(readFileTool, { file_path: "/src/a.ts" }, files)).text).toBe(
      "     1\texport const a = 1;\n     2\t// TODO: more",
    );
  });
  it("pages with offset (0-based) and limit, defaulting to 100 lines", async () => {
    const big = { "/big.txt": textFile(Array.from({ length: 250 }, (_, i) => `line ${i + 1}`).join("\n")) };
    const first = (await runTool(readFileTool, { file_path: "/big.txt" }, big)).text.split("\n");
    expect(first).toHaveLength(100);
    expect(first[99]).toBe("   100\tline 100");
    const page = (await runTool(readFileTool, { file_path: "/big.txt", offset: 200, limit: 10 }, big)).text.split("\n");
    expect(page[0]).toBe("   201\tline 201");
    expect(page).toHaveLength(10);
    const past = await runTool(readFileTool, { file_path: "/big.txt", offset: 300 }, big);
    expect(past.status).toBe("error");
    expect(past.text).toBe("Error: Line offset 300 exceeds file length (250 lines)");
  });
  it("splits long lines into continuation lines", async () => {
    const long = { "/long.txt": textFile("x".repeat(MAX_LINE_LENGTH * 2 + 10) + "\nshort") };
    const lines = (await runTool(readFileTool, { file_path: "/long.txt" }, long)).text.split("\n");
    expect(lines.map((l) => l.split("\t")[0]!.trim())).toEqual(["1", "1.1", "1.2", "2"]);
    expect(lines[2]!.split("\t")[1]).toHaveLength(10);
  });
  it("warns on an empty file, errors on a missing file or a directory", async () => {
    expect((await runTool(readFileTool, { file_path: "/e" }, { "/e": textFile("") })).text).toBe(EMPTY_CONTENT_WARNING);
    const missing = await runTool(readFileTool, { file_path: "/missing.md" }, files);
    expect(missing).toMatchObject({ status: "error", text: "Error: File '/missing.md' not found" });
    expect((await runTool(readFileTool, { file_path: "/src" }, files)).text).toBe("Error: '/src' is a directory, not a file");
  });
  it("reads paths with spaces and unicode", async () => {
    const u = { "/ü/日本 語.md": textFile("héllo ✓\n") };
    expect((await runTool(readFileTool, { file_path: "/ü/日本 語.md" }, u)).text).toBe("     1\théllo ✓");
    expect((await runTool(readFileTool, { file_path: "/docs/my notes.md" }, files)).text).toBe("     1\tspaces in path");
  });
});

describe("write_file", () => {
  it("creates a file", async () => {
    const created = await runTool(writeFileTool, { file_path: "/new.md", content: "hi" }, files);
    expect(created.text).toBe("Updated file /new.md");
    expect(created.files["/new.md"]!.content).toBe("hi");
  });
  it("write_file overwrites an existing file (deepagentsjs #674), keeping when it was created", async () => {
    const old = { "/README.md": textFile("# Title\nhello world\n", "2020-01-01T00:00:00.000Z") };
    const again = await runTool(writeFileTool, { file_path: "/README.md", content: "x" }, old);
    expect(again).toMatchObject({ status: "success", text: "Updated file /README.md" });
    expect(again.files["/README.md"]).toMatchObject({ content: "x", createdAt: "2020-01-01T00:00:00.000Z" });
    expect(again.files["/README.md"]!.modifiedAt).not.toBe("2020-01-01T00:00:00.000Z");
    const folder = await runTool(writeFileTool, { file_path: "/src", content: "x" }, files);
    expect(folder).toMatchObject({ status: "error", text: "Error: '/src' is a directory, not a file" });
  });
  it("says what upstream says: creates or replaces (deepagentsjs' description)", () => {
    expect(writeFileTool.description.split("\n")[0]).toBe(
      "Writes content to a file. Creates the file if it does not exist; replaces it entirely if it does.",
    );
  });
  it("rejects relative, home and parent paths", async () => {
    const cases: Array<[string, string]> = [
      ["notes.md", "Error: Invalid path 'notes.md': the path must start with /. Use an absolute path such as /notes.md."],
      ["~/x", "Error: Path traversal not allowed: ~/x"],
      ["/a/../b", "Error: Path traversal not allowed: /a/../b"],
      [
        "C:/x",
        "Error: Windows absolute paths are not supported: C:/x. Please use virtual paths starting with / (e.g., /workspace/file.txt)",
      ],
      ["/a\\b", "Error: Invalid path '/a\\b': backslashes are not allowed. Use an absolute path such as /notes.md."],
    ];
    for (const [p, message] of cases) {
      const r = await runTool(writeFileTool, { file_path: p, content: "x" }, {});
      expect(r.status, p).toBe("error");
      expect(r.text, p).toBe(message);
      expect(Object.keys(r.files), p).toEqual([]);
    }
    expect((await runTool(writeFileTool, { file_path: "/a..b.md", content: "x" }, {})).status).toBe("success");
  });
  it("normalizes duplicate slashes", async () => {
    const r = await runTool(writeFileTool, { file_path: "//a//b.md", content: "x" }, {});
    expect(Object.keys(r.files)).toEqual(["/a/b.md"]);
  });
});

describe("edit_file", () => {
  it("replaces a unique string and reports the count", async () => {
    const r = await runTool(editFileTool, { file_path: "/README.md", old_string: "hello", new_string: "bye" }, files);
    expect(r.text).toBe("Successfully replaced 1 instance(s) of the string in '/README.md'");
    expect(r.files["/README.md"]!.content).toBe("# Title\nbye world\n");
  });
  it("refuses a non-unique match unless replace_all", async () => {
    const f = { "/t.ts": textFile("// TODO a\n// TODO b\n") };
    const r = await runTool(editFileTool, { file_path: "/t.ts", old_string: "TODO", new_string: "DONE" }, f);
    expect(r.status).toBe("error");
    // deepagentsjs' wording (backends/utils.ts).
    expect(r.text).toBe(
      "Error: String 'TODO' has multiple occurrences (appears 2 times) in file. " +
        "Use replace_all=True to replace all instances, or provide a more specific string with surrounding context.",
    );
    expect(r.files["/t.ts"]!.content).toBe("// TODO a\n// TODO b\n");
    const all = await runTool(editFileTool, { file_path: "/t.ts", old_string: "TODO", new_string: "DONE", replace_all: true }, f);
    expect(all.text).toBe("Successfully replaced 2 instance(s) of the string in '/t.ts'");
    expect(all.files["/t.ts"]!.content).toBe("// DONE a\n// DONE b\n");
  });
  it("reports a missing string and a missing file", async () => {
    const r = await runTool(editFileTool, { file_path: "/README.md", old_string: "absent", new_string: "x" }, files);
    expect(r).toMatchObject({ status: "error", text: "Error: String not found in file: 'absent'" });
    const m = await runTool(editFileTool, { file_path: "/gone.md", old_string: "a", new_string: "b" }, files);
    expect(m).toMatchObject({ status: "error", text: "Error: File '/gone.md' not found" });
  });
  it("treats replacement text literally ($& and $1 are not patterns)", async () => {
    const r = await runTool(editFileTool, { file_path: "/README.md", old_string: "hello", new_string: "$& $1" }, files);
    expect(r.files["/README.md"]!.content).toBe("# Title\n$& $1 world\n");
  });
});

describe("delete", () => {
  it("deletes a file with an explicit marker and errors on a missing one", async () => {
    const r = await runTool(deleteTool, { file_path: "/README.md" }, files);
    expect(r.text).toBe("Deleted /README.md");
    expect(r.files["/README.md"]).toBeUndefined();
    const again = await runTool(deleteTool, { file_path: "/README.md" }, r.files);
    expect(again).toMatchObject({ status: "error", text: "Error: File '/README.md' not found" });
  });
  it("delete removes directories recursively (deepagentsjs 1.13): every file below gets a delete marker", async () => {
    const r = await runTool(deleteTool, { file_path: "/src/" }, files);
    expect(r).toMatchObject({ status: "success", text: "Deleted /src" });
    expect(Object.keys(r.files).sort()).toEqual(["/README.md", "/docs/my notes.md"]);
    expect(deleteTool.description.split("\n")[0]).toBe("Deletes a file or directory from the filesystem.");
  });
  it("never deletes the root in one call (deeptab's rule; upstream would remove every file)", async () => {
    for (const root of ["/", "//", "/."]) {
      const r = await runTool(deleteTool, { file_path: root }, files);
      expect(r, root).toMatchObject({
        status: "error",
        text: "Error: Cannot delete '/': that would remove every file. Delete the files or directories inside it instead.",
      });
      expect(Object.keys(r.files)).toHaveLength(4);
    }
  });
});

describe("glob", () => {
  it("matches with ** across directories and * within one", async () => {
    expect((await runTool(globTool, { pattern: "**/*.ts" }, files)).text).toBe("['/src/a.ts', '/src/lib/b.ts']");
    expect((await runTool(globTool, { pattern: "*.md" }, files)).text).toBe("['/README.md']");
    expect((await runTool(globTool, { pattern: "*.ts", path: "/src" }, files)).text).toBe("['/src/a.ts']");
    expect((await runTool(globTool, { pattern: "**/*.{md,ts}", path: "/docs" }, files)).text).toBe("['/docs/my notes.md']");
  });
  it("says when nothing matches", async () => {
    expect((await runTool(globTool, { pattern: "**/*.py" }, files)).text).toBe("No files found matching pattern '**/*.py'");
  });
});

describe("grep", () => {
  it("lists matching files by default", async () => {
    expect((await runTool(grepTool, { pattern: "TODO" }, files)).text).toBe("/src/a.ts\n/src/lib/b.ts");
  });
  it("shows content and counts", async () => {
    expect((await runTool(grepTool, { pattern: "TODO", output_mode: "content" }, files)).text).toBe(
      "/src/a.ts:\n  2: // TODO: more\n/src/lib/b.ts:\n  2: // TODO: b\n  3: console.log(a); // TODO again",
    );
    expect((await runTool(grepTool, { pattern: "TODO", output_mode: "count" }, files)).text).toBe("/src/a.ts: 1\n/src/lib/b.ts: 2");
  });
  it("is literal, filters by path and glob, and says when nothing matches", async () => {
    expect((await runTool(grepTool, { pattern: "log(a)" }, files)).text).toBe("/src/lib/b.ts");
    expect((await runTool(grepTool, { pattern: "TODO", path: "/src/lib" }, files)).text).toBe("/src/lib/b.ts");
    expect((await runTool(grepTool, { pattern: "hello", glob: "*.ts" }, files)).text).toBe("No matches found");
    expect((await runTool(grepTool, { pattern: "TODO", glob: "b.ts" }, files)).text).toBe("/src/lib/b.ts");
  });
  it("caps output at 1,000 matches with guidance to narrow the search", async () => {
    const many = { "/log.txt": textFile(Array.from({ length: 1_500 }, (_, i) => `hit ${i}`).join("\n")) };
    const lines = (await runTool(grepTool, { pattern: "hit", output_mode: "content" }, many)).text.split("\n");
    expect(lines).toHaveLength(1 + 1_000 + 1);
    expect(lines.at(-1)).toBe("... [results truncated, try being more specific with your parameters]");
  });
  it("rejects an invalid output_mode before running", async () => {
    const { checkArgs } = await import("../harness/validate-args.ts");
    expect(checkArgs(grepTool.schema, { pattern: "x", output_mode: "lines" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("must be one of"),
    });
  });
});

describe("execute", () => {
  it("refuses when the backend has no shell", async () => {
    const r = await runTool(executeTool, { command: "ls" }, files);
    expect(r.status).toBe("error");
    expect(r.text).toContain("Execution not available");
  });
});
