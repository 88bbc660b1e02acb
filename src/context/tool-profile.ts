/**
 * Which tool texts a model gets: deepagents' (`default`) or the short ones
 * (`compact`: one-line descriptions, no `compact_conversation`), chosen by
 * the context window unless overridden. No imports: the page shows the
 * threshold in Settings (through protocol/catalog.ts) without agent code.
 */

/** Windows below this many tokens get the compact profile by default. */
export const COMPACT_PROFILE_BELOW = 16_384;

export type ToolProfile = "default" | "compact";

/** The profile for a window: compact below {@link COMPACT_PROFILE_BELOW}, unless overridden. */
export function toolProfileFor(window: number | undefined, override?: ToolProfile): ToolProfile {
  if (override) return override;
  return window !== undefined && window < COMPACT_PROFILE_BELOW ? "compact" : "default";
}
