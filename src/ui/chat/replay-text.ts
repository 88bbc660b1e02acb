/**
 * What the page says about a recorded demo (the composer's replay notice, the timeline's note under a replayed
 * message) and the replay paces a person can choose: pure, so the wording is tested once.
 */
import type { AgentDemo } from "../../protocol/agents.ts";
import type { ReplayInfo } from "../../protocol/messages.ts";

/** A replay pace: how much faster than recorded the replies stream (`UserInput.replay.speed`). */
export type ReplayPace = "recorded" | "fast" | "instant";

/** The paces in the order the composer offers them, each with its label and speed. */
export const REPLAY_PACES: ReadonlyArray<{ id: ReplayPace; label: string; speed: number }> = [
  { id: "recorded", label: "Recorded pace", speed: 1 },
  { id: "fast", label: "4×", speed: 4 },
  { id: "instant", label: "At once", speed: Number.POSITIVE_INFINITY },
];

/** The speed of a pace (`Infinity`: at once). */
export function paceSpeed(pace: ReplayPace): number {
  return REPLAY_PACES.find((p) => p.id === pace)?.speed ?? 1;
}

/** A stored pace read back (session storage holds strings): the recorded pace for anything else. */
export function parsePace(stored: string | null | undefined): ReplayPace {
  return REPLAY_PACES.some((p) => p.id === stored) ? (stored as ReplayPace) : "recorded";
}

/** "recorded by Ada with gpt-4.1" / "recorded with gpt-4.1". */
function recordedText(recordedBy: string | undefined, model: string): string {
  return recordedBy ? `recorded by ${recordedBy} with ${model}` : `recorded with ${model}`;
}

/** The composer's notice in replay mode: where the answers come from, and that the tools run here. */
export function replayNoticeText(demo: Pick<AgentDemo, "model" | "recordedBy" | "scripted">): string {
  const model = demo.scripted ? `${demo.model} (a scripted provider)` : `model ${demo.model}`;
  return `Replays a recorded demo: the answers were ${recordedText(demo.recordedBy, model)}; the tools run here.`;
}

/** The date of a recording as the note shows it ("7 Dec 2026"), or "" when it has none or it does not parse. */
export function recordedDate(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** The note under a replayed message: "Recorded answers · recorded by Ada with gpt-4.1 · 7 Dec 2026 · scripted". */
export function replayNoteText(info: ReplayInfo): string {
  return ["Recorded answers", recordedText(info.recordedBy, info.model), recordedDate(info.recordedAt), info.scripted ? "scripted" : ""]
    .filter(Boolean)
    .join(" · ");
}
