/**
 * SkillsMiddleware: progressive disclosure of skills (Agent Skills format).
 *
 * - Sources are backend directories holding `<skill-name>/SKILL.md` files with
 *   YAML frontmatter, read into the private state field `skillsMetadata`;
 *   later sources override earlier ones (same name). Invalid skills are
 *   skipped and listed in `skillErrors`.
 * - Freshness: before every model call the SKILL.md listing is globbed and
 *   its stamp (each file's path, size and modification time) compared with
 *   the one the index was read at (`skillsStamp`); the SKILL.md files are
 *   read again only when it differs. So a skill the user (or the agent, or a
 *   command) adds, edits or deletes is in the very next model call's index,
 *   in a thread that ran before as well as mid-run.
 * - Only each skill's name, description and SKILL.md path enter the (stable)
 *   system prompt; the body is read by the agent with `read_file`.
 * - Skill tools (`skillTools`) are owned by this middleware and hidden from the
 *   model until a SKILL.md listing them (in `metadata.include_tools` or
 *   `allowed-tools`) has been read successfully in this thread; the read is
 *   recorded in the private field `skillsRead`. Calling a hidden one gives an
 *   error result. Tools the agent has from elsewhere are never hidden.
 */
import type { readPinnedSkills } from "./pinned-skills.ts";
import { isBackendError, type BackendProtocol } from "../backends/protocol.ts";
import { createBackendRuntime, resolveBackend, type BackendOption } from "../backends/runtime.ts";
import { errorToolMessage } from "../harness/execute-tool.ts";
import { HarnessError } from "../harness/errors.ts";
import { defineStateField, stateSchema } from "../harness/state.ts";
import type { AgentMiddleware, AgentState, AgentTool, StateField, StateUpdate } from "../harness/types.ts";
import { callPath, normalizeSources, readWholeText } from "./backend-text.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { compactLine } from "../context/tool-profile.ts";

export const SKILLS = "SkillsMiddleware";
export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1_024;
/** SKILL.md files longer than this (characters) are rejected. */
const MAX_SKILL_FILE_CHARS = 10 * 1024 * 1024;
/** The read limit the prompt suggests: the read_file default (100 lines) is short for most skills. */
const SKILL_READ_LIMIT = 1_000;

/** What the agent knows of a skill before reading it. Plain data (checkpointed). */
export interface SkillMetadata {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md. */
  path: string;
  /** Tool names the skill lists (`metadata.include_tools` and `allowed-tools`). */
  tools: string[];
}

/** A SKILL.md (or a source) that could not be loaded, and why. */
export interface SkillError {
  path: string;
  message: string;
}

export interface SkillsMiddlewareOptions {
  /** Directories holding `<name>/SKILL.md`; later ones override earlier ones. */
  sources: readonly string[];
  backend: BackendOption;
  now: () => string;
  /** Tools disclosed only after a skill naming them has been read. */
  skillTools?: readonly AgentTool[];
  /**
   * Skills, by name, whose SKILL.md is in every request's system prompt (Python deepagents 0.7's `pinned_skills`):
   * they count as read (their tools are disclosed), and a name no source has is listed in `skillErrors`.
   */
  pinnedSkills?: readonly string[];
  /** The compact profile (small windows): each skill's description cut to one short line. */
  compact?: boolean;
}

const NAME_PATTERN = /^[\p{Ll}\p{Nd}]+(?:-[\p{Ll}\p{Nd}]+)*$/u;

/** Why a skill name breaks the Agent Skills spec, or undefined when it is valid. */
export function skillNameProblem(name: string, directory: string): string | undefined {
  if (name.length > MAX_SKILL_NAME_LENGTH) return `name exceeds ${MAX_SKILL_NAME_LENGTH} characters`;
  if (!NAME_PATTERN.test(name)) return "name must be lowercase letters, digits and single hyphens, not starting or ending with a hyphen";
  if (name !== directory) return `name '${name}' must match its directory name '${directory}'`;
  return undefined;
}

/** Tool names from a space-separated string or a list of them. */
function words(value: unknown): string[] | string {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.flatMap((v) => v.split(/\s+/)).filter(Boolean);
  return "must be a list of tool names";
}

/** Parses and validates one SKILL.md. Never throws: problems come back as a SkillError. */
export async function parseSkill(content: string, path: string): Promise<SkillMetadata | SkillError> {
  const fail = (message: string): SkillError => ({ path, message });
  if (content.length > MAX_SKILL_FILE_CHARS) return fail(`SKILL.md is too large (${content.length} characters)`);
  const parsed = await parseFrontmatter(content);
  if (!parsed.ok) return fail(parsed.error);
  const { name: rawName, description: rawDescription, metadata } = parsed.value.data;
  if (rawName === undefined || rawName === null || (typeof rawName === "string" && !rawName.trim())) return fail("missing required 'name'");
  if (typeof rawName !== "string") return fail("'name' must be a string");
  if (rawDescription === undefined || rawDescription === null || (typeof rawDescription === "string" && !rawDescription.trim())) {
    return fail("missing required 'description'");
  }
  if (typeof rawDescription !== "string") return fail("'description' must be a string");
  const name = rawName.trim();
  const description = rawDescription.trim();
  const directory = path.split("/").at(-2) ?? "";
  const nameProblem = skillNameProblem(name, directory);
  if (nameProblem) return fail(nameProblem);
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return fail(`description exceeds ${MAX_SKILL_DESCRIPTION_LENGTH} characters (${description.length})`);
  }
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata)))
    return fail("'metadata' must be a mapping");
  const included = words((metadata as Record<string, unknown> | null | undefined)?.include_tools);
  if (typeof included === "string") return fail(`'metadata.include_tools' ${included}`);
  const allowed = words(parsed.value.data["allowed-tools"]);
  if (typeof allowed === "string") return fail(`'allowed-tools' ${allowed}`);
  return { name, description, path, tools: [...new Set([...included, ...allowed])] };
}

function isSkillError(value: SkillMetadata | SkillError): value is SkillError {
  return "message" in value;
}

/** Loads every `<dir>/SKILL.md` of the sources, in order; a later skill replaces an earlier one of the same name. */
async function loadSkills(
  backend: BackendProtocol,
  sources: readonly string[],
): Promise<{ skills: SkillMetadata[]; errors: SkillError[] }> {
  const byName = new Map<string, SkillMetadata>();
  const errors: SkillError[] = [];
  for (const source of sources) {
    const found = await backend.glob("*/SKILL.md", source);
    if (isBackendError(found)) {
      if (found.error !== "file_not_found") errors.push({ path: source, message: found.message });
      continue;
    }
    for (const file of found) {
      if (file.isDir) continue;
      const text = await readWholeText(backend, file.path);
      const skill = isBackendError(text) ? { path: file.path, message: text.message } : await parseSkill(text, file.path);
      if (isSkillError(skill)) errors.push(skill);
      else byName.set(skill.name, skill);
    }
  }
  return { skills: [...byName.values()], errors };
}

/** The "## Skills" prompt section: one line per skill, nothing of the bodies. */
function formatSkillsSection(skills: readonly SkillMetadata[], unlocksTools: boolean, compact: boolean): string {
  const describe = (text: string) => (compact ? compactLine(text) : text.replace(/\s+/g, " "));
  const lines = skills.map((s) => `- ${s.name}: ${describe(s.description)} (${s.path})`);
  return [
    "## Skills",
    "",
    "Skills are instructions for specific tasks, kept in SKILL.md files. " +
      `When a task matches a skill's description, read its SKILL.md with \`read_file\` (limit=${SKILL_READ_LIMIT}) before acting ` +
      "and follow it; paths it mentions are relative to its directory." +
      (unlocksTools ? " Reading a skill's SKILL.md also makes the tools it lists available." : ""),
    "",
    ...lines,
  ].join("\n");
}

/**
 * The skills loaded for this thread (a state field: each thread keeps its own); undefined until the first model call
 * loaded them. `null` asks for a reload: the next model call reads every source again.
 */
const SKILLS_METADATA = defineStateField<SkillMetadata[] | null | undefined>("skillsMetadata", {
  default: () => undefined,
  private: true,
});

/**
 * The `skillsMetadata` state field, as deepagentsjs 1.14.1 exports it (`skillsMetadataValue`): a middleware of your
 * own declares it (`stateSchema: { skillsMetadata: skillsMetadataValue }`) to read the skills loaded for the thread,
 * or to return `{ skillsMetadata: null }` from any hook, so the next model call reloads every source. Outside a run,
 * `agent.updateState(config, { skillsMetadata: null })` or `{ messages, skillsMetadata: null }` as a run's input do
 * the same. deeptab also reloads by itself whenever the SKILL.md listing (paths, sizes, times) changed; `null` covers
 * what that cannot see (an edit that keeps a file's size and time).
 */
export const skillsMetadataValue: StateField<SkillMetadata[] | null | undefined> = SKILLS_METADATA.field;
/** Skills (or sources) that could not be loaded. */
const SKILL_ERRORS = defineStateField<SkillError[]>("skillErrors", { default: () => [], private: true });
/** SKILL.md paths read successfully in this thread (a set, merged by union). */
const SKILLS_READ = defineStateField<string[]>("skillsRead", {
  default: () => [],
  reducer: (current, update) => [...new Set([...(current ?? []), ...(update ?? [])])],
  private: true,
});

/** The SKILL.md listing the index was read at (see skillsStamp). */
const SKILLS_STAMP = defineStateField<string | undefined>("skillsStamp", { default: () => undefined, private: true });

/**
 * A cheap stamp of the sources' SKILL.md files: their paths, sizes and
 * modification times (one glob per source, no file read). A file whose
 * backend gives no modification time makes the stamp unique, so it is read
 * every time rather than missed.
 */
async function skillsStamp(backend: BackendProtocol, sources: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const source of sources) {
    const found = await backend.glob("*/SKILL.md", source);
    if (isBackendError(found)) {
      parts.push(`${source}!${found.error}`);
      continue;
    }
    for (const f of found) {
      if (f.isDir) continue;
      parts.push(`${f.path}|${f.size}|${f.modifiedAt ?? `unknown:${crypto.randomUUID()}`}`);
    }
  }
  return parts.sort().join("\n");
}

function skillsOf(state: Readonly<AgentState>): readonly SkillMetadata[] {
  return SKILLS_METADATA.get(state) ?? [];
}

function readPaths(state: Readonly<AgentState>): ReadonlySet<string> {
  return new Set(SKILLS_READ.get(state) ?? []);
}

/** Tool names unlocked by the skills read so far and the pinned ones (which count as read). */
function unlockedTools(state: Readonly<AgentState>, pinned: ReadonlySet<string>): Set<string> {
  const read = readPaths(state);
  return new Set(
    skillsOf(state)
      .filter((s) => read.has(s.path) || pinned.has(s.name))
      .flatMap((s) => s.tools),
  );
}

/**
 * Builds the SkillsMiddleware.
 *
 * Throws (at construction) only on a broken setup: a source that is not an
 * absolute path. Everything that can go wrong at run time is a value: an
 * unreadable source or an invalid SKILL.md is recorded in `skillErrors` (and
 * nothing is logged); a call to a still-hidden skill tool is an error result.
 */
export function skillsMiddleware(options: SkillsMiddlewareOptions): AgentMiddleware {
  const sources = normalizeSources(SKILLS, options.sources);
  const skillTools = options.skillTools ?? [];
  const gated = new Set(skillTools.map((t) => t.name));
  if (gated.size !== skillTools.length) throw new HarnessError("invalid_option", `${SKILLS}: two skill tools share a name.`);
  const pinnedNames = [...(options.pinnedSkills ?? [])];
  const pinned = new Set(pinnedNames);
  return {
    name: SKILLS,
    tools: skillTools,
    stateSchema: stateSchema(SKILLS_METADATA, SKILL_ERRORS, SKILLS_READ, SKILLS_STAMP),
    async wrapModelCall(request, next) {
      // The index as of now: re-read only when the SKILL.md listing changed since it was read.
      const backend = resolveBackend(options.backend, createBackendRuntime(request.state.files, request.config, options.now));
      const stamp = await skillsStamp(backend, sources);
      let update: StateUpdate | undefined;
      let state = request.state;
      // undefined: never loaded in this thread; null: a reload asked for (deepagentsjs 1.14.1).
      if (stamp !== SKILLS_STAMP.get(state) || SKILLS_METADATA.get(state) == null) {
        const { skills, errors } = await loadSkills(backend, sources);
        const unknown = pinnedNames
          .filter((name) => !skills.some((s) => s.name === name))
          .map((name) => ({ path: name, message: `pinned skill '${name}' is in none of the skill sources` }));
        update = { ...SKILLS_METADATA.set(skills), ...SKILL_ERRORS.set([...errors, ...unknown]), ...SKILLS_STAMP.set(stamp) };
        state = { ...state, ...update };
      }
      const skills = skillsOf(state);
      const unlocked = unlockedTools(state, pinned);
      // Pinned skills are read at every model call: what the prompt holds is the file as it is now.
      // (Loaded with the first pinned skill: the worker's startup code does not carry it.)
      const pinnedSection = pinnedNames.length ? await pinnedSectionOf(backend, pinnedNames, skills) : "";
      const tools = gated.size ? request.tools.filter((t) => !gated.has(t.name) || unlocked.has(t.name)) : request.tools;
      const section = skills.length
        ? formatSkillsSection(
            skills,
            skills.some((s) => s.tools.some((t) => gated.has(t))),
            options.compact === true,
          )
        : "";
      const systemPrompt = [request.systemPrompt, section, pinnedSection].filter(Boolean).join("\n\n");
      const changed = Boolean(section) || Boolean(pinnedSection) || tools.length !== request.tools.length;
      const response = await next(changed ? { ...request, systemPrompt, tools, state } : request);
      return update ? { ...response, update: { ...(response.update ?? {}), ...update } } : response;
    },
    async wrapToolCall(request, next) {
      const { toolCall, runtime } = request;
      if (gated.has(toolCall.name) && !unlockedTools(runtime.state, pinned).has(toolCall.name)) {
        const providers = skillsOf(runtime.state)
          .filter((s) => s.tools.includes(toolCall.name))
          .map((s) => s.path);
        const hint = providers.length
          ? `Read the SKILL.md of a skill that provides it first (${providers.join(", ")}).`
          : "No loaded skill provides it.";
        return { message: errorToolMessage(toolCall.id, toolCall.name, `Error: tool '${toolCall.name}' is not available yet. ${hint}`) };
      }
      if (toolCall.name !== "read_file") return next(request);
      const result = await next(request);
      if (result.message.status === "error") return result;
      const path = callPath(toolCall.args);
      if (!path || readPaths(runtime.state).has(path) || !skillsOf(runtime.state).some((s) => s.path === path)) return result;
      return { ...result, update: { ...(result.update ?? {}), ...SKILLS_READ.set([path]) } };
    },
  };
}

/** The prompt's "Pinned skills" section for `names` (pinned-skills.ts, loaded on first use). */
async function pinnedSectionOf(...args: Parameters<typeof readPinnedSkills>): Promise<string> {
  const { formatPinnedSection, readPinnedSkills } = await import("./pinned-skills.ts");
  return formatPinnedSection(await readPinnedSkills(...args));
}
