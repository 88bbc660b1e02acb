import { describe, expect, it } from "vitest";
import { describeError, formatBytes } from "./errors.ts";

describe("ui errors", () => {
  it("explains quota errors", () => {
    expect(describeError({ name: "StorageError", code: "quota_exceeded", message: "put: quota" })).toMatch(
      /^Storage is full: free space by deleting threads/,
    );
    expect(describeError({ name: "Error", message: "boom" })).toBe("Error: boom");
    expect(describeError({ name: "StartError", code: "missing_key", message: "Add an OpenAI API key in Settings." })).toBe(
      "Add an OpenAI API key in Settings.",
    );
  });
  it("formats bytes", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5.0 GB");
  });
});
