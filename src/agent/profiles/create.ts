/** `createHarnessProfile` (deepagentsjs): options in, a frozen profile out, bad middleware exclusions refused. */
import { HarnessError } from "../../harness/errors.ts";
import { REQUIRED_MIDDLEWARE_NAMES, type HarnessProfile, type HarnessProfileOptions } from "./types.ts";

function validateExcludedMiddlewareName(name: string): void {
  if (!name || !name.trim())
    throw new HarnessError("invalid_option", "excludedMiddleware entries must be non-empty, non-whitespace strings.");
  if (name.includes(":")) {
    throw new HarnessError(
      "invalid_option",
      `excludedMiddleware entries must be plain middleware names; class-path syntax is not supported, got "${name}".`,
    );
  }
  if (name.startsWith("_")) {
    throw new HarnessError(
      "invalid_option",
      `excludedMiddleware entry "${name}" cannot start with "_" ` +
        `(underscore-prefixed names refer to private middleware not part of the public exclusion surface).`,
    );
  }
  if (REQUIRED_MIDDLEWARE_NAMES.has(name)) {
    throw new HarnessError(
      "required_middleware",
      `Cannot exclude required middleware "${name}" — it provides essential agent capabilities that the runtime depends on.`,
    );
  }
}

/** A frozen profile from options; an excluded middleware name that is empty, private or required is an error. */
export function createHarnessProfile(options: HarnessProfileOptions = {}): HarnessProfile {
  for (const name of options.excludedMiddleware ?? []) validateExcludedMiddlewareName(name);
  const toolDescriptionOverrides = Object.freeze(
    Object.assign(Object.create(null) as Record<string, string>, options.toolDescriptionOverrides),
  );
  const generalPurposeSubagent = options.generalPurposeSubagent ? Object.freeze({ ...options.generalPurposeSubagent }) : undefined;
  return Object.freeze({
    baseSystemPrompt: options.baseSystemPrompt,
    systemPromptSuffix: options.systemPromptSuffix,
    toolDescriptionOverrides,
    excludedTools: new Set(options.excludedTools),
    excludedMiddleware: new Set(options.excludedMiddleware),
    extraMiddleware: options.extraMiddleware ?? [],
    generalPurposeSubagent,
    toolProfile: options.toolProfile,
    readFormat: options.readFormat,
  });
}

/** The profile that changes nothing (what resolution gives when no profile matches). */
export const EMPTY_HARNESS_PROFILE: HarnessProfile = createHarnessProfile();
