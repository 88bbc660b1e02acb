/** deeptab's system prompt tells the model what each sandbox can run (the offline shell has python3 since Pyodide landed). */
import { describe, expect, it } from "vitest";
import { basePrompt } from "./deeptab-prompt.ts";

describe("basePrompt", () => {
  it("names python3 for the offline shell, and the python tool for WebContainer and without a sandbox", () => {
    expect(basePrompt("shell")).toContain("python3 (standard library only)");
    expect(basePrompt("shell")).not.toMatch(/no [^.]*\bpython\b/);
    expect(basePrompt("shell")).not.toContain("`python` tool");
    expect(basePrompt("webcontainer")).toContain("Node.js and npm, no Python there; the `python` tool runs Python 3");
    expect(basePrompt("none")).toContain("You cannot run shell commands; the `python` tool runs Python 3");
  });

  it("names only the code-running tools an agent folder keeps", () => {
    expect(basePrompt("none", { python: false })).toContain("You cannot run shell commands or Python.");
    expect(basePrompt("none", { python: false })).not.toContain("`python`");
    expect(basePrompt("shell", { execute: false })).toContain("You cannot run shell commands.");
    expect(basePrompt("shell", { execute: false })).not.toContain("python3");
    expect(basePrompt("webcontainer", { python: false })).toContain("Node.js and npm, no Python there.");
    expect(basePrompt("webcontainer", { execute: false })).toContain("You cannot run shell commands; the `python` tool");
    expect(basePrompt("webcontainer", { execute: false, python: false })).toContain("You cannot run shell commands or Python.");
    expect(basePrompt("webcontainer")).toBe(basePrompt("webcontainer", { execute: true, python: true }));
  });
});

describe("basePrompt on a LangGraph server", () => {
  it("is the same prompt with the server's place for files and its shell without python3", () => {
    expect(basePrompt("shell", { shellPython: false }, "server")).toBe(
      "You are deeptab, a deep agent running on a LangGraph server. Your files persist with the thread: the workspace at /, " +
        "memories shared by every thread at /memories/ (keep /memories/AGENTS.md up to date with what you learn about the user), " +
        "and skills at /skills/. Commands (`execute`) run in an offline bash interpreter over the same files: " +
        "coreutils, grep, sed, awk, jq, find; no node, npm, python, git or network. Be concise; use Markdown.",
    );
    expect(basePrompt("shell")).toMatch(
      /^You are deeptab, a deep agent running in the user's browser tab\. Your files persist in the browser: /,
    );
  });
});
