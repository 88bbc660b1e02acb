/**
 * The backend protocol: where the agent's files live and, for a sandbox, where
 * commands run. Tools, eviction, memory and skills all go through it, so one
 * implementation swap moves the whole agent onto another storage.
 *
 * Contract for every method:
 * - Paths are absolute virtual paths ("/notes/a.md"). A path that is not one
 *   (relative, `..`, `~`, backslashes, NUL) yields `{ error: "invalid_path" }`.
 * - Expected failures are returned as {@link BackendError} values, never thrown.
 * - A method throws only on a broken invariant or an unavailable medium (for
 *   example IndexedDB refusing to open); callers let such errors propagate.
 */
export type BackendErrorCode =
  | "file_not_found"
  | "is_directory"
  | "permission_denied"
  | "invalid_path"
  | "already_exists"
  | "string_not_found"
  | "not_unique"
  | "invalid_argument"
  | "file_too_large"
  | "not_supported"
  /** A call of the same step changed the file after the version this call knew (see step-ledger.ts). */
  | "conflict";

/** An expected failure, as a value. `message` is written for the model to act on. */
export interface BackendError {
  readonly error: BackendErrorCode;
  readonly message: string;
}

export function backendError(error: BackendErrorCode, message: string): BackendError {
  return { error, message };
}

export function isBackendError(value: unknown): value is BackendError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { error?: unknown }).error === "string" &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

/** One entry of a listing. Directories end without a slash in `path`; `isDir` tells. */
export interface FileInfo {
  path: string;
  isDir: boolean;
  /** Size in bytes of the stored content (0 for directories). */
  size: number;
  /** ISO time of the last change, when the backend knows it. */
  modifiedAt?: string;
}

/**
 * A slice of a text file, as lines (without their line terminators): deeptab's `ReadResult`. The window fields are
 * deepagentsjs 1.13.2's (`ReadResult.startLine`, `endLine`, `nextOffset`), set whenever the slice holds a line.
 */
export interface ReadSlice {
  /** The lines from `offset` (0-based), at most `limit` of them. */
  lines: string[];
  offset: number;
  /** The file's number of lines (a trailing newline does not make one more). */
  totalLines: number;
  /** 1-based number of the first line in `lines`; unset when `lines` is empty. */
  startLine?: number;
  /** 1-based number of the last line in `lines`; unset when `lines` is empty. */
  endLine?: number;
  /** The 0-based offset of the first line not read yet; unset when the slice reaches the end of the file. */
  nextOffset?: number;
}

/** deepagentsjs' name for what `read` returns (its `ReadResult`); deeptab's lines stay lines, not one string. */
export type ReadResult = ReadSlice;

export interface GrepMatch {
  path: string;
  /** 1-based line number. */
  line: number;
  text: string;
}

export interface EditOutcome {
  path: string;
  occurrences: number;
}

export interface ExecuteResult {
  output: string;
  exitCode: number | null;
  truncated: boolean;
}

export interface UploadOutcome {
  path: string;
  error?: BackendErrorCode;
}

export interface DownloadOutcome {
  path: string;
  content?: Uint8Array;
  error?: BackendErrorCode;
}

export type Outcome<T> = T | BackendError;

/** Storage for an agent's files. See the module comment for the error contract. */
export interface BackendProtocol {
  /** Direct children of a directory (non-recursive), sorted by path. */
  ls(path: string): Promise<Outcome<FileInfo[]>>;
  /** Lines `[offset, offset + limit)` of a text file. An empty file gives zero lines. */
  read(path: string, offset?: number, limit?: number): Promise<Outcome<ReadSlice>>;
  /** Creates a missing file or replaces an existing one entirely (deepagentsjs #674); a directory gives `is_directory`. */
  write(path: string, content: string): Promise<Outcome<{ path: string }>>;
  /** Replaces `oldString`; it must occur exactly once unless `replaceAll`. */
  edit(path: string, oldString: string, newString: string, replaceAll?: boolean): Promise<Outcome<EditOutcome>>;
  /** Literal (not regex) search of file contents under `path`, optionally filtered by a glob. */
  grep(pattern: string, path?: string, glob?: string): Promise<Outcome<GrepMatch[]>>;
  /** Files whose path, relative to `path`, matches the glob (`*`, `**`, `?`, `[...]`, `{a,b}`). */
  glob(pattern: string, path?: string): Promise<Outcome<FileInfo[]>>;
  /**
   * Removes a file, or a directory and every file below it (deepagentsjs 1.13), as one atomic unit: all of
   * them or, on an error or a refusal, none. A path with nothing there gives `file_not_found`. Optional: a
   * backend without it has no `delete` tool.
   */
  delete?(path: string, options?: DeleteOptions): Promise<Outcome<{ path: string }>>;
  /** Stores raw bytes; overwrites. One outcome per file, in order. */
  uploadFiles?(files: Array<{ path: string; content: Uint8Array }>): Promise<UploadOutcome[]>;
  /** Raw bytes of files. One outcome per path, in order. */
  downloadFiles?(paths: string[]): Promise<DownloadOutcome[]>;
}

/** What a caller may pass to `delete`. */
export interface DeleteOptions {
  /**
   * Called inside the delete's unit with every file it would remove (sorted); an error it returns refuses the
   * whole delete and nothing is removed (permission rules use it, so a denied file inside a directory keeps
   * the directory whole, even against a file added meanwhile).
   */
  readonly refuse?: (paths: readonly string[]) => BackendError | undefined;
}

/** What a caller may pass to `execute` besides the command and timeout. */
export interface ExecuteOptions {
  /** Receives the output as it arrives (a sandbox that cannot stream calls it once, at the end). */
  onOutput?: (chunk: string) => void;
}

/** A backend that can also run shell commands. */
export interface SandboxBackendProtocol extends BackendProtocol {
  /** Stable id of the sandbox instance. */
  readonly id: string;
  /**
   * Runs a command. Never throws for a failing command: a non-zero exit is a
   * value. `timeout` is in seconds (a sandbox caps it at its maximum); on
   * expiry the command is stopped and the result has `exitCode: null`.
   * It throws only when the run is aborted or storage stops working.
   */
  execute(command: string, timeout?: number, options?: ExecuteOptions): Promise<ExecuteResult>;
}

export function canExecute(backend: BackendProtocol): backend is SandboxBackendProtocol {
  return typeof (backend as Partial<SandboxBackendProtocol>).execute === "function";
}

/** File content as kept by state- and IndexedDB-backed backends. */
export interface FileData {
  /** Text, or base64 when `encoding` is "base64" (binary uploads). */
  content: string;
  encoding: "utf-8" | "base64";
  createdAt: string;
  modifiedAt: string;
}

/**
 * The `files` channel update: a path mapped to its new data, or to `null`,
 * an explicit delete marker that survives merging (a child's delete reaches
 * the parent).
 */
export type FilesUpdate = Record<string, FileData | null>;
