/**
 * A glob pattern as one automaton over the characters of a whole path, run
 * without backtracking and without expanding `{a,b}` alternatives: matching
 * costs O(path × pattern) steps in the worst case, whatever the pattern.
 *
 * The parsed pattern (a sequence of matchers, stars and brace alternatives)
 * becomes a Thompson NFA whose alternatives share their continuation, so its
 * size is linear in the pattern. Paths are fed with every segment followed
 * by `/` (`a/b` is read as `a/b/`) and the pattern gets the same trailing
 * `/`, so a globstar is always followed by a slash it can absorb.
 *
 * Segment rules (those of picomatch and of brace expansion before it):
 * - `*` and `?` and classes never match `/`;
 * - `**` is a globstar when it is a whole segment: it
 *   comes right after a `/` (or the start) and right before a `/`; then it
 *   matches zero or more whole segments, slash included (`a/**\/b` matches
 *   `a/b`); elsewhere it acts like `*`;
 * - an empty pattern segment (`a//b`, a leading `/`) matches nothing: the
 *   slash after a slash is skipped.
 *
 * The state sets met while matching are kept as a lazily built DFA (each set
 * and its transitions computed once per compiled pattern, then looked up),
 * bounded in size: past the bound the cache starts again, so memory stays
 * bounded and the worst case is the plain NFA simulation.
 */

/** What one path character must be. */
export type CharMatcher =
  | { t: "lit"; cp: number }
  | { t: "any" }
  | { t: "class"; negated: boolean; ranges: ReadonlyArray<readonly [number, number]> }
  | { t: "slash" };

/** A parsed pattern: a sequence of items. */
export type GlobItem =
  | { t: "char"; m: CharMatcher }
  /** `double`: `**` (a globstar where it is a whole segment). */
  | { t: "star"; double: boolean }
  | { t: "alt"; alts: GlobItem[][] };

type Node =
  | { t: "char"; m: CharMatcher; out: number }
  | { t: "star"; double: boolean; out: number }
  | { t: "split"; outs: number[] }
  | { t: "accept" };

interface DState {
  readonly states: Int32Array;
  readonly accept: boolean;
  /** No state and not accepting: no continuation can match. */
  readonly dead: boolean;
  /** Transitions on ASCII code points, by index; others in `wide`. */
  readonly ascii: Array<DState | undefined>;
  readonly wide: Map<number, DState>;
}

const SLASH = 0x2f;
/** Cached DFA size per pattern (transitions plus NFA states held) before the cache starts again. */
const CACHE_LIMIT = 200_000;

function fits(m: CharMatcher, cp: number): boolean {
  switch (m.t) {
    case "lit":
      return m.cp === cp;
    case "slash":
      return cp === SLASH;
    case "any":
      return cp !== SLASH;
    case "class": {
      if (cp === SLASH) return false;
      let inside = false;
      for (const [lo, hi] of m.ranges) {
        if (cp >= lo && cp <= hi) {
          inside = true;
          break;
        }
      }
      return m.negated ? !inside : inside;
    }
  }
}

/** Work kinds on the closure stack. */
const CLOSE = 0;
const CLOSE_AFTER_SLASH = 1;
const ABSORB = 2;

export class GlobAutomaton {
  readonly #nodes: Node[] = [];
  readonly #root: number;
  /** Per-step marks (compared with #gen, so they never need clearing). */
  readonly #seenClose: Uint32Array;
  readonly #seenAbsorb: Uint32Array;
  readonly #seenState: Uint32Array;
  #gen = 0;
  #found: number[] = [];
  #accept = false;
  readonly #stack: number[] = [];
  #interned = new Map<string, DState>();
  #cached = 0;
  #start: DState | undefined;

  constructor(items: readonly GlobItem[]) {
    const accept = this.#push({ t: "accept" });
    this.#root = this.#build([...items, { t: "char", m: { t: "slash" } }], accept);
    const n = this.#nodes.length;
    this.#seenClose = new Uint32Array(2 * n);
    this.#seenAbsorb = new Uint32Array(n);
    // State ids: a char or star node's own index; n + i and 2n + i are globstar i at a segment start / inside a segment.
    this.#seenState = new Uint32Array(3 * n);
  }

  #push(node: Node): number {
    this.#nodes.push(node);
    return this.#nodes.length - 1;
  }

  /** Builds `items` before `next` (alternatives share it); returns the entry node. */
  #build(items: readonly GlobItem[], next: number): number {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.t === "char") next = this.#push({ t: "char", m: item.m, out: next });
      else if (item.t === "star") next = this.#push({ t: "star", double: item.double, out: next });
      else {
        const join = next;
        next = this.#push({ t: "split", outs: item.alts.map((alt) => this.#build(alt, join)) });
      }
    }
    return next;
  }

  /** Does the path (segments joined by `/`; empty segments are ignored) match? */
  matches(path: string): boolean {
    let d = this.#start ?? this.#begin();
    let atBoundary = true;
    let fed = false;
    for (let i = 0; i < path.length; i++) {
      let cp = path.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < path.length) {
        const low = path.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      if (cp === SLASH && atBoundary) continue;
      d = (cp < 128 ? d.ascii[cp] : d.wide.get(cp)) ?? this.#next(d, cp);
      if (d.dead) return false;
      atBoundary = cp === SLASH;
      fed = true;
    }
    // The empty path has no segment at all (so `*` does not match it, `**` does).
    if (fed && !atBoundary) d = this.#next(d, SLASH);
    return d.accept;
  }

  #begin(): DState {
    this.#reset();
    this.#enqueue(CLOSE_AFTER_SLASH, this.#root);
    this.#drain();
    this.#start = this.#intern();
    return this.#start;
  }

  #next(d: DState, cp: number): DState {
    const hit = cp < 128 ? d.ascii[cp] : d.wide.get(cp);
    if (hit) return hit;
    if (this.#cached > CACHE_LIMIT) {
      // Start the cache again; `d` itself stays valid for this match.
      this.#interned = new Map();
      this.#cached = 0;
      this.#start = undefined;
    }
    const n = this.#nodes.length;
    const slash = cp === SLASH;
    this.#reset();
    for (const s of d.states) {
      if (s < n) {
        const node = this.#nodes[s]!;
        if (node.t === "char") {
          if (fits(node.m, cp)) this.#enqueue(slash ? CLOSE_AFTER_SLASH : CLOSE, node.out);
        } else if (!slash) this.#enqueue(CLOSE, s); // a star goes on (and may stop) after a non-slash
      } else {
        const g = s < 2 * n ? s - n : s - 2 * n;
        if (slash) this.#globstarAtBoundary(g);
        else this.#addState(2 * n + g);
      }
    }
    this.#drain();
    const target = this.#intern();
    if (cp < 128) d.ascii[cp] = target;
    else d.wide.set(cp, target);
    this.#cached++;
    return target;
  }

  #reset(): void {
    this.#gen++;
    if (this.#gen === 0xffffffff) {
      this.#seenClose.fill(0);
      this.#seenAbsorb.fill(0);
      this.#seenState.fill(0);
      this.#gen = 1;
    }
    this.#found = [];
    this.#accept = false;
  }

  #enqueue(kind: number, node: number): void {
    this.#stack.push(kind, node);
  }

  #addState(s: number): boolean {
    if (this.#seenState[s] === this.#gen) return false;
    this.#seenState[s] = this.#gen;
    this.#found.push(s);
    return true;
  }

  /** Globstar `g` at a segment boundary: it may go on, or stop by absorbing the slash that follows it. */
  #globstarAtBoundary(g: number): void {
    if (this.#addState(this.#nodes.length + g)) this.#enqueue(ABSORB, (this.#nodes[g] as { out: number }).out);
  }

  /**
   * Follows the empty moves from the queued nodes. CLOSE_AFTER_SLASH: the
   * last character fed was a slash (or none was), so the pattern is at a
   * segment start. ABSORB: after a globstar that stops, skip the next slash.
   */
  #drain(): void {
    const stack = this.#stack;
    const nodes = this.#nodes;
    while (stack.length) {
      const node = stack.pop()!;
      const kind = stack.pop()!;
      const item = nodes[node]!;
      if (kind === ABSORB) {
        if (this.#seenAbsorb[node] === this.#gen) continue;
        this.#seenAbsorb[node] = this.#gen;
        if (item.t === "char") {
          if (item.m.t === "slash") this.#enqueue(CLOSE_AFTER_SLASH, item.out);
        } else if (item.t === "split") for (const out of item.outs) this.#enqueue(ABSORB, out);
        else if (item.t === "star") this.#enqueue(ABSORB, item.out);
        continue;
      }
      const atStart = kind === CLOSE_AFTER_SLASH;
      const key = 2 * node + (atStart ? 1 : 0);
      if (this.#seenClose[key] === this.#gen) continue;
      this.#seenClose[key] = this.#gen;
      switch (item.t) {
        case "accept":
          this.#accept = true;
          break;
        case "char":
          // A slash right after a slash is an empty pattern segment: skipped.
          if (atStart && item.m.t === "slash") this.#enqueue(CLOSE_AFTER_SLASH, item.out);
          else this.#addState(node);
          break;
        case "split":
          for (const out of item.outs) this.#enqueue(kind, out);
          break;
        case "star":
          this.#addState(node);
          this.#enqueue(CLOSE, item.out);
          if (item.double && atStart) this.#globstarAtBoundary(node);
          break;
      }
    }
  }

  #intern(): DState {
    const states = Int32Array.from(this.#found).sort();
    const key = `${states.join(",")}${this.#accept ? "!" : ""}`;
    const hit = this.#interned.get(key);
    if (hit) return hit;
    const dead = states.length === 0 && !this.#accept;
    const d: DState = { states, accept: this.#accept, dead, ascii: [], wide: new Map() };
    this.#interned.set(key, d);
    this.#cached += states.length + 1;
    return d;
  }
}
