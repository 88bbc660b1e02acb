import { describe, expect, it } from "vitest";
import { once } from "./once.ts";

describe("once", () => {
  it("starts a load at the first call and gives every caller the same promise", async () => {
    let loads = 0;
    const load = once(async () => ++loads);
    const [a, b] = [load(), load()];
    expect(a).toBe(b);
    expect(await a).toBe(1);
    expect(await load()).toBe(1);
    expect(loads).toBe(1);
  });

  it("forgets a failed load, so the next call tries again (a chunk that did not arrive)", async () => {
    let loads = 0;
    const load = once(async () => {
      loads++;
      if (loads === 1) throw new Error("chunk did not arrive");
      return "loaded";
    });
    await expect(load()).rejects.toThrow("chunk did not arrive");
    expect(await load()).toBe("loaded");
    expect(await load()).toBe("loaded");
    expect(loads).toBe(2);
  });
});
