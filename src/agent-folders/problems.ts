/**
 * What is wrong with an agent folder, as data: every problem names its file (and field and line where there is
 * one), and a load that finds any returns all of them at once as one coded error, so a person fixes everything in
 * one pass and nothing is half-loaded.
 */
import { err, type Err } from "../core/result.ts";
import { showInvisible } from "./invisible.ts";
import { MAX_REPORTED_PROBLEMS } from "./limits.ts";

/** What kind of problem it is; a UI may group or explain by it. */
export type AgentProblemCode =
  /** Neither AGENTS.md nor agent.yaml at the folder's top. */
  | "no_agent"
  /** A path that could escape the folder or is not portable: `..`, absolute, a backslash, a drive letter, NUL. */
  | "unsafe_path"
  /** Two paths that name one file on some system (they differ only in Unicode normalization or case). */
  | "duplicate_path"
  /** Over one of the limits (limits.ts): files, bytes, one file's bytes, a path's length, a zip's expansion. */
  | "too_large"
  /** A symbolic link in a zip (it could point anywhere). */
  | "symlink"
  /** A zip that cannot be read (damaged, encrypted, an unknown compression, sizes that do not add up). */
  | "invalid_zip"
  /** A JSON bundle that is not one (wrong format or version, bad base64, malformed entries). */
  | "invalid_bundle"
  /** A text file (AGENTS.md, agent.yaml, a subagent, a SKILL.md) that is not valid UTF-8. */
  | "invalid_utf8"
  /** YAML that does not parse (agent.yaml or a frontmatter block), or a missing or unclosed `---` fence. */
  | "invalid_yaml"
  /** A field with the wrong type or value. */
  | "invalid_field"
  /** A field agent.yaml does not know (a typo, most often). */
  | "unknown_field"
  /** A required field left out (a subagent's or skill's description). */
  | "missing_field"
  /** A tool name no built-in tool has. */
  | "unknown_tool"
  /** A skill whose folder and frontmatter names differ. */
  | "name_mismatch"
  /** Two subagents (or MCP servers) with one name. */
  | "name_clash"
  /** Something that looks like a key or other secret (an agent never carries one). */
  | "secret"
  /** A file where the format has no place for it (`agents/notes.txt`, `skills/README.md`, `agent.yml`). */
  | "misplaced_file"
  /**
   * A starter file aimed at a place that is not the agent's to fill (reserved.ts): what every thread shares
   * (`files/memories/…`, `files/skills/…`), the thread's skills folder, the harness's, the person's uploads, the shell's.
   */
  | "reserved_path"
  /** A name or path holding an invisible or format character (a bidi override, a zero-width space; Unicode Cf). */
  | "invisible_character"
  /** A file in `demos/` that is not a recorded demo (models/replay/format.ts): each shape problem, with where. */
  | "invalid_demo";

/** One problem. `message` is complete for people ("agents/critic.md line 3: 'description' is missing …"). */
export interface AgentProblem {
  code: AgentProblemCode;
  message: string;
  /** The file's path in the folder (`agents/critic.md`), when the problem is in one. */
  file?: string;
  /** The field, dotted (`interrupt_on.execute.allowed_decisions`), when the problem is in one. */
  field?: string;
  /** 1-based line in the file, when known. */
  line?: number;
}

/** A refused agent: plain data (it crosses postMessage), coded like every deeptab error, with every problem. */
export interface AgentFolderError {
  name: "AgentFolderError";
  code: "invalid_agent";
  /** A summary: the first problem and how many there are. */
  message: string;
  problems: AgentProblem[];
  /** Problems found beyond the ones listed (at most MAX_REPORTED_PROBLEMS are). */
  more: number;
}

/** Where a problem is, as text: "agents/critic.md line 3: description: ". */
function where(file?: string, field?: string, line?: number): string {
  const place = file ? `${file}${line ? ` line ${line}` : ""}` : "";
  return [place, field].filter(Boolean).join(": ") + (place || field ? ": " : "");
}

/**
 * A problem whose message starts with where it is. Invisible and direction-changing characters (a zip entry's name, a
 * YAML key) are shown as `<U+202E>`, in the message and in `file` and `field`: a problem never carries them raw.
 */
export function problem(code: AgentProblemCode, what: string, raw: { file?: string; field?: string; line?: number } = {}): AgentProblem {
  const at = {
    ...raw,
    ...(raw.file !== undefined ? { file: showInvisible(raw.file) } : {}),
    ...(raw.field !== undefined ? { field: showInvisible(raw.field) } : {}),
  };
  return {
    code,
    message: where(at.file, at.field, at.line) + showInvisible(what, true),
    ...(at.file !== undefined ? { file: at.file } : {}),
    ...(at.field !== undefined ? { field: at.field } : {}),
    ...(at.line !== undefined ? { line: at.line } : {}),
  };
}

/** The error for a non-empty list of problems (the first MAX_REPORTED_PROBLEMS kept). */
export function refuse(problems: readonly AgentProblem[]): Err<AgentFolderError> {
  const listed = problems.slice(0, MAX_REPORTED_PROBLEMS);
  const count = problems.length;
  const message =
    count === 1
      ? `This agent cannot be opened: ${problems[0]!.message}`
      : `This agent cannot be opened (${count} problems): ${problems[0]!.message}`;
  return err({ name: "AgentFolderError", code: "invalid_agent", message, problems: listed, more: count - listed.length });
}

/** Is this value an {@link AgentFolderError}? (It survives postMessage, unlike `instanceof`.) */
export function isAgentFolderError(value: unknown): value is AgentFolderError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { code?: unknown }).code === "invalid_agent" &&
    Array.isArray((value as { problems?: unknown }).problems)
  );
}
