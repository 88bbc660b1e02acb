/**
 * An agent folder as a file map: relative paths (`AGENTS.md`, `skills/report/SKILL.md`) to bytes. Every source (a
 * dropped folder, a zip, a JSON bundle) becomes one through {@link readAgentFiles}, which refuses what could escape
 * the folder or collide on some system and what breaks the limits, and gives the same map for the same content:
 * paths in Unicode NFC, sorted by code point (the byte order of their UTF-8), one top-level folder unwrapped, and the
 * litter of archivers (`__MACOSX/`, `.DS_Store`, `Thumbs.db`) left out.
 */
import { ok, type Result } from "../core/result.ts";
import { invisibleProblem, showInvisible } from "./invisible.ts";
import { MAX_AGENT_BYTES, MAX_AGENT_FILE_BYTES, MAX_AGENT_FILES, MAX_AGENT_PATH_LENGTH } from "./limits.ts";
import { problem, refuse, type AgentFolderError, type AgentProblem } from "./problems.ts";

/** An agent folder's files: normalized relative paths to bytes, in code point order of the paths. */
export type AgentFiles = ReadonlyMap<string, Uint8Array>;

/** Files as a caller has them: a map or entries (path → bytes or text), or a plain object of them. */
export type AgentFileInput = Iterable<readonly [string, Uint8Array | string]> | Readonly<Record<string, Uint8Array | string>>;

/** The files agent folders may hold at their top that the format reads (anything else is kept and ignored). */
export const MANIFEST_FILE = "agent.yaml";
export const INSTRUCTIONS_FILE = "AGENTS.md";

const encoder = new TextEncoder();

/** Files archivers and desktops add that are no part of a folder. */
function isLitter(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return path.startsWith("__MACOSX/") || name === ".DS_Store" || name === "Thumbs.db";
}

/** Orders strings by code point, which is the byte order of their UTF-8 (`LC_ALL=C sort`). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** A UTF-16 surrogate without its pair: text no UTF-8 can hold. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a raw path is unsafe or unusable, or undefined. */
function pathProblem(path: string): AgentProblem | undefined {
  // Escaped: a control character as JSON writes it, an invisible one as <U+202E> (a message never carries it raw).
  const at = { file: showInvisible(JSON.stringify(path).slice(1, -1)) };
  const unsafe = (why: string) => problem("unsafe_path", why, at);
  if (path.length === 0) return unsafe("an empty path");
  if (path.length > MAX_AGENT_PATH_LENGTH)
    return problem("too_large", `the path is longer than ${MAX_AGENT_PATH_LENGTH} characters`, { file: `${at.file.slice(0, 60)}…` });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return unsafe("control characters (NUL included) are not allowed in paths");
  if (LONE_SURROGATE.test(path)) return unsafe("the path is not valid Unicode");
  const invisible = invisibleProblem(path);
  if (invisible) return problem("invisible_character", `the path holds ${invisible}`, at);
  if (path.includes("\\")) return unsafe("backslashes are not allowed in paths (use /)");
  if (/^[a-zA-Z]:/.test(path)) return unsafe("a drive letter: paths are relative to the agent folder");
  if (path.startsWith("/")) return unsafe("an absolute path: paths are relative to the agent folder");
  const segments = path.split("/");
  if (segments.includes("..")) return unsafe("'..' would reach outside the agent folder");
  if (segments.includes("~")) return unsafe("'~' could be read as a home folder");
  if (segments.some((s) => s === "" || s === ".")) return unsafe("empty and '.' path segments are not allowed");
  return undefined;
}

function entriesOf(input: AgentFileInput): Array<readonly [string, Uint8Array | string]> {
  if (Symbol.iterator in input) return [...(input as Iterable<readonly [string, Uint8Array | string]>)];
  return Object.entries(input as Record<string, Uint8Array | string>);
}

/** The one top-level folder every path is in, when there is exactly one (GitHub's "Download ZIP", a dropped folder). */
function soleFolder(paths: readonly string[]): string | undefined {
  const first = paths[0]?.split("/")[0];
  if (first === undefined) return undefined;
  return paths.every((p) => p.startsWith(`${first}/`)) ? first : undefined;
}

/**
 * Checks and normalizes files from any source. Directory entries (a path ending in `/` with no content) are skipped;
 * text is stored as UTF-8. Refused, with every problem listed: more than MAX_AGENT_FILES files (counted first, before
 * any path is looked at), unsafe paths (see `pathProblem`), two paths naming one file (Unicode normalization,
 * case, or a path that is both a file and a folder), a file over MAX_AGENT_FILE_BYTES, more than MAX_AGENT_BYTES in
 * all. Never throws.
 */
export function readAgentFiles(input: AgentFileInput): Result<AgentFiles, AgentFolderError> {
  const raw = entriesOf(input).filter(([path, content]) => {
    if (typeof path === "string" && path.endsWith("/") && content.length === 0) return false;
    return typeof path !== "string" || !isLitter(path);
  });
  if (raw.length > MAX_AGENT_FILES) {
    return refuse([
      problem("too_large", `${raw.length.toLocaleString("en")} files; an agent holds at most ${MAX_AGENT_FILES.toLocaleString("en")}`),
    ]);
  }
  const problems: AgentProblem[] = [];
  const files: Array<[string, Uint8Array]> = [];
  const byNfc = new Map<string, string>();
  const byFolded = new Map<string, string>();
  let total = 0;
  for (const [path, content] of raw) {
    if (typeof path !== "string") {
      problems.push(problem("unsafe_path", `a path that is not text (${typeof path})`));
      continue;
    }
    const bad = pathProblem(path);
    if (bad) {
      problems.push(bad);
      continue;
    }
    const nfc = path.normalize("NFC");
    const folded = nfc.toLowerCase();
    const same = byNfc.get(nfc) ?? byFolded.get(folded);
    if (same !== undefined) {
      const why =
        same === path
          ? "appears twice"
          : same.normalize("NFC") === nfc
            ? "appears twice, its name written in two Unicode forms (composed and decomposed accents): one file on some systems"
            : `'${same}' and '${path}' differ only in case: they are one file on some systems`;
      problems.push(problem("duplicate_path", why, { file: nfc }));
      continue;
    }
    byNfc.set(nfc, path);
    byFolded.set(folded, path);
    const bytes = typeof content === "string" ? encoder.encode(content) : content;
    if (!(bytes instanceof Uint8Array)) {
      problems.push(problem("unsafe_path", "its content is neither bytes nor text", { file: nfc }));
      continue;
    }
    if (bytes.length > MAX_AGENT_FILE_BYTES) {
      problems.push(problem("too_large", `${mib(bytes.length)}; one file holds at most ${mib(MAX_AGENT_FILE_BYTES)}`, { file: nfc }));
      continue;
    }
    total += bytes.length;
    files.push([nfc, bytes]);
  }
  if (total > MAX_AGENT_BYTES) problems.push(problem("too_large", `${mib(total)} in all; an agent holds at most ${mib(MAX_AGENT_BYTES)}`));
  const paths = new Set(files.map(([p]) => p.toLowerCase()));
  for (const [path] of files) {
    for (let cut = path.indexOf("/"); cut > 0; cut = path.indexOf("/", cut + 1)) {
      if (paths.has(path.slice(0, cut).toLowerCase())) {
        problems.push(problem("duplicate_path", `'${path.slice(0, cut)}' is both a file and a folder`, { file: path }));
        break;
      }
    }
  }
  if (problems.length) return refuse(problems);
  const folder = soleFolder(files.map(([p]) => p));
  const unwrapped = folder === undefined ? files : files.map(([p, b]): [string, Uint8Array] => [p.slice(folder.length + 1), b]);
  unwrapped.sort(([a], [b]) => compareCodePoints(a, b));
  return ok(new Map(unwrapped));
}

/** Bytes in MiB for messages ("12.5 MiB"). */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}
