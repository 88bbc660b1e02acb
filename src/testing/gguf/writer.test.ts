import { describe, expect, it } from "vitest";
import { GgmlType, GgufType } from "./format.ts";
import { parseGguf } from "./parser.ts";
import { float32ToFloat16Bits, ggufHeader } from "./writer.ts";

describe("ggufHeader", () => {
  it("lays out tensors without their data, for streaming big files", () => {
    const { header, offsets, alignment, dataSize } = ggufHeader(
      [{ key: "general.architecture", type: GgufType.STRING, value: "llama" }],
      [
        { name: "a", dims: [3], type: GgmlType.F32 },
        { name: "b", dims: [5, 2], type: GgmlType.F16 },
      ],
    );
    expect(alignment).toBe(32);
    expect(header.byteLength % 32).toBe(0);
    expect(offsets).toEqual([0, 32]);
    expect(dataSize).toBe(64);
    const file = new Uint8Array(header.byteLength + dataSize);
    file.set(header);
    const parsed = parseGguf(file);
    expect(parsed.dataOffset).toBe(header.byteLength);
    expect(parsed.tensors.map((t) => [t.name, t.offset])).toEqual([
      ["a", 0],
      ["b", 32],
    ]);
  });
});

describe("float32ToFloat16Bits", () => {
  it("converts like IEEE 754 half precision", () => {
    expect(float32ToFloat16Bits(0)).toBe(0);
    expect(float32ToFloat16Bits(-0)).toBe(0x8000);
    expect(float32ToFloat16Bits(1)).toBe(0x3c00);
    expect(float32ToFloat16Bits(-2)).toBe(0xc000);
    expect(float32ToFloat16Bits(0.5)).toBe(0x3800);
    expect(float32ToFloat16Bits(65504)).toBe(0x7bff);
    expect(float32ToFloat16Bits(1e6)).toBe(0x7c00);
    expect(float32ToFloat16Bits(Number.NaN) & 0x7c00).toBe(0x7c00);
    expect(float32ToFloat16Bits(2 ** -24)).toBe(0x0001);
    expect(float32ToFloat16Bits(2 ** -14)).toBe(0x0400);
    expect(float32ToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie rounds to even
    expect(float32ToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });
});
