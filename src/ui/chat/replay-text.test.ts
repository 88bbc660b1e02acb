import { describe, expect, it } from "vitest";
import { paceSpeed, parsePace, recordedDate, replayNoteText, replayNoticeText } from "./replay-text.ts";

describe("replay texts", () => {
  it("the notice names who recorded the answers and with which model, and says the tools run here", () => {
    expect(replayNoticeText({ model: "gpt-4.1", recordedBy: "Ada", scripted: false })).toBe(
      "Replays a recorded demo: the answers were recorded by Ada with model gpt-4.1; the tools run here.",
    );
    expect(replayNoticeText({ model: "script", scripted: true })).toBe(
      "Replays a recorded demo: the answers were recorded with script (a scripted provider); the tools run here.",
    );
  });

  it("the note under a replayed message: recorded answers, by whom, with what, when, scripted", () => {
    const info = {
      file: "demos/a.json",
      title: "A",
      model: "gpt-4.1",
      recordedBy: "Ada",
      recordedAt: "2026-12-07T10:00:00Z",
      scripted: true,
    };
    expect(replayNoteText(info)).toBe("Recorded answers · recorded by Ada with gpt-4.1 · 7 Dec 2026 · scripted");
    expect(replayNoteText({ file: "demos/a.json", title: "A", model: "m", scripted: false })).toBe("Recorded answers · recorded with m");
    expect(recordedDate("not a date")).toBe("");
  });

  it("paces: their speeds, and a stored value read back (anything else is the recorded pace)", () => {
    expect([paceSpeed("recorded"), paceSpeed("fast"), paceSpeed("instant")]).toEqual([1, 4, Number.POSITIVE_INFINITY]);
    expect(parsePace("fast")).toBe("fast");
    expect(parsePace("warp")).toBe("recorded");
    expect(parsePace(null)).toBe("recorded");
  });
});
