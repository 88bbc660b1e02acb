/**
 * The expected-failure values every file backend returns, in deepagents'
 * wording, and the edit step of {@link FileBackend}.
 */
import { applyEdit, fileTooLarge, MAX_FILE_WRITE_BYTES, newFileData, utf8Length } from "./file-ops.ts";
import { backendError, isBackendError, type BackendError, type FileData } from "./protocol.ts";

export function notFound(path: string): BackendError {
  return backendError("file_not_found", `Error: File '${path}' not found`);
}

export function isDirectoryError(path: string): BackendError {
  return backendError("is_directory", `Error: '${path}' is a directory, not a file`);
}

export function directoryNotFound(path: string): BackendError {
  return backendError("file_not_found", `Error: Directory '${path}' not found`);
}

export function fileAncestorError(path: string, file: string): BackendError {
  return backendError("invalid_path", `Error: Cannot create '${path}': '${file}' is a file, not a directory.`);
}

/** A new file's content, or the error when it is over {@link MAX_FILE_WRITE_BYTES}. */
export function checkedNewContent(path: string, content: string): BackendError | undefined {
  // Cheap bound first: at most 3 bytes per UTF-16 unit.
  if (content.length * 3 <= MAX_FILE_WRITE_BYTES) return undefined;
  const bytes = utf8Length(content);
  return bytes > MAX_FILE_WRITE_BYTES ? fileTooLarge(path, bytes) : undefined;
}

/** The file after an edit (timestamps kept right), or why it cannot be edited. */
export function editedFileData(
  path: string,
  data: FileData,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  now: string,
): { data: FileData; occurrences: number } | BackendError {
  if (data.encoding === "base64") return backendError("invalid_argument", `Error: File '${path}' is a binary file and cannot be edited.`);
  const edited = applyEdit(data.content, oldString, newString, replaceAll, path);
  if (isBackendError(edited)) return edited;
  return { data: newFileData(edited.content, now, data.createdAt), occurrences: edited.occurrences };
}
