/** `mergeProfiles` (deepagentsjs): layer one profile over another, the override's fields winning. */
import type { AgentMiddleware } from "../../harness/types.ts";
import { createHarnessProfile } from "./create.ts";
import { resolveMiddleware, type GeneralPurposeSubagentConfig, type HarnessProfile } from "./types.ts";

type Middleware = AgentMiddleware[] | (() => AgentMiddleware[]);

/** Base middleware in order, one the override names alike replaced in place, then the override's others. */
function mergeMiddleware(base: Middleware, override: Middleware): Middleware {
  if (resolveMiddleware(base).length === 0) return override;
  if (resolveMiddleware(override).length === 0) return base;
  return () => {
    const overrideSeq = resolveMiddleware(override);
    const byName = new Map(overrideSeq.map((m) => [m.name, m]));
    const merged: AgentMiddleware[] = [];
    const replaced = new Set<string>();
    for (const entry of resolveMiddleware(base)) {
      const replacement = byName.get(entry.name);
      if (!replacement) merged.push(entry);
      else if (!replaced.has(entry.name)) {
        merged.push(replacement);
        replaced.add(entry.name);
      }
    }
    return [...merged, ...overrideSeq.filter((m) => !replaced.has(m.name))];
  };
}

function mergeGeneralPurpose(
  base?: GeneralPurposeSubagentConfig,
  override?: GeneralPurposeSubagentConfig,
): GeneralPurposeSubagentConfig | undefined {
  if (base === undefined) return override;
  if (override === undefined) return base;
  return {
    enabled: override.enabled ?? base.enabled,
    description: override.description ?? base.description,
    systemPrompt: override.systemPrompt ?? base.systemPrompt,
  };
}

/**
 * `override` layered over `base`: scalars from the override when set, description overrides merged (override wins
 * per tool), exclusions united, middleware merged by name, general-purpose settings merged field by field.
 */
export function mergeProfiles(base: HarnessProfile, override: HarnessProfile): HarnessProfile {
  return createHarnessProfile({
    baseSystemPrompt: override.baseSystemPrompt ?? base.baseSystemPrompt,
    systemPromptSuffix: override.systemPromptSuffix ?? base.systemPromptSuffix,
    toolDescriptionOverrides: { ...base.toolDescriptionOverrides, ...override.toolDescriptionOverrides },
    excludedTools: [...base.excludedTools, ...override.excludedTools],
    excludedMiddleware: [...base.excludedMiddleware, ...override.excludedMiddleware],
    extraMiddleware: mergeMiddleware(base.extraMiddleware, override.extraMiddleware),
    generalPurposeSubagent: mergeGeneralPurpose(base.generalPurposeSubagent, override.generalPurposeSubagent),
    toolProfile: override.toolProfile ?? base.toolProfile,
    readFormat: override.readFormat ?? base.readFormat,
  });
}
