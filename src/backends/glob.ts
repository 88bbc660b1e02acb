/**
 * Glob patterns, matched in time linear in the path (for a given pattern).
 *
 * Syntax and meaning follow picomatch (with `dot: true`): `*` any run of
 * characters within a path segment, `**` as a whole segment any number of
 * segments (zero included; elsewhere it acts like `*`), `?` one character,
 * `[abc]` / `[a-z]` / `[!abc]` / `[^abc]` classes, `{a,b}` alternatives
 * (nestable), `\` escapes. picomatch also validates every pattern: one it
 * cannot compile (`[z-a]`, an unclosed `{`) is a {@link GlobError} value.
 *
 * Why matching is not picomatch's: picomatch compiles to a backtracking
 * regular expression, and a hostile pattern such as `**a**a**a**a**a**b`
 * takes seconds per path (measured: 16 s against one 120-character path),
 * synchronously, so an abort cannot stop it. Here a pattern is compiled to a
 * list of segment automata and matched by simulating all states at once:
 * O(pattern × path) steps, whatever the pattern. A differential test checks
 * that the two agree on ordinary patterns.
 */
import picomatch from "picomatch/posix.js";

/** Alternatives a pattern may expand to through `{…}` before it is refused. */
export const MAX_GLOB_ALTERNATIVES = 256;
/** Longest pattern accepted, in characters. */
export const MAX_GLOB_LENGTH = 1_000;

export interface GlobError {
  readonly error: "invalid_argument";
  readonly message: string;
}

type Atom = { t: "lit"; c: string } | { t: "any" } | { t: "class"; negated: boolean; ranges: Array<[number, number]> } | { t: "star" };

/** One path segment's pattern, or `**` (any number of segments). */
type Segment = { t: "globstar" } | { t: "seg"; atoms: Atom[] };

/** A compiled glob: one segment list per brace alternative. */
export interface CompiledGlob {
  readonly pattern: string;
  readonly alternatives: readonly (readonly Segment[])[];
  /** Pattern without a slash, matched against the last segment only (ripgrep `--glob` style). */
  readonly basename: boolean;
}

function invalid(pattern: string, why: string): GlobError {
  return { error: "invalid_argument", message: `Error: invalid glob pattern '${pattern}': ${why}` };
}

/** Expands `{a,b}` alternatives (nested), honouring `\` escapes. */
function expandBraces(pattern: string): string[] | string {
  const close = (from: number): number => {
    let depth = 0;
    for (let i = from; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === "\\") i++;
      else if (c === "[") {
        const end = classEnd(pattern, i);
        if (end > i) i = end;
      } else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) return i;
    }
    return -1;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") {
      const end = classEnd(pattern, i);
      if (end > i) i = end;
      continue;
    }
    if (c !== "{") continue;
    const end = close(i);
    if (end < 0) return "unclosed '{'";
    const body = pattern.slice(i + 1, end);
    const parts: string[] = [];
    let depth = 0;
    let start = 0;
    for (let k = 0; k < body.length; k++) {
      const b = body[k];
      if (b === "\\") k++;
      else if (b === "{") depth++;
      else if (b === "}") depth--;
      else if (b === "," && depth === 0) {
        parts.push(body.slice(start, k));
        start = k + 1;
      }
    }
    parts.push(body.slice(start));
    if (parts.length === 1) {
      // `{x}` without a comma is literal in picomatch; keep it, escaped.
      const rest = expandBraces(pattern.slice(end + 1));
      if (typeof rest === "string") return rest;
      const head = pattern.slice(0, i) + "\\{" + body + "\\}";
      return rest.map((r) => head + r);
    }
    const prefix = pattern.slice(0, i);
    const out: string[] = [];
    for (const part of parts) {
      const expanded = expandBraces(prefix + part + pattern.slice(end + 1));
      if (typeof expanded === "string") return expanded;
      out.push(...expanded);
      if (out.length > MAX_GLOB_ALTERNATIVES) return `more than ${MAX_GLOB_ALTERNATIVES} alternatives`;
    }
    return out;
  }
  return [pattern];
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

function parseSegment(text: string): Segment | string {
  if (text === "**") return { t: "globstar" };
  const atoms: Atom[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text.codePointAt(i + 1);
      if (next === undefined) atoms.push({ t: "lit", c: "\\" });
      else {
        const ch = String.fromCodePoint(next);
        atoms.push({ t: "lit", c: ch });
        i += ch.length;
      }
    } else if (c === "*") {
      if (atoms.at(-1)?.t !== "star") atoms.push({ t: "star" });
    } else if (c === "?") atoms.push({ t: "any" });
    else if (c === "[") {
      const end = classEnd(text, i);
      if (end < 0) atoms.push({ t: "lit", c: "[" });
      else {
        const cls = parseClass(text.slice(i + 1, end));
        if (typeof cls === "string") return cls;
        atoms.push({ t: "class", ...cls });
        i = end;
      }
    } else {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      atoms.push({ t: "lit", c: ch });
      i += ch.length - 1;
    }
  }
  return { t: "seg", atoms };
}

/** Splits at `/` outside classes. */
function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") {
      const end = classEnd(pattern, i);
      if (end > i) i = end;
    } else if (c === "/") {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out.filter((s) => s !== "");
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
  try {
    picomatch.makeRe(pattern || "**", { dot: true, debug: true });
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, "") : String(err);
    return invalid(raw, why.toLowerCase());
  }
  const expanded = expandBraces(pattern);
  if (typeof expanded === "string") return invalid(raw, expanded);
  const alternatives: Segment[][] = [];
  for (const alt of expanded) {
    const segments: Segment[] = [];
    for (const text of splitSegments(alt)) {
      const seg = parseSegment(text);
      if (typeof seg === "string") return invalid(raw, seg);
      // Consecutive globstars mean the same as one.
      if (seg.t === "globstar" && segments.at(-1)?.t === "globstar") continue;
      segments.push(seg);
    }
    alternatives.push(segments);
  }
  return { pattern: raw, alternatives, basename: basename && !pattern.includes("/") };
}

export function isGlobError(value: unknown): value is GlobError {
  return typeof value === "object" && value !== null && (value as GlobError).error === "invalid_argument" && "message" in value;
}

function atomMatches(atom: Atom, cp: number): boolean {
  switch (atom.t) {
    case "lit":
      return atom.c.codePointAt(0) === cp;
    case "any":
      return true;
    case "star":
      return true;
    case "class": {
      const inside = atom.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
      return atom.negated ? !inside : inside;
    }
  }
}

/**
 * Runs a pattern of tokens over an input by simulating every state at once
 * (an NFA), in O(tokens × input) steps. A repeating token (`*`, `**`) may
 * consume any number of items, none included. States are bits of a number
 * while they fit (patterns of up to 30 tokens), else a byte array.
 */
function simulate<T, I>(
  tokens: readonly T[],
  input: Iterable<I>,
  repeats: (t: T) => boolean,
  accepts: (t: T, item: I) => boolean,
): boolean {
  const n = tokens.length;
  if (n > 30) return simulateWide(tokens, input, repeats, accepts);
  let loops = 0;
  for (let i = 0; i < n; i++) if (repeats(tokens[i]!)) loops |= 1 << i;
  // A repeating token's state also reaches the next one (it may match nothing).
  const close = (set: number) => {
    for (let i = 0; i < n; i++) if (set & loops & (1 << i)) set |= 1 << (i + 1);
    return set;
  };
  let states = close(1);
  for (const item of input) {
    let next = 0;
    for (let i = 0; i < n; i++) {
      if (!(states & (1 << i)) || !accepts(tokens[i]!, item)) continue;
      next |= loops & (1 << i) ? 1 << i : 1 << (i + 1);
    }
    if (next === 0) return false;
    states = close(next);
  }
  return (states & (1 << n)) !== 0;
}

function simulateWide<T, I>(
  tokens: readonly T[],
  input: Iterable<I>,
  repeats: (t: T) => boolean,
  accepts: (t: T, item: I) => boolean,
): boolean {
  const n = tokens.length;
  const close = (set: Uint8Array) => {
    for (let i = 0; i < n; i++) if (set[i] && repeats(tokens[i]!)) set[i + 1] = 1;
  };
  let states = new Uint8Array(n + 1);
  states[0] = 1;
  close(states);
  for (const item of input) {
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i < n; i++) {
      const token = tokens[i]!;
      if (!states[i] || !accepts(token, item)) continue;
      next[repeats(token) ? i : i + 1] = 1;
      any = true;
    }
    if (!any) return false;
    close(next);
    states = next;
  }
  return states[n] === 1;
}

/** One segment's atoms against one path segment, character by character. */
function segmentMatches(atoms: readonly Atom[], text: string): boolean {
  return simulate(
    atoms,
    text,
    (a) => a.t === "star",
    (a, ch) => atomMatches(a, ch.codePointAt(0)!),
  );
}

/** A segment list against path segments; `**` spans any number of them. */
function segmentsMatch(segments: readonly Segment[], parts: readonly string[]): boolean {
  return simulate(
    segments,
    parts,
    (s) => s.t === "globstar",
    (s, part) => s.t === "globstar" || segmentMatches(s.atoms, part),
  );
}

/** Does `relativePath` (no leading slash) match the compiled glob? */
export function matchCompiled(glob: CompiledGlob, relativePath: string): boolean {
  const parts = relativePath.split("/").filter(Boolean);
  if (glob.basename) {
    const last = parts.at(-1);
    return last !== undefined && glob.alternatives.some((segs) => segmentsMatch(segs, [last]));
  }
  return glob.alternatives.some((segs) => segmentsMatch(segs, parts));
}
