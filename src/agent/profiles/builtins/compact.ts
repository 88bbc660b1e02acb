import { createHarnessProfile } from "../create.ts";
import type { HarnessProfile } from "../types.ts";

/** The key of deeptab's compact profile: one-line tool descriptions and no `compact_conversation`. */
export const COMPACT_PROFILE = "compact";

/**
 * deeptab's compact profile, as one harness profile: the short tool texts small context windows get. It is chosen
 * by the window (below `COMPACT_PROFILE_BELOW` tokens) unless a profile is named; naming it forces it.
 */
export function register(): [string, HarnessProfile][] {
  return [[COMPACT_PROFILE, createHarnessProfile({ toolProfile: "compact" })]];
}
