/**
 * Harness profiles (deepagentsjs 1.14 `profiles/harness`): named bundles of prompt additions, tool description
 * variants, excluded tools and middleware settings, chosen by provider and model.
 */
import type { ToolProfile } from "../../context/budget.ts";
import type { AgentMiddleware } from "../../harness/types.ts";
import type { ReadFormat } from "../../middleware/fs-read-header.ts";

/** Middleware a profile may not exclude: the agent cannot work without them. */
export const REQUIRED_MIDDLEWARE_NAMES: ReadonlySet<string> = new Set(["FilesystemMiddleware", "SubAgentMiddleware"]);

/** How a profile changes the `general-purpose` subagent (disable it, or replace its description or prompt). */
export interface GeneralPurposeSubagentConfig {
  enabled?: boolean;
  description?: string;
  systemPrompt?: string;
}

/** What `createHarnessProfile` takes: every field optional. */
export interface HarnessProfileOptions {
  /** Replaces the agent's base system prompt. */
  baseSystemPrompt?: string;
  /** Appended to the system prompt after a blank line. */
  systemPromptSuffix?: string;
  /** Tool name to the description the model sees instead of the built-in one. */
  toolDescriptionOverrides?: Record<string, string>;
  /** Tools the model is never offered (built-ins included), for the main agent and every subagent. */
  excludedTools?: string[];
  /** Middleware dropped by name (FilesystemMiddleware and SubAgentMiddleware cannot be). */
  excludedMiddleware?: string[];
  /** Middleware added to every agent of the stack; a factory makes fresh instances per agent. */
  extraMiddleware?: AgentMiddleware[] | (() => AgentMiddleware[]);
  /** Changes to the `general-purpose` subagent. */
  generalPurposeSubagent?: GeneralPurposeSubagentConfig;
  /** deeptab: the tool texts (`"compact"`: one-line descriptions, no `compact_conversation`); unset, the window decides. */
  toolProfile?: ToolProfile;
  /**
   * deeptab: how `read_file` shows a file. `"numbered"` (unset: the default): `cat -n` lines, as the seeds and Python
   * deepagents. `"header"`: deepagentsjs 1.13.5's form, the file's own lines under `@@ lines A-B of T | next offset N @@`.
   */
  readFormat?: ReadFormat;
}

/** A frozen, normalized profile (sets for the exclusions), as `createHarnessProfile` makes it. */
export interface HarnessProfile {
  readonly baseSystemPrompt: string | undefined;
  readonly systemPromptSuffix: string | undefined;
  readonly toolDescriptionOverrides: Readonly<Record<string, string>>;
  readonly excludedTools: ReadonlySet<string>;
  readonly excludedMiddleware: ReadonlySet<string>;
  readonly extraMiddleware: AgentMiddleware[] | (() => AgentMiddleware[]);
  readonly generalPurposeSubagent: Readonly<GeneralPurposeSubagentConfig> | undefined;
  readonly toolProfile: ToolProfile | undefined;
  readonly readFormat: ReadFormat | undefined;
}

/** Is `value` an already-created profile (its exclusions are sets) rather than options? */
export function isHarnessProfile(value: HarnessProfile | HarnessProfileOptions): value is HarnessProfile {
  const excluded: unknown = value.excludedTools;
  return excluded instanceof Set;
}

/** The middleware list of a profile, calling its factory when it has one. */
export function resolveMiddleware(middleware: AgentMiddleware[] | (() => AgentMiddleware[])): AgentMiddleware[] {
  return typeof middleware === "function" ? middleware() : middleware;
}
