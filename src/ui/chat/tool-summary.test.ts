import { describe, expect, it } from "vitest";
import { errorPreview, formatDuration, oneLine, summarizeArgs } from "./tool-summary.ts";

describe("summarizeArgs", () => {
  it("shows the path of file tools (file_path or path)", () => {
    expect(summarizeArgs("read_file", { file_path: "/src/a.ts", offset: 10 })).toBe("/src/a.ts");
    expect(summarizeArgs("write_file", { file_path: "/b.md", content: "x" })).toBe("/b.md");
    expect(summarizeArgs("edit_file", { path: "/c.ts", old_string: "a", new_string: "b" })).toBe("/c.ts");
    expect(summarizeArgs("ls", { path: "/docs" })).toBe("/docs");
    expect(summarizeArgs("ls", {})).toBe("");
  });

  it("shows glob and grep patterns with their scope", () => {
    expect(summarizeArgs("glob", { pattern: "**/*.ts" })).toBe("**/*.ts");
    expect(summarizeArgs("glob", { pattern: "*.md", path: "/docs" })).toBe("*.md in /docs");
    expect(summarizeArgs("grep", { pattern: "TODO", path: "/src", glob: "*.ts" })).toBe("TODO in /src (*.ts)");
    expect(summarizeArgs("grep", { pattern: "x" })).toBe("x");
  });

  it("shows the first line of a command, cut at 80", () => {
    expect(summarizeArgs("execute", { command: "npm test" })).toBe("npm test");
    expect(summarizeArgs("execute", { command: "cd /app\nnpm ci\nnpm test" })).toBe("cd /app …");
    const long = summarizeArgs("execute", { command: `echo ${"a".repeat(200)}` });
    expect(long).toHaveLength(80);
    expect(long.endsWith("…")).toBe(true);
  });

  it("shows a task as subagent_type: description", () => {
    expect(summarizeArgs("task", { subagent_type: "researcher", description: "Find the docs" })).toBe("researcher: Find the docs");
    expect(summarizeArgs("task", { description: "Find\nthe docs" })).toBe("Find the docs");
    expect(summarizeArgs("task", { subagent_type: "general-purpose", description: "x".repeat(100) })).toHaveLength(80);
  });

  it("counts todos", () => {
    expect(summarizeArgs("write_todos", { todos: [{}, {}, {}] })).toBe("3 todos");
    expect(summarizeArgs("write_todos", { todos: [{}] })).toBe("1 todo");
    expect(summarizeArgs("write_todos", {})).toBe("0 todos");
  });

  it("falls back to the first string argument of an unknown tool", () => {
    expect(summarizeArgs("search_web", { limit: 3, query: "svelte runes" })).toBe("svelte runes");
    expect(summarizeArgs("mystery", { q: "y".repeat(300) })).toHaveLength(80);
    expect(summarizeArgs("mystery", { n: 1 })).toBe("");
    expect(summarizeArgs("mystery", undefined)).toBe("");
  });

  it("never returns more than one line", () => {
    expect(summarizeArgs("read_file", { file_path: "/a\nb" })).toBe("/a b");
    expect(oneLine("  a \t b  ")).toBe("a b");
  });
});

describe("formatDuration", () => {
  it("reads like a person would say it", () => {
    expect(formatDuration(40)).toBe("40 ms");
    expect(formatDuration(400)).toBe("0.4 s");
    expect(formatDuration(1500)).toBe("1.5 s");
    expect(formatDuration(9960)).toBe("10 s");
    expect(formatDuration(12_000)).toBe("12 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatDuration(120_000)).toBe("2 min");
    expect(formatDuration(3_780_000)).toBe("1 h 3 min");
    expect(formatDuration(-1)).toBe("");
    expect(formatDuration(Number.NaN)).toBe("");
  });
});

describe("errorPreview", () => {
  it("is a JSON error's message, else the first line", () => {
    expect(errorPreview(JSON.stringify({ success: false, error: "Fetch URL error: timed out", url: "u" }, null, 2))).toBe(
      "Fetch URL error: timed out",
    );
    expect(errorPreview(JSON.stringify({ message: "denied\n  by policy" }))).toBe("denied by policy");
    expect(errorPreview('{\n  "code": 3\n}')).toBe("{");
    expect(errorPreview("{ not json\nmore")).toBe("{ not json");
    expect(errorPreview("  Error: old_string not found\nmore")).toBe("Error: old_string not found");
    expect(errorPreview(JSON.stringify({ error: "x".repeat(400) })).length).toBe(300);
  });
});
