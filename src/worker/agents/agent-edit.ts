/**
 * Editing an agent's folder in the app, the pure part: the folder as the editor shows it (text files as text, others
 * by size), an edit's changes applied to a copy of the folder (the loader then validates the whole of it), and the name
 * an edited version shows ("Research (edited)" while agent.yaml keeps the name it had).
 */
import type { AgentFiles } from "../../agent-folders/file-map.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { AgentFileChange, AgentFolderView } from "../../protocol/agents.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The folder's files as the editor lists them, in the folder's order. */
export function editorFiles(files: AgentFiles): AgentFolderView["files"] {
  return [...files].map(([path, bytes]) => {
    try {
      return { path, size: bytes.length, text: utf8.decode(bytes) };
    } catch {
      return { path, size: bytes.length };
    }
  });
}

/**
 * The folder with the changes made, as entries for the loader (which checks every path and the whole folder); an
 * error names a removed path the folder does not have. Later changes to one path win.
 */
export function applyAgentChanges(files: AgentFiles, changes: readonly AgentFileChange[]): Result<Array<[string, Uint8Array]>, string> {
  const next = new Map(files);
  for (const change of changes) {
    if ("remove" in change) {
      if (!next.delete(change.path)) return err(`The agent has no file ${change.path} to remove.`);
    } else next.set(change.path, encoder.encode(change.text));
  }
  return ok([...next]);
}

/** The name an edit shows: its own, with " (edited)" while it is the name of the agent it was edited from. */
export function editedName(name: string, editedFrom: { name: string } | undefined): string {
  return editedFrom && editedFrom.name === name ? `${name} (edited)` : name;
}
