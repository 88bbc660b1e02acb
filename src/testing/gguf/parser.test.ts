import { describe, expect, it } from "vitest";
import { parseGguf } from "./parser.ts";
import { makeTinyGguf } from "./tiny-model.ts";

describe("parseGguf", () => {
  it("rejects files that are not GGUF or are truncated", () => {
    expect(() => parseGguf(new TextEncoder().encode("GGML----"))).toThrow(/not a GGUF/);
    const bytes = makeTinyGguf();
    expect(() => parseGguf(bytes.subarray(0, 2000))).toThrow(/truncated|past the end/);
    expect(() => parseGguf(bytes.subarray(0, bytes.byteLength - 64))).toThrow(/past the end/);
  });
});
