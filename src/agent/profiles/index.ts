/** Harness profiles: the public surface (see docs/middleware-and-context.md, "Harness profiles"). */
export { createHarnessProfile, EMPTY_HARNESS_PROFILE } from "./create.ts";
export { mergeProfiles } from "./merge.ts";
export { validateProfileKey } from "./keys.ts";
export {
  applyProfilePrompt,
  getHarnessProfile,
  harnessProfileKeys,
  hasHarnessProfile,
  hasUserRegisteredProfiles,
  registerHarnessProfile,
  resolveHarnessProfile,
  type ResolveHarnessProfileOpts,
} from "./registry.ts";
export { harnessProfileConfigSchema, parseHarnessProfileConfig, serializeProfile, type HarnessProfileConfigData } from "./serialization.ts";
export { COMPACT_PROFILE } from "./builtins/compact.ts";
export { isHarnessProfile, type GeneralPurposeSubagentConfig, type HarnessProfile, type HarnessProfileOptions } from "./types.ts";
