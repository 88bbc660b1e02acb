/**
 * deepagentsjs' built-in harness profiles (Claude Opus 4.7, Sonnet 4.6, Haiku 4.5; OpenAI's Codex models) and
 * deeptab's `compact` profile, as registry entries. Data only: the registry loads them on first use.
 */
import type { HarnessProfile } from "../types.ts";
import { register as anthropicOpus47 } from "./anthropic-opus-4-7.ts";
import { register as anthropicSonnet46 } from "./anthropic-sonnet-4-6.ts";
import { register as anthropicHaiku45 } from "./anthropic-haiku-4-5.ts";
import { register as openaiCodex } from "./openai-codex.ts";
import { register as compact } from "./compact.ts";

/** Every built-in profile, keyed `"provider"` or `"provider:model"` (`"compact"` names deeptab's short tool texts). */
export function builtinProfiles(): [string, HarnessProfile][] {
  return [...anthropicOpus47(), ...anthropicSonnet46(), ...anthropicHaiku45(), ...openaiCodex(), ...compact()];
}
