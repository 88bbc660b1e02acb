import { describe, expect, it } from "vitest";
import { modelText, originText, permissionText, problemPlace, problemsOf, ruleText, shortHash, toolsText } from "./review-text.ts";

describe("an agent's review as sentences", () => {
  it("says which tools are on", () => {
    expect(toolsText(undefined)).toBe("All built-in tools.");
    expect(toolsText({ disallowed: ["execute"] })).toBe("All built-in tools except execute.");
    expect(toolsText({ allowed: ["ls", "read_file", "execute"], disallowed: ["execute"] })).toBe("Only: ls, read_file.");
    expect(toolsText({ allowed: [], disallowed: [] })).toBe("No built-in tools.");
  });

  it("says what each approval rule and path rule does", () => {
    expect(ruleText("delete", true)).toBe("delete: asks you before it runs (approve, edit or reject).");
    expect(ruleText("write_file", false)).toBe("write_file: the agent asks for no approval (the app's own rules still hold).");
    expect(ruleText("execute", { allowedDecisions: ["approve", "reject"], description: "Check the command" })).toBe(
      "execute: asks you before it runs (approve, reject) — “Check the command”.",
    );
    expect(permissionText({ operations: ["write"], paths: ["/data/sales.csv"], mode: "interrupt" })).toBe(
      "write /data/sales.csv: asks you first",
    );
  });

  it("names a suggested model, the origin and the version", () => {
    expect(modelText({ provider: "openai", model: "gpt-5", contextWindow: 128000 })).toBe("openai · gpt-5, 128,000 tokens");
    expect(modelText({ baseUrl: "http://localhost:11434/v1" })).toBe("your provider, at http://localhost:11434/v1");
    expect(originText({ id: "a", origin: "link", name: "A", description: "", suggestions: [], url: "https://x.example/a.zip" })).toBe(
      "From a link: https://x.example/a.zip",
    );
    expect(shortHash("0123456789abcdef0123")).toBe("0123456789ab");
  });

  it("places each problem by file, line and field, and finds the problems of any error", () => {
    const problem = { code: "missing_field" as const, message: "m", file: "agents/critic.md", line: 3, field: "description" };
    expect(problemPlace(problem)).toBe("agents/critic.md, line 3, field description");
    expect(problemsOf({ name: "E", code: "invalid_agent", message: "m", problems: [problem] })).toEqual([problem]);
    expect(problemsOf({ name: "E", message: "network" })).toEqual([]);
  });
});
