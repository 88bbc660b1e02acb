/**
 * A dropped or picked agent, as the worker takes it (AgentUpload): a folder's files with paths relative to the folder
 * (a picked folder's own name is dropped), one `.zip`, or one `.json` bundle. Sizes are checked from the files'
 * metadata before a byte is read, so a 200 MB file is refused without being read into memory; what passes is read
 * once and transferred to the worker.
 */
import { err, fail, ok, type Result } from "../../core/result.ts";
import { AGENT_UPLOAD_LIMITS, type AgentUpload } from "../../protocol/agents.ts";
import type { AgentError } from "../../protocol/errors.ts";
import { formatBytes } from "../shared/errors.ts";

/** What was chosen, before it is read: a folder's files (folder paths) or one archive. */
export type AgentPick = { folder: Array<{ path: string; file: File }> } | { archive: File; kind: "zip" | "bundle" };

type Checked<T> = Result<T, AgentError>;

const NOTHING_KEPT = "Nothing was read or stored.";

function tooLarge(message: string): Checked<never> {
  return fail("too_large", `${message} ${NOTHING_KEPT}`, "AgentUploadError");
}

function notAnAgent(message: string): Checked<never> {
  return err({ name: "AgentUploadError", code: "invalid_agent", message, problems: [] });
}

/** A single file: a zip of an agent folder or a JSON bundle, by its name (the worker checks the content). */
function archiveKind(file: File): "zip" | "bundle" | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith(".zip")) return "zip";
  if (name.endsWith(".json")) return "bundle";
  return undefined;
}

/**
 * What a picker or a drop chose. `files` come with their paths: a picked folder's `webkitRelativePath`
 * (`my-agent/AGENTS.md`, the first segment is the folder), a dropped folder's walk, or a bare name.
 */
export function pickFrom(files: ReadonlyArray<{ path: string; file: File }>, folderPicked: boolean): Checked<AgentPick> {
  if (files.length === 0) return notAnAgent("Nothing was chosen: pick an agent folder, a .zip of one, or a deeptab .json bundle.");
  const only = files.length === 1 ? files[0]! : undefined;
  if (only && !folderPicked && !only.path.includes("/")) {
    const kind = archiveKind(only.file);
    if (!kind) {
      return notAnAgent(`“${only.file.name}” is not an agent: open a folder, a .zip of one, or a deeptab .json bundle.`);
    }
    return ok({ archive: only.file, kind });
  }
  const top = new Set(files.map((f) => f.path.split("/")[0]));
  const strip = folderPicked || (top.size === 1 && files.every((f) => f.path.includes("/")));
  return ok({ folder: files.map((f) => ({ path: strip ? f.path.slice(f.path.indexOf("/") + 1) : f.path, file: f.file })) });
}

/** Refuses a pick over the limits from its sizes alone. */
export function checkSize(
  pick: AgentPick,
  limits: Readonly<Record<keyof typeof AGENT_UPLOAD_LIMITS, number>> = AGENT_UPLOAD_LIMITS,
): Checked<AgentPick> {
  if ("archive" in pick) {
    const size = pick.archive.size;
    if (size > limits.archiveBytes) {
      return tooLarge(
        `“${pick.archive.name}” is ${formatBytes(size)}; an agent's zip or bundle may be at most ${formatBytes(limits.archiveBytes)}.`,
      );
    }
    return ok(pick);
  }
  if (pick.folder.length > limits.files) {
    const count = pick.folder.length.toLocaleString("en-US");
    return tooLarge(`The folder has ${count} files or more; an agent may have at most ${limits.files.toLocaleString("en-US")}.`);
  }
  const total = pick.folder.reduce((n, f) => n + f.file.size, 0);
  if (total > limits.folderBytes) {
    return tooLarge(`The folder holds ${formatBytes(total)}; an agent may hold at most ${formatBytes(limits.folderBytes)}.`);
  }
  return ok(pick);
}

/** Reads a checked pick into the upload the worker validates. */
export async function readPick(pick: AgentPick): Promise<AgentUpload> {
  if ("archive" in pick) {
    const bytes = new Uint8Array(await pick.archive.arrayBuffer());
    return pick.kind === "zip" ? { zip: bytes } : { bundle: bytes };
  }
  const files = await Promise.all(pick.folder.map(async (f) => ({ path: f.path, content: new Uint8Array(await f.file.arrayBuffer()) })));
  return { files };
}

/** A picker's files with their paths (`webkitRelativePath` for a folder picker, else the name). */
export function pickedFiles(list: FileList | readonly File[]): Array<{ path: string; file: File }> {
  return Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/**
 * A drop's files with their paths, folders walked (`FileSystemEntry`); the walk stops once there are more files than
 * an agent may have, so a drop of a huge folder is refused without listing all of it.
 */
export async function droppedFiles(data: DataTransfer, max = AGENT_UPLOAD_LIMITS.files): Promise<Array<{ path: string; file: File }>> {
  const entries = Array.from(data.items)
    .filter((item) => item.kind === "file")
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.some((e) => e === null)) return pickedFiles(data.files);
  const out: Array<{ path: string; file: File }> = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (out.length > max) return;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      out.push({ path, file });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0 || out.length > max) return;
      for (const child of batch) await walk(child, path);
    }
  };
  for (const entry of entries) await walk(entry!, "");
  return out;
}
