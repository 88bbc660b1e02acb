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
 * O(pattern × path) steps, whatever the pattern (a segment with at most one
 * `*`, which cannot backtrack badly, uses a native regex for speed). A
 * differential test checks that picomatch and this agree on ordinary
 * patterns.
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

/**
 * Wildcard matching without backtracking: the tokens are fixed-width pieces
 * separated by wildcards (`*` within a segment, `**` over segments), and a
 * wildcard may consume any run of items. The first piece is anchored at the
 * start, the last at the end, and every middle piece is placed at its
 * leftmost fit (for wildcards that match anything, the leftmost placement is
 * never worse than another). O(pieces × items) comparisons, whatever the
 * pattern.
 */
const piecesCache = new WeakMap<readonly unknown[], unknown[][]>();

function wildcardMatch<T, I>(
  tokens: readonly T[],
  items: readonly I[],
  isWild: (t: T) => boolean,
  fits: (t: T, item: I) => boolean,
): boolean {
  let pieces = piecesCache.get(tokens) as T[][] | undefined;
  if (!pieces) {
    pieces = [[]];
    for (const t of tokens) {
      if (isWild(t)) pieces.push([]);
      else pieces.at(-1)!.push(t);
    }
    piecesCache.set(tokens, pieces);
  }
  const at = (piece: readonly T[], start: number) => piece.every((t, k) => fits(t, items[start + k]!));
  if (pieces.length === 1) return items.length === pieces[0]!.length && at(pieces[0]!, 0);
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  if (items.length < first.length + last.length || !at(first, 0) || !at(last, items.length - last.length)) return false;
  let pos = first.length;
  const end = items.length - last.length;
  for (let p = 1; p < pieces.length - 1; p++) {
    const piece = pieces[p]!;
    let found = -1;
    for (let start = pos; start + piece.length <= end; start++) {
      if (at(piece, start)) {
        found = start;
        break;
      }
    }
    if (found < 0) return false;
    pos = found + piece.length;
  }
  return true;
}

function atomFits(atom: Atom, ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  switch (atom.t) {
    case "lit":
      return atom.c === ch;
    case "any":
    case "star":
      return true;
    case "class": {
      const inside = atom.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
      return atom.negated ? !inside : inside;
    }
  }
}

const regexCache = new WeakMap<readonly Atom[], RegExp | null>();

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function classChar(cp: number): string {
  return "\\u{" + cp.toString(16) + "}";
}

/**
 * A native regular expression for a segment with at most one `*`: with a
 * single unbounded quantifier a regex cannot backtrack badly (O(atoms ×
 * chars)), and it is faster than the general matcher. Null for the others.
 */
function segmentRegex(atoms: readonly Atom[]): RegExp | null {
  const hit = regexCache.get(atoms);
  if (hit !== undefined) return hit;
  let re: RegExp | null = null;
  if (atoms.filter((a) => a.t === "star").length <= 1) {
    const body = atoms.map((a) => {
      if (a.t === "star") return ".*";
      if (a.t === "any") return ".";
      if (a.t === "lit") return a.c.replace(REGEX_SPECIAL, "\\$&");
      const ranges = a.ranges.map(([lo, hi]) => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`)).join("");
      return `[${a.negated ? "^" : ""}${ranges}]`;
    });
    re = new RegExp(`^${body.join("")}$`, "su");
  }
  regexCache.set(atoms, re);
  return re;
}

/** One segment's atoms against one path segment. */
function segmentMatches(atoms: readonly Atom[], text: string): boolean {
  const re = segmentRegex(atoms);
  if (re) return re.test(text);
  return wildcardMatch(atoms, Array.from(text), (a) => a.t === "star", atomFits);
}

/** A segment list against path segments; `**` spans any number of them. */
function segmentsMatch(segments: readonly Segment[], parts: readonly string[]): boolean {
  return wildcardMatch(
    segments,
    parts,
    (s) => s.t === "globstar",
    (s, part) => s.t === "seg" && segmentMatches(s.atoms, part),
  );
}

/** Does `relativePath` (no leading slash) match the compiled glob? */
export function matchCompiled(glob: CompiledGlob, relativePath: string): boolean {
  const basename = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  let parts: string[] | undefined;
  for (const segs of glob.alternatives) {
    // A basename pattern, or `**/x`: only the last segment decides (the common case, without a split).
    if (glob.basename || (segs.length === 2 && segs[0]!.t === "globstar")) {
      const last = segs.at(-1)!;
      if (basename && (last.t === "globstar" || segmentMatches(last.atoms, basename))) return true;
      continue;
    }
    parts ??= relativePath.split("/").filter(Boolean);
    if (segmentsMatch(segs, parts)) return true;
  }
  return false;
}
