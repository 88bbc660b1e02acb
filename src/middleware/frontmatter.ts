/**
 * YAML frontmatter of Markdown files (SKILL.md), parsed with the `yaml`
 * package's `parse` and its default (core) schema: the same call deepagentsjs
 * makes, so a skill file parses the same way in both.
 *
 * The parser never throws: invalid YAML, a missing or unclosed `---` fence
 * and frontmatter that is not a mapping come back as error values. The YAML
 * parser is imported at the first frontmatter to parse (an agent without
 * skills never loads it).
 */
import type { YAMLParseError } from "yaml";
import { err, ok, type Result } from "../core/result.ts";

/** A parsed frontmatter mapping: whatever YAML values the file holds. */
export type FrontmatterData = Record<string, unknown>;

export type FrontmatterResult = Result<{ data: FrontmatterData; body: string }, string>;

/** The first line of a YAML parse error, with its position ("Missing closing "quote at line 2, column 27"). */
function yamlProblem(err: YAMLParseError): string {
  return err.message.split("\n")[0]!.replace(/:$/, "");
}

/** A Markdown file's frontmatter block, unparsed, and the body after it. */
export interface FrontmatterParts {
  /** The YAML between the fences. */
  yaml: string;
  /** The file's text after the closing fence. */
  body: string;
  /** The 1-based line of the file where the YAML starts (2: the line after the opening `---`). */
  yamlLine: number;
  /** The 1-based line of the file where the body starts. */
  bodyLine: number;
}

/** Splits `---\n…\n---` off the top of a Markdown file (a BOM and CRLF line ends allowed), without parsing it. */
export function splitFrontmatter(content: string): Result<FrontmatterParts, string> {
  const lines = content.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return err("no YAML frontmatter (the file must start with a '---' line)");
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return err("the frontmatter is not closed by a '---' line");
  return ok({ yaml: lines.slice(1, end).join("\n"), body: lines.slice(end + 1).join("\n"), yamlLine: 2, bodyLine: end + 2 });
}

/** Splits `---\n…\n---` off the top of a Markdown file and parses it. */
export async function parseFrontmatter(content: string): Promise<FrontmatterResult> {
  const parts = splitFrontmatter(content);
  if (!parts.ok) return parts;
  const { parse, YAMLParseError } = await import("yaml");
  let data: unknown;
  try {
    data = parse(parts.value.yaml);
  } catch (cause) {
    if (cause instanceof YAMLParseError) return err(`invalid YAML: ${yamlProblem(cause)}`);
    return err(`invalid YAML: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) return err("the frontmatter must be a mapping of 'key: value' lines");
  return ok({ data: data as FrontmatterData, body: parts.value.body });
}
