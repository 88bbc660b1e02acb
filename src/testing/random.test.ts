import { describe, expect, it } from "vitest";
import { pick, randomString, seededRandom } from "./random.ts";

describe("the seeded random generator", () => {
  it("gives the same sequence for a seed, another for another seed, in [0, 1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 1_000 }, a);
    expect(Array.from({ length: 1_000 }, b)).toEqual(first);
    expect(Array.from({ length: 1_000 }, seededRandom(43))).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    // mulberry32's first value for seed 1, as the copies this replaced gave it (the tiny GGUF model's weights follow).
    expect(seededRandom(1)()).toBeCloseTo(0.6270739405881613, 15);
  });

  it("spreads picks over every item", () => {
    const random = seededRandom(7);
    const seen = new Set(Array.from({ length: 200 }, () => pick(random, ["a", "b", "c", "d"])));
    expect([...seen].sort()).toEqual(["a", "b", "c", "d"]);
    expect(randomString(seededRandom(7), "ab", 300)).toMatch(/^[ab]{300}$/);
  });
});
