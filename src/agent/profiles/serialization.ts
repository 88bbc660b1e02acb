/**
 * Profiles as JSON (deepagentsjs `parseHarnessProfileConfig` / `serializeProfile`): what an agent folder or a
 * setting can hold. Middleware instances are runtime-only, so a profile with `extraMiddleware` does not serialize.
 */
import { z } from "zod";
import { HarnessError } from "../../harness/errors.ts";
import { createHarnessProfile } from "./create.ts";
import { resolveMiddleware, type HarnessProfile } from "./types.ts";

const POISONED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The JSON shape of a profile's `generalPurposeSubagent`. */
const generalPurposeSubagentConfigSchema = z
  .object({ enabled: z.boolean().optional(), description: z.string().optional(), systemPrompt: z.string().optional() })
  .strict();

/** The JSON shape of a profile (unknown fields refused). */
export const harnessProfileConfigSchema = z
  .object({
    baseSystemPrompt: z.string().optional(),
    systemPromptSuffix: z.string().optional(),
    toolDescriptionOverrides: z.record(z.string(), z.string()).optional(),
    excludedTools: z.array(z.string()).optional(),
    excludedMiddleware: z.array(z.string()).optional(),
    generalPurposeSubagent: generalPurposeSubagentConfigSchema.optional(),
    toolProfile: z.enum(["default", "compact"]).optional(),
    readFormat: z.enum(["numbered", "header"]).optional(),
  })
  .strict();

/** A profile as plain JSON data. */
export type HarnessProfileConfigData = z.infer<typeof harnessProfileConfigSchema>;

function rejectPoisonedKeys(value: unknown, path = ""): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const key of Object.keys(value)) {
    if (POISONED_KEYS.has(key)) {
      throw new HarnessError("invalid_option", `Rejected dangerous key "${key}" at ${path || "root"} in harness profile config.`);
    }
    rejectPoisonedKeys((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
  }
}

/** A profile from JSON data; unknown fields, wrong types and prototype-polluting keys are `invalid_option` errors. */
export function parseHarnessProfileConfig(data: unknown): HarnessProfile {
  rejectPoisonedKeys(data);
  const parsed = harnessProfileConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "root"}: ${i.message}`).join("; ");
    throw new HarnessError("invalid_option", `Invalid harness profile config: ${issues}`);
  }
  return createHarnessProfile(parsed.data);
}

/** A profile as JSON data (only the fields it sets); one with `extraMiddleware` is an `invalid_option` error. */
export function serializeProfile(profile: HarnessProfile): HarnessProfileConfigData {
  if (resolveMiddleware(profile.extraMiddleware).length > 0) {
    throw new HarnessError(
      "invalid_option",
      "Cannot serialize a HarnessProfile with non-empty extraMiddleware — " +
        "middleware instances are runtime-only and have no JSON representation.",
    );
  }
  const gp = Object.fromEntries(Object.entries(profile.generalPurposeSubagent ?? {}).filter(([, v]) => v !== undefined));
  return {
    ...(profile.baseSystemPrompt !== undefined ? { baseSystemPrompt: profile.baseSystemPrompt } : {}),
    ...(profile.systemPromptSuffix !== undefined ? { systemPromptSuffix: profile.systemPromptSuffix } : {}),
    ...(Object.keys(profile.toolDescriptionOverrides).length ? { toolDescriptionOverrides: { ...profile.toolDescriptionOverrides } } : {}),
    ...(profile.excludedTools.size ? { excludedTools: [...profile.excludedTools] } : {}),
    ...(profile.excludedMiddleware.size ? { excludedMiddleware: [...profile.excludedMiddleware] } : {}),
    ...(Object.keys(gp).length ? { generalPurposeSubagent: gp } : {}),
    ...(profile.toolProfile !== undefined ? { toolProfile: profile.toolProfile } : {}),
    ...(profile.readFormat !== undefined ? { readFormat: profile.readFormat } : {}),
  };
}
