/**
 * YAML frontmatter of Markdown files (SKILL.md), parsed with the `yaml`
 * package's `parse` and its default (core) schema: the same call deepagentsjs
 * makes, so a skill file parses the same way in both.
 *
 * The parser never throws: invalid YAML, a missing or unclosed `---` fence
 * and frontmatter that is not a mapping come back as error values.
 */
import { parse, YAMLParseError } from "yaml";
import { err, ok, type Result } from "../core/result.ts";

/** A parsed frontmatter mapping: whatever YAML values the file holds. */
export type FrontmatterData = Record<string, unknown>;

export type FrontmatterResult = Result<{ data: FrontmatterData; body: string }, string>;

/** The first line of a YAML parse error, with its position ("Missing closing "quote at line 2, column 27"). */
function yamlProblem(err: YAMLParseError): string {
  return err.message.split("\n")[0]!.replace(/:$/, "");
}

/** Splits `---\n…\n---` off the top of a Markdown file and parses it. */
export function parseFrontmatter(content: string): FrontmatterResult {
  const lines = content.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return err("no YAML frontmatter (the file must start with a '---' line)");
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return err("the frontmatter is not closed by a '---' line");
  let data: unknown;
  try {
    data = parse(lines.slice(1, end).join("\n"));
  } catch (cause) {
    if (cause instanceof YAMLParseError) return err(`invalid YAML: ${yamlProblem(cause)}`);
    return err(`invalid YAML: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) return err("the frontmatter must be a mapping of 'key: value' lines");
  return ok({ data: data as FrontmatterData, body: lines.slice(end + 1).join("\n") });
}
