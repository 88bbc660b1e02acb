import { backendError, type BackendError } from "./protocol.ts";

/** Longest path accepted, in characters (POSIX PATH_MAX). */
const MAX_PATH_LENGTH = 4_096;

/**
 * Normalizes an absolute virtual path: collapses repeated slashes, drops a
 * trailing slash and "." segments. Rejects anything that could escape the
 * virtual root or be read as a host path: relative paths, `..`, `~`,
 * backslashes, drive letters, control characters, over-long paths. The result
 * is in Unicode NFC, so names that differ only in normalization (a composed
 * "é" and "e" + combining accent) are one file.
 */
export function normalizePath(path: string): string | BackendError {
  if (typeof path !== "string")
    return backendError("invalid_path", `Error: Invalid path ${String(path)}: a path must be a string such as /notes.md.`);
  if (path.length === 0) return invalidPath(path, "path is empty");
  if (path.length > MAX_PATH_LENGTH)
    return backendError("invalid_path", `Error: Invalid path '${path.slice(0, 60)}…': longer than ${MAX_PATH_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(path)) return invalidPath(path, "control characters are not allowed");
  if (path.includes("\\")) return invalidPath(path, "backslashes are not allowed");
  if (/^[a-zA-Z]:/.test(path)) {
    return backendError(
      "invalid_path",
      `Error: Windows absolute paths are not supported: ${path}. Please use virtual paths starting with / (e.g., /workspace/file.txt)`,
    );
  }
  if (path.startsWith("~")) return traversal(path);
  if (!path.startsWith("/")) return invalidPath(path, "the path must start with /");
  const parts: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." || segment === "~") return traversal(path);
    parts.push(segment);
  }
  return ("/" + parts.join("/")).normalize("NFC");
}

function invalidPath(path: string, why: string): BackendError {
  return backendError("invalid_path", `Error: Invalid path '${path}': ${why}. Use an absolute path such as /notes.md.`);
}

function traversal(path: string): BackendError {
  return backendError("invalid_path", `Error: Path traversal not allowed: ${path}`);
}

/** The directory prefix of a normalized path, with a trailing slash ("/" for the root). */
export function dirPrefix(dir: string): string {
  return dir === "/" ? "/" : dir + "/";
}

/** True when `path` is `dir` itself or lies below it. Both normalized. */
export function isWithin(path: string, dir: string): boolean {
  return dir === "/" || path === dir || path.startsWith(dir + "/");
}
