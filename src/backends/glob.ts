/**
 * Glob patterns, matched in O(path × pattern) steps whatever the pattern.
 *
 * Syntax and meaning follow picomatch (with `dot: true`): `*` any run of
 * characters within a path segment, `**` as a whole segment any number of
 * segments (zero included; elsewhere it acts like `*`), `?` one character,
 * `[abc]` / `[a-z]` / `[!abc]` / `[^abc]` classes, `{a,b}` alternatives
 * (nestable; `{x}` without a comma is literal), `\` escapes. A pattern
 * picomatch cannot compile (`[z-a]`, an unclosed `{`) is a {@link GlobError}
 * value here, found by this parser (picomatch itself is not loaded: it cost
 * the worker's startup 8 KB gzip to validate what the parser checks anyway).
 *
 * Why matching is not picomatch's: picomatch compiles to a backtracking
 * regular expression, and a hostile pattern such as `**a**a**a**a**a**b`
 * takes seconds per path (measured: 16 s against one 120-character path),
 * synchronously, so an abort cannot stop it. Expanding `{a,b}` into its
 * alternatives and trying each is no better: `{a,b}` eight times is 256
 * alternatives, each as long as the pattern (measured: 17 s over 5,000
 * paths). Here the whole pattern, alternatives included, is one automaton
 * (glob-automaton.ts) run over the path without backtracking. A differential
 * test checks that picomatch and this agree on ordinary patterns.
 */
import { GlobAutomaton, type GlobItem } from "./glob-automaton.ts";

/** Alternatives a pattern may expand to through `{…}` before it is refused. */
const MAX_GLOB_ALTERNATIVES = 256;
/** Longest pattern accepted, in characters. */
const MAX_GLOB_LENGTH = 1_000;

export interface GlobError {
  readonly error: "invalid_argument";
  readonly message: string;
}

/** A compiled glob. */
export interface CompiledGlob {
  readonly pattern: string;
  /** Pattern without a slash, matched against the last segment only (ripgrep `--glob` style). */
  readonly basename: boolean;
  /** Undefined for a pattern of slashes only, which matches the search root itself. */
  readonly automaton: GlobAutomaton | undefined;
}

function invalid(pattern: string, why: string): GlobError {
  return { error: "invalid_argument", message: `Error: invalid glob pattern '${pattern}': ${why}` };
}

/** Index of the `]` closing the class opened at `open`, or -1 when there is none. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "!" || pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]") return i;
    else if (pattern[i] === "/") return -1;
  }
  return -1;
}

function parseClass(body: string): { negated: boolean; ranges: Array<[number, number]> } | string {
  let i = 0;
  let negated = false;
  if (body[0] === "!" || body[0] === "^") {
    negated = true;
    i = 1;
  }
  const chars: number[] = [];
  for (; i < body.length; i++) {
    if (body[i] === "\\" && i + 1 < body.length) i++;
    chars.push(body.codePointAt(i)!);
    if (body.codePointAt(i)! > 0xffff) i++;
  }
  const ranges: Array<[number, number]> = [];
  for (let k = 0; k < chars.length; k++) {
    const lo = chars[k]!;
    if (k + 2 < chars.length && chars[k + 1] === 0x2d) {
      const hi = chars[k + 2]!;
      if (hi < lo) return `range out of order in [${body}]`;
      ranges.push([lo, hi]);
      k += 2;
    } else ranges.push([lo, lo]);
  }
  return { negated, ranges };
}

const SLASH: GlobItem = { t: "char", m: { t: "slash" } };

function literal(cp: number): GlobItem {
  return { t: "char", m: { t: "lit", cp } };
}

/**
 * The brace opened at `open`: the index of its `}` and its body split at its
 * top-level commas (escapes and classes skipped); undefined when it is not closed.
 */
function braceAt(text: string, open: number): { end: number; parts: string[] } | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "[") {
      const end = classEnd(text, i);
      if (end > i) i = end;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      parts.push(text.slice(start, i));
      return { end: i, parts };
    } else if (c === "," && depth === 1) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** Parses a pattern (or a brace alternative) into items; a string is what is wrong with it. */
export function parseItems(text: string): GlobItem[] | string {
  const items: GlobItem[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text.codePointAt(i + 1);
      if (next === undefined) items.push(literal(0x5c));
      else {
        items.push(next === 0x2f ? SLASH : literal(next));
        i += next > 0xffff ? 2 : 1;
      }
    } else if (c === "*") {
      let end = i;
      while (text[end + 1] === "*") end++;
      // Exactly two: `***` is a plain star in picomatch.
      items.push({ t: "star", double: end === i + 1 });
      i = end;
    } else if (c === "?") items.push({ t: "char", m: { t: "any" } });
    else if (c === "/") items.push(SLASH);
    else if (c === "[") {
      const end = classEnd(text, i);
      if (end < 0) items.push(literal(0x5b));
      else {
        const cls = parseClass(text.slice(i + 1, end));
        if (typeof cls === "string") return cls;
        items.push({ t: "char", m: { t: "class", ...cls } });
        i = end;
      }
    } else if (c === "{") {
      const brace = braceAt(text, i);
      if (!brace) return "unclosed '{'";
      const alts: GlobItem[][] = [];
      for (const part of brace.parts) {
        const parsed = parseItems(part);
        if (typeof parsed === "string") return parsed;
        alts.push(parsed);
      }
      // `{x}` without a comma is literal in picomatch: the braces are characters.
      if (alts.length === 1) items.push(literal(0x7b), ...alts[0]!, literal(0x7d));
      else items.push({ t: "alt", alts });
      i = brace.end;
    } else {
      const cp = text.codePointAt(i)!;
      items.push(literal(cp));
      if (cp > 0xffff) i++;
    }
  }
  return items;
}

/** How many patterns `{…}` expansion would make of `items` (capped just above the limit). */
function alternativeCount(items: readonly GlobItem[]): number {
  let n = 1;
  for (const item of items) {
    if (item.t !== "alt") continue;
    let sum = 0;
    for (const alt of item.alts) sum = Math.min(sum + alternativeCount(alt), MAX_GLOB_ALTERNATIVES + 1);
    n = Math.min(n * sum, MAX_GLOB_ALTERNATIVES + 1);
  }
  return n;
}

const compiled = new Map<string, CompiledGlob | GlobError>();

/**
 * Compiles a pattern (cached). `basename`: a pattern without a slash matches
 * a path's last segment (`*.md` finds `a/b/c.md`); otherwise patterns are
 * anchored at the search root. A leading `/` is ignored.
 */
export function compileGlob(raw: string, basename = false): CompiledGlob | GlobError {
  const key = (basename ? "b:" : "a:") + raw;
  const hit = compiled.get(key);
  if (hit) return hit;
  const result = compileUncached(raw, basename);
  if (compiled.size > 500) compiled.clear();
  compiled.set(key, result);
  return result;
}

function compileUncached(raw: string, basename: boolean): CompiledGlob | GlobError {
  if (typeof raw !== "string") return invalid(String(raw), "the pattern must be a string");
  if (raw.length === 0) return invalid(raw, "the pattern is empty");
  if (raw.length > MAX_GLOB_LENGTH) return invalid(raw.slice(0, 40) + "…", `the pattern is longer than ${MAX_GLOB_LENGTH} characters`);
  const pattern = raw.replace(/^\/+/, "");
  const items = parseItems(pattern);
  if (typeof items === "string") return invalid(raw, items);
  if (alternativeCount(items) > MAX_GLOB_ALTERNATIVES) return invalid(raw, `more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
  const automaton = /^\/*$/.test(pattern) ? undefined : new GlobAutomaton(items);
  return { pattern: raw, basename: basename && !pattern.includes("/"), automaton };
}

export function isGlobError(value: unknown): value is GlobError {
  return typeof value === "object" && value !== null && (value as GlobError).error === "invalid_argument" && "message" in value;
}

/** Does `relativePath` (no leading slash) match the compiled glob? */
export function matchCompiled(glob: CompiledGlob, relativePath: string): boolean {
  if (!glob.automaton) return !/[^/]/.test(relativePath);
  if (!glob.basename) return glob.automaton.matches(relativePath);
  const basename = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  return basename !== "" && glob.automaton.matches(basename);
}
