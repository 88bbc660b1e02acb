/**
 * The files panel's model as pure functions: the tree of a thread's files
 * grouped by where they live (workspace, memories, skills, offloaded
 * results, history, uploads), path checks for the "New file" form, the
 * memory and skill templates, and size formatting. No DOM.
 */
import type { FileEntry } from "../../protocol/files.ts";

export interface TreeFile {
  kind: "file";
  /** The last path segment. */
  name: string;
  path: string;
  size: number;
  modifiedAt?: string;
}

export interface TreeFolder {
  kind: "folder";
  name: string;
  /** The folder's path with a trailing slash ("/src/"); its expansion key. */
  path: string;
  children: TreeNode[];
  /** Files below it (any depth) and their total size. */
  files: number;
  size: number;
}

export type TreeNode = TreeFile | TreeFolder;

/** A top-level folder of the panel: the workspace or one of the special routes. */
export interface FileGroup {
  /** The route prefix ("/" for the workspace, "/memories/" …); also its expansion key. */
  prefix: string;
  label: string;
  /** One line about what lives there. */
  hint: string;
  nodes: TreeNode[];
  files: number;
  size: number;
}

interface GroupSpec {
  prefix: string;
  label: string;
  hint: string;
  /** Shown even when empty (a place the user creates files in). */
  always: boolean;
  /** Expanded until the user folds it. */
  open: boolean;
}

/** The groups in the order the panel shows them. The workspace takes every path the others do not. */
const GROUPS: readonly GroupSpec[] = [
  { prefix: "/", label: "Workspace", hint: "This thread's files", always: true, open: true },
  { prefix: "/uploads/", label: "Uploads", hint: "Files you attached", always: false, open: true },
  {
    prefix: "/memories/",
    label: "Memories",
    hint: "Shared by every thread; /memories/AGENTS.md is read on every step",
    always: true,
    open: true,
  },
  {
    prefix: "/skills/",
    label: "Skills",
    hint: "Shared by every thread: <name>/SKILL.md, listed to the agent from its next step",
    always: true,
    open: true,
  },
  { prefix: "/large_tool_results/", label: "Large tool results", hint: "Tool results too big for the context", always: false, open: false },
  { prefix: "/conversation_history/", label: "Conversation history", hint: "Messages that were summarized", always: false, open: false },
];

/** The group prefix a path belongs to. */
function groupOf(path: string): string {
  return GROUPS.find((g) => g.prefix !== "/" && path.startsWith(g.prefix))?.prefix ?? "/";
}

/** Whether a group or folder key is expanded before the user toggles it. */
export function expandedByDefault(key: string): boolean {
  return GROUPS.find((g) => g.prefix === key)?.open ?? false;
}

interface Draft {
  folders: Map<string, Draft>;
  files: TreeFile[];
  path: string;
  name: string;
}

function draft(path: string, name: string): Draft {
  return { folders: new Map(), files: [], path, name };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function finish(d: Draft): { nodes: TreeNode[]; files: number; size: number } {
  const folders: TreeFolder[] = [...d.folders.values()].map((f) => {
    const done = finish(f);
    return { kind: "folder", name: f.name, path: f.path, children: done.nodes, files: done.files, size: done.size };
  });
  folders.sort(byName);
  const files = [...d.files].sort(byName);
  return {
    nodes: [...folders, ...files],
    files: files.length + folders.reduce((n, f) => n + f.files, 0),
    size: files.reduce((n, f) => n + f.size, 0) + folders.reduce((n, f) => n + f.size, 0),
  };
}

/** The panel's groups: files (folders are implied by paths) as a sorted tree under their route; empty optional groups left out. */
export function buildGroups(entries: readonly FileEntry[]): FileGroup[] {
  const roots = new Map(GROUPS.map((g) => [g.prefix, draft(g.prefix, g.label)]));
  for (const entry of entries) {
    if (entry.isDir || !entry.path.startsWith("/")) continue;
    const prefix = groupOf(entry.path);
    const parts = entry.path.slice(prefix.length).split("/");
    const name = parts.pop() ?? "";
    if (!name) continue;
    let dir = roots.get(prefix)!;
    for (const part of parts) {
      if (!part) continue;
      let next = dir.folders.get(part);
      if (!next) {
        next = draft(`${dir.path}${part}/`, part);
        dir.folders.set(part, next);
      }
      dir = next;
    }
    dir.files.push({
      kind: "file",
      name,
      path: entry.path,
      size: entry.size,
      ...(entry.modifiedAt ? { modifiedAt: entry.modifiedAt } : {}),
    });
  }
  const groups: FileGroup[] = [];
  for (const spec of GROUPS) {
    const done = finish(roots.get(spec.prefix)!);
    if (!done.files && !spec.always) continue;
    groups.push({ prefix: spec.prefix, label: spec.label, hint: spec.hint, ...done });
  }
  return groups;
}

/** The keys (group prefix and folder paths) to expand so that `path` is visible. */
export function ancestorsOf(path: string): string[] {
  const prefix = groupOf(path);
  const keys = [prefix];
  const parts = path.slice(prefix.length).split("/").slice(0, -1);
  let at = prefix;
  for (const part of parts) {
    if (!part) continue;
    at = `${at}${part}/`;
    keys.push(at);
  }
  return keys;
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1) || "file";
}

/** Why `path` cannot be a new file's path, or undefined when it can. */
export function pathProblem(path: string): string | undefined {
  if (!path.trim()) return "Enter a path, e.g. /notes.md.";
  if (!path.startsWith("/")) return "The path must be absolute (start with /).";
  if (path.length > 4096) return "The path is too long (at most 4,096 characters).";
  if (path.endsWith("/")) return "The path must end with a file name, not /.";
  if (path.includes("\\")) return "Use / to separate folders, not \\.";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return "The path contains a control character.";
  const segments = path.slice(1).split("/");
  if (segments.some((s) => s === "..")) return "The path must not contain .. segments.";
  if (segments.some((s) => s === ".")) return "The path must not contain . segments.";
  if (segments.some((s) => s === "")) return "The path has an empty folder name (//).";
  if (segments.some((s) => s === "~" || s.startsWith("~"))) return "The path must not start a segment with ~.";
  return undefined;
}

/** The memory file the agent reads on every step. */
export const MEMORY_PATH = "/memories/AGENTS.md";

export const MEMORY_TEMPLATE = `# Memory

Notes the agent reads on every step, in every thread: who you are, how you like
things done, facts about your projects.

- 
`;

/** Agent Skills names: lowercase letters, digits and single hyphens, at most 64 characters. */
const SKILL_NAME = /^[\p{Ll}\p{Nd}]+(?:-[\p{Ll}\p{Nd}]+)*$/u;

/** Why `name` cannot name a skill, or undefined. */
export function skillNameProblem(name: string): string | undefined {
  if (!name) return "Enter a name, e.g. write-tests.";
  if (name.length > 64) return "The name is too long (at most 64 characters).";
  if (!SKILL_NAME.test(name)) return "Use lowercase letters, digits and single hyphens (e.g. write-tests).";
  return undefined;
}

export function skillPath(name: string): string {
  return `/skills/${name}/SKILL.md`;
}

/** A SKILL.md to fill in: YAML frontmatter (name matches its folder) and a body. */
export function skillTemplate(name: string): string {
  return `---
name: ${name}
description: <what it does and when to use it>
---

# ${name}

Steps the agent follows when this skill applies:

1. 
`;
}

/** "0 B", "512 B", "1.5 KB", "2.3 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("en-US", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/** "12.5 KB" for the binary notice (always in KB). */
export function formatKB(bytes: number): string {
  const kb = bytes > 0 ? Math.max(0.1, bytes / 1024) : 0;
  return `${kb.toLocaleString("en-US", { maximumFractionDigits: 1 })} KB`;
}

/** Whether a file is Markdown (the viewer offers a preview). */
export function isMarkdown(path: string): boolean {
  return /\.(md|markdown|mdx)$/i.test(path);
}
