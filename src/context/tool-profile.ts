/**
 * Which tool texts a model gets: deepagents' (`default`) or the short ones
 * (`compact`: one-line descriptions, no `compact_conversation`), chosen by
 * the context window unless overridden. No imports: the page shows the
 * threshold in Settings (through protocol/catalog.ts) without agent code.
 */

/** Windows below this many tokens get the compact profile by default. */
export const COMPACT_PROFILE_BELOW = 16_384;

/** The most characters of a subagent's or skill's description the compact texts keep (then "…"). */
export const COMPACT_DESCRIPTION_CHARS = 100;

export type ToolProfile = "default" | "compact";

/** The profile for a window: compact below {@link COMPACT_PROFILE_BELOW}, unless overridden. */
export function toolProfileFor(window: number | undefined, override?: ToolProfile): ToolProfile {
  if (override) return override;
  return window !== undefined && window < COMPACT_PROFILE_BELOW ? "compact" : "default";
}

/**
 * A description on one line for the compact texts: whitespace collapsed, and cut at a word boundary with "…" when
 * longer than {@link COMPACT_DESCRIPTION_CHARS} characters (the ellipsis included), so a subagent or skill keeps
 * its meaning in a small window without its whole text.
 */
export function compactLine(description: string, max = COMPACT_DESCRIPTION_CHARS): string {
  const text = description.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  // Cut at the last space when it keeps most of the room; a long word is cut where it stands.
  return `${(space >= max * 0.6 ? head.slice(0, space) : head).replace(/[\s.,;:]+$/, "")}…`;
}
