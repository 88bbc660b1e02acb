import { describe, expect, it } from "vitest";
import { cutLine } from "./code-lines.ts";

describe("cutLine", () => {
  it("keeps short lines and cuts long ones, saying how much is left out", () => {
    expect(cutLine("abc")).toEqual({ text: "abc", cut: 0 });
    const long = cutLine("x".repeat(10_000));
    expect(long.text).toHaveLength(2000);
    expect(long.cut).toBe(8000);
  });

  it("never splits a surrogate pair", () => {
    const r = cutLine("a😀b", 2);
    expect(r).toEqual({ text: "a", cut: 3 });
  });
});
