import { describe, expect, it } from "vitest";
import type { ReplayInfo } from "../../protocol/messages.ts";
import { replayInfoOf, replayMark } from "./messages.ts";

const info: ReplayInfo = { file: "demos/a.json", title: "A", model: "openai:gpt", scripted: false };

describe("a replayed turn's mark", () => {
  it.each([
    ["the recorded pace", undefined],
    ["4×", 4],
    ["at once", Number.POSITIVE_INFINITY],
  ])("keeps %s through a JSON checkpoint", (_, speed) => {
    const kept = JSON.parse(JSON.stringify(replayMark({ ...info, ...(speed !== undefined ? { speed } : {}) }))) as unknown;
    expect(replayInfoOf(kept)).toEqual({ ...info, ...(speed !== undefined ? { speed } : {}) });
  });

  it("reads a pace that is not one as the recorded pace, and a mark without a file as none", () => {
    expect(replayInfoOf({ ...info, speed: -2 })).toEqual(info);
    expect(replayInfoOf({ ...info, speed: "fast" })).toEqual(info);
    expect(replayInfoOf({ title: "A", model: "m" })).toBeUndefined();
  });
});
