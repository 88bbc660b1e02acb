/**
 * Harness profile keys, as deepagentsjs spells them: `"provider"` (e.g. `"anthropic"`) or `"provider:model"`
 * (e.g. `"openai:gpt-5.3-codex"`).
 */
import { HarnessError } from "../../harness/errors.ts";

/** The key trimmed, or an `invalid_option` error for an empty key, more than one `:` or an empty half. */
export function validateProfileKey(key: string): string {
  const trimmed = key.trim();
  if (!trimmed) throw new HarnessError("invalid_option", "Profile key must be a non-empty string");
  const parts = trimmed.split(":");
  if (parts.length > 2) {
    throw new HarnessError("invalid_option", `Profile key "${trimmed}" has more than one ":"; expected "provider" or "provider:model"`);
  }
  if (parts.length === 2 && (!parts[0]!.trim() || !parts[1]!.trim())) {
    throw new HarnessError("invalid_option", `Profile key "${trimmed}" has an empty provider or model half; expected "provider:model"`);
  }
  return trimmed;
}
