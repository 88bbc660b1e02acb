/**
 * Pinned skills (Python deepagents 0.7's `pinned_skills`): skills named up front whose SKILL.md is in every request's
 * system prompt, so the agent follows them without having to decide to read them.
 */
import { isBackendError, type BackendProtocol } from "../backends/protocol.ts";
import { readWholeText } from "./backend-text.ts";
import { splitFrontmatter } from "./frontmatter.ts";

/** Characters of one pinned SKILL.md's body the prompt holds; the rest is left to `read_file`. */
export const PINNED_SKILL_CHARS = 20_000;

/** A pinned skill as the prompt shows it. */
interface PinnedSkill {
  name: string;
  path: string;
  /** Its SKILL.md after the frontmatter, cut at {@link PINNED_SKILL_CHARS}. */
  body: string;
}

/** The body of a SKILL.md, cut to the prompt's share with a note saying where the rest is. */
function bodyOf(text: string, path: string): string {
  const parts = splitFrontmatter(text);
  const body = (parts.ok ? parts.value.body : text).trim();
  if (body.length <= PINNED_SKILL_CHARS) return body;
  const cut = body.lastIndexOf("\n", PINNED_SKILL_CHARS);
  const note = `[Cut at ${PINNED_SKILL_CHARS.toLocaleString("en")} characters: read the rest of ${path} with read_file.]`;
  return `${body.slice(0, cut > 0 ? cut : PINNED_SKILL_CHARS)}\n\n${note}`;
}

/**
 * The pinned skills found in the index, in the order they were pinned, read now. A name in no source (the skills
 * middleware lists it in `skillErrors`) or a file that cannot be read is left out.
 */
export async function readPinnedSkills(
  backend: BackendProtocol,
  pinned: readonly string[],
  index: ReadonlyArray<{ name: string; path: string }>,
): Promise<PinnedSkill[]> {
  const skills: PinnedSkill[] = [];
  for (const name of new Set(pinned)) {
    const found = index.find((s) => s.name === name);
    if (!found) continue;
    const text = await readWholeText(backend, found.path);
    if (!isBackendError(text)) skills.push({ name, path: found.path, body: bodyOf(text, found.path) });
  }
  return skills;
}

/** The "## Pinned skills" prompt section: each pinned skill's SKILL.md body under its name. */
export function formatPinnedSection(skills: readonly PinnedSkill[]): string {
  if (!skills.length) return "";
  return [
    "## Pinned skills",
    "",
    "These skills are always in effect: follow them whenever they apply, without reading their SKILL.md again. " +
      "Paths they mention are relative to their directory.",
    ...skills.flatMap((s) => ["", `### ${s.name} (${s.path})`, "", s.body]),
  ].join("\n");
}
