/** deeptab's system prompt tells the model what each sandbox can run (the offline shell has python3 since Pyodide landed). */
import { describe, expect, it } from "vitest";
import { basePrompt } from "./agents.ts";

describe("basePrompt", () => {
  it("names python3 for the offline shell, and no Python for WebContainer or without a sandbox", () => {
    expect(basePrompt("shell")).toContain("python3 (standard library only)");
    expect(basePrompt("shell")).not.toMatch(/no [^.]*\bpython\b/);
    expect(basePrompt("webcontainer")).toContain("Node.js and npm, no Python");
    expect(basePrompt("none")).toContain("You cannot run commands.");
  });
});
