/** Whole-file text reads through the backend protocol, shared by skills and memory. */
import { normalizePath } from "../backends/paths.ts";
import { isBackendError, type BackendError, type BackendProtocol } from "../backends/protocol.ts";
import { HarnessError } from "../harness/errors.ts";

/** The whole text of a file (lines joined with "\n"), or the backend's error value. */
export async function readWholeText(backend: BackendProtocol, path: string): Promise<string | BackendError> {
  const slice = await backend.read(path, 0, Number.MAX_SAFE_INTEGER);
  return isBackendError(slice) ? slice : slice.lines.join("\n");
}

/** Normalized absolute paths; a path that is not one is a broken setup and throws. */
export function normalizeSources(owner: string, sources: readonly string[]): string[] {
  return sources.map((raw) => {
    const path = normalizePath(raw);
    if (isBackendError(path)) throw new HarnessError("invalid_option", `${owner}: invalid source path '${raw}': ${path.message}`);
    return path;
  });
}

/** The normalized `file_path` argument of a tool call, if it has a valid one. */
export function callPath(args: Record<string, unknown>): string | undefined {
  const raw = args.file_path;
  if (typeof raw !== "string") return undefined;
  const path = normalizePath(raw);
  return isBackendError(path) ? undefined : path;
}
