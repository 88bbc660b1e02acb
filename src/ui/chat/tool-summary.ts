/**
 * One-line summaries of tool calls (deepagents style: the path, the pattern,
 * the command …) and human durations, for tool cards. Pure; no DOM.
 */
import { TOOL } from "../../core/tool-names.ts";

/**
 * The state of a tool call as a tool card shows it: `stopped` by the user, `cancelled` cut off by a reload;
 * `rejected` and `responded` are a person's decisions at an approval (the tool did not run; its result is their
 * reason or answer).
 */
export type ToolStatus = "running" | "done" | "error" | "cancelled" | "stopped" | "waiting" | "rejected" | "responded";

/** `text` on one line (whitespace runs collapsed) and at most `max` characters, with "…" when cut. */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…` : flat;
}

function str(args: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string" && value.trim()) return value;
  }
  return undefined;
}

/** The first line of `text`, marked with "…" when more lines follow, cut at `max`. */
function firstLine(text: string, max: number): string {
  const trimmed = text.trim();
  const nl = trimmed.indexOf("\n");
  if (nl < 0) return oneLine(trimmed, max);
  const head = oneLine(trimmed.slice(0, nl), max);
  return head.endsWith("…") ? head : oneLine(`${head} …`, max);
}

/** `pattern`, then " in path" and " (glob)" when given. */
function withScope(pattern: string, path: string | undefined, glob?: string): string {
  let out = pattern;
  if (path) out += ` in ${path}`;
  if (glob) out += ` (${glob})`;
  return out;
}

/**
 * A one-line summary of a tool call's arguments:
 * - read_file / write_file / edit_file / ls: the path (`file_path` or `path`)
 * - glob: the pattern (+ " in path"); grep: the pattern (+ " in path", " (glob)")
 * - execute: the command's first line
 * - task: "subagent_type: description"
 * - write_todos: "N todos"
 * - anything else: its first non-empty string argument
 * Always one line, at most 80 characters ("" when there is nothing to show).
 */
export function summarizeArgs(name: string, args: Record<string, unknown> | undefined): string {
  const a = args && typeof args === "object" ? args : {};
  switch (name) {
    case TOOL.read_file:
    case TOOL.write_file:
    case TOOL.edit_file:
    case TOOL.ls:
      return oneLine(str(a, "file_path", "path") ?? "");
    case TOOL.glob: {
      const pattern = str(a, "pattern");
      return pattern ? oneLine(withScope(pattern, str(a, "path"))) : "";
    }
    case TOOL.grep: {
      const pattern = str(a, "pattern");
      return pattern ? oneLine(withScope(pattern, str(a, "path"), str(a, "glob"))) : "";
    }
    case TOOL.execute: {
      const command = str(a, "command");
      return command ? firstLine(command, 80) : "";
    }
    case TOOL.task: {
      const type = str(a, "subagent_type");
      const description = str(a, "description") ?? "";
      return oneLine(type ? `${type}: ${description}`.trimEnd() : description);
    }
    case TOOL.write_todos: {
      const n = Array.isArray(a.todos) ? a.todos.length : 0;
      return `${n} ${n === 1 ? "todo" : "todos"}`;
    }
    default: {
      const first = Object.values(a).find((v): v is string => typeof v === "string" && v.trim() !== "");
      return first ? oneLine(first) : "";
    }
  }
}

/**
 * A duration for people: "40 ms" under 0.1 s, "0.4 s" / "9.5 s" under 10 s,
 * "12 s" under a minute, "2 min 5 s" under an hour, then "1 h 3 min".
 * "" for a negative or non-finite value.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (Math.round(ms) < 100) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 100) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const s = seconds % 60;
    return s ? `${minutes} min ${s} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${hours} h ${m} min` : `${hours} h`;
}

/**
 * The line an error card shows while collapsed: a JSON error's message (fetch_url's
 * `{ "error": "Fetch URL error: …" }`), else the text's first line; at most 300 characters.
 */
export function errorPreview(result: string): string {
  const text = result.trim();
  if (text.startsWith("{")) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "object" && value !== null) {
        const { error, message } = value as Record<string, unknown>;
        const said =
          typeof error === "string" && error.trim() ? error : typeof message === "string" && message.trim() ? message : undefined;
        if (said) return oneLine(said, 300);
      }
    } catch {
      // Not JSON after all: its first line, as any text.
    }
  }
  return (text.split("\n", 1)[0] ?? "").slice(0, 300);
}
