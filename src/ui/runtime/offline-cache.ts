/**
 * The contract between the service worker (scripts/vite/shell/sw.ts) and the app about what it keeps for offline use:
 * the cache names, and the parts a person sees in Settings › Offline files. The worker precaches the app shell on
 * install (one cache per build) and caches every other file of the build the first time it is fetched (one cache for
 * all builds, pruned to the current build's files when a new worker activates). Pure.
 */

/** The prefix of the app shell's cache; the build hash follows (`deeptab-shell-<hash>`). */
export const SHELL_CACHE_PREFIX = "deeptab-shell-";

/** The cache of files fetched on first use (llama.cpp, Pyodide, code loaded when a feature is first used). */
export const PARTS_CACHE = "deeptab-parts";

/** A part of the app as Settings names it: the big downloads by name, then the rest. */
export type CachePart = "shell" | "llama" | "python" | "quickjs" | "shell-interpreter" | "code" | "agents";

/** What each part is, in a few words. */
export const PART_LABELS: Readonly<Record<CachePart, string>> = {
  shell: "App (opens offline)",
  llama: "llama.cpp (in-tab models)",
  python: "Python (Pyodide)",
  quickjs: "JavaScript sandbox (QuickJS)",
  "shell-interpreter": "Shell commands",
  agents: "Site agents",
  code: "Other features' code",
};

/** The part a cached file belongs to, from its path relative to the app's folder (`assets/…`). */
export function partOf(path: string): Exclude<CachePart, "shell"> {
  if (path.startsWith("assets/pyodide/")) return "python";
  if (/(^|\/)(chat-)?wllama[^/]*$/.test(path)) return "llama";
  if (/(^|\/)(emscripten-module|module-(ES6|asyncify)|ffi)[^/]*$/.test(path)) return "quickjs";
  if (/(^|\/)shell\.worker[^/]*$/.test(path)) return "shell-interpreter";
  if (path.startsWith("agents/")) return "agents";
  return "code";
}

/** One cached file: its path relative to the app's folder and its size. */
export interface CachedFile {
  readonly path: string;
  readonly bytes: number;
}

/** A part's cached files, counted. */
export interface PartSummary {
  readonly part: CachePart;
  readonly label: string;
  readonly files: number;
  readonly bytes: number;
}

/** The parts of the on-demand cache, largest first; the app shell's files as one part ahead of them. */
export function summarizeCache(shell: readonly CachedFile[], parts: readonly CachedFile[]): PartSummary[] {
  const byPart = new Map<CachePart, { files: number; bytes: number }>();
  for (const file of parts) {
    const part = partOf(file.path);
    const sum = byPart.get(part) ?? { files: 0, bytes: 0 };
    byPart.set(part, { files: sum.files + 1, bytes: sum.bytes + file.bytes });
  }
  const rest = [...byPart].map(([part, sum]) => ({ part, label: PART_LABELS[part], ...sum })).sort((a, b) => b.bytes - a.bytes);
  const app = shell.length
    ? [{ part: "shell" as const, label: PART_LABELS.shell, files: shell.length, bytes: shell.reduce((n, f) => n + f.bytes, 0) }]
    : [];
  return [...app, ...rest];
}
