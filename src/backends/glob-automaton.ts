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
 * bounded in size: past the bound the cache starts again. A pattern whose
 * state sets keep being new (`*a` then a hundred `?`: a DFA would need 2^100
 * states) stops being cached and is simulated on bitsets instead, where the
 * long runs of plain characters move together by one shift: a step costs
 * O(pattern / 32) plus the states around stars and alternatives.
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
/**
 * DFA states made for one pattern before it is only simulated: ordinary
 * patterns need a few dozen; past this, the pattern's state sets are too
 * many to be worth remembering (each new one costs more than a step).
 */
const DFA_STATE_BUDGET = 500;

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
  /** The states reached by the current step. */
  readonly #found: Int32Array;
  #foundLen = 0;
  #accept = false;
  readonly #stack: number[] = [];
  #interned = new Map<string, DState>();
  #cached = 0;
  #created = 0;
  /** Set once the DFA keeps growing (a pattern such as `*a??????…`): then steps are simulated, never cached. */
  #simulate = false;
  #start: DState | undefined;
  /** Bitset-mode data: state sets, the plain character nodes, the states taking each code point. */
  readonly #bitsA: Uint32Array;
  readonly #bitsB: Uint32Array;
  readonly #plain: Uint32Array;
  readonly #fits = new Map<number, Uint32Array>();
  readonly #fitsAscii: Array<Uint32Array | undefined> = [];
  readonly #successors = new Map<number, { bits: Uint32Array; accept: boolean }>();

  readonly #dfaStateBudget: number;
  /** The `**` nodes, in slot order, and each node's slot (-1 for others). */
  readonly #globstars: number[] = [];
  readonly #globstarSlot: Int32Array;

  /** `dfaStateBudget`: DFA states made before only simulating (tests pass 0 to check the simulation). */
  constructor(items: readonly GlobItem[], dfaStateBudget = DFA_STATE_BUDGET) {
    this.#dfaStateBudget = dfaStateBudget;
    const accept = this.#push({ t: "accept" });
    this.#root = this.#build([...items, { t: "char", m: { t: "slash" } }], accept);
    const n = this.#nodes.length;
    this.#seenClose = new Uint32Array(2 * n);
    this.#seenAbsorb = new Uint32Array(n);
    // State ids: a char or star node's own index; then two per `**` node (at a segment start, inside a segment).
    this.#globstarSlot = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const node = this.#nodes[i]!;
      if (node.t === "star" && node.double) {
        this.#globstarSlot[i] = this.#globstars.length;
        this.#globstars.push(i);
      }
    }
    const states = n + 2 * this.#globstars.length;
    this.#seenState = new Uint32Array(states);
    this.#found = new Int32Array(states);
    const words = Math.ceil(states / 32);
    this.#bitsA = new Uint32Array(words);
    this.#bitsB = new Uint32Array(words);
    this.#plain = new Uint32Array(words);
    for (let i = 1; i < n; i++) {
      const node = this.#nodes[i]!;
      const after = this.#nodes[i - 1]!;
      // Stepping on from node i reaches exactly node i - 1, whatever was fed.
      if (node.t === "char" && node.out === i - 1 && after.t === "char" && after.m.t !== "slash") this.#plain[i >>> 5]! |= 1 << (i & 31);
    }
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
    const start = this.#start ?? this.#begin();
    if (this.#simulate) return this.#simulated(path, start);
    let d = start;
    let atBoundary = true;
    let fed = false;
    for (let i = 0; i < path.length; i++) {
      // A surrogate pair is one code point (a lone surrogate stands for itself).
      const cp = path.codePointAt(i)!;
      if (cp > 0xffff) i++;
      if (cp === SLASH && atBoundary) continue;
      d = (cp < 128 ? d.ascii[cp] : d.wide.get(cp)) ?? this.#next(d, cp);
      if (d.dead) return false;
      atBoundary = cp === SLASH;
      fed = true;
      // The DFA outgrew its budget mid-path: go on simulating from where it stands.
      if (this.#simulate) return this.#simulated(path.slice(i + 1), d, atBoundary, fed);
    }
    // The empty path has no segment at all (so `*` does not match it, `**` does).
    if (fed && !atBoundary) d = this.#next(d, SLASH);
    return d.accept;
  }

  /**
   * The same walk as {@link matches}, one NFA step per character from `from`,
   * nothing cached. The state set is a bitset: a character node followed by
   * a plain character node (most of a long pattern) moves by a shift of the
   * whole set, so a step costs O(pattern / 32) plus the few other states.
   */
  #simulated(path: string, from: DState, atBoundary = true, fed = false): boolean {
    let cur = this.#bitsA;
    let next = this.#bitsB;
    cur.fill(0);
    for (const st of from.states) cur[st >>> 5]! |= 1 << (st & 31);
    let accept = from.accept;
    for (let i = 0; i <= path.length; i++) {
      let cp: number;
      if (i === path.length) {
        // The empty path has no segment at all (so `*` does not match it, `**` does).
        if (!fed || atBoundary) break;
        cp = SLASH;
      } else {
        cp = path.codePointAt(i)!;
        if (cp > 0xffff) i++;
        if (cp === SLASH && atBoundary) continue;
      }
      accept = this.#bitStep(cur, next, cp);
      const swap = cur;
      cur = next;
      next = swap;
      if (!accept && this.#empty(cur)) return false;
      atBoundary = cp === SLASH;
      fed = true;
    }
    return accept;
  }

  #empty(bits: Uint32Array): boolean {
    for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) return false;
    return true;
  }

  /** One character from the bitset `cur` into `next`; returns whether `next` accepts. */
  #bitStep(cur: Uint32Array, next: Uint32Array, cp: number): boolean {
    const fitting = this.#fitting(cp);
    const plain = this.#plain;
    next.fill(0);
    // Plain character nodes: node i goes on to node i - 1, one bit down.
    let carry = 0;
    for (let w = cur.length - 1; w >= 0; w--) {
      const moved = cur[w]! & fitting[w]! & plain[w]!;
      next[w] = (moved >>> 1) | carry;
      carry = (moved & 1) << 31;
    }
    // The other states step one by one, each to its (cached) successor set.
    const slash = cp === SLASH;
    let accept = false;
    for (let w = 0; w < cur.length; w++) {
      let rest = cur[w]! & fitting[w]! & ~plain[w]!;
      while (rest !== 0) {
        const low = rest & -rest;
        rest ^= low;
        const succ = this.#successor(w * 32 + 31 - Math.clz32(low), slash);
        for (let k = 0; k < next.length; k++) next[k]! |= succ.bits[k]!;
        accept ||= succ.accept;
      }
    }
    return accept;
  }

  /** Where state `st` goes on a character it takes (a slash or not), as a bitset; computed once. */
  #successor(st: number, slash: boolean): { bits: Uint32Array; accept: boolean } {
    const key = 2 * st + (slash ? 1 : 0);
    const hit = this.#successors.get(key);
    if (hit) return hit;
    const n = this.#nodes.length;
    this.#reset();
    if (st < n) {
      const node = this.#nodes[st]!;
      if (node.t === "char") this.#enqueue(slash ? CLOSE_AFTER_SLASH : CLOSE, node.out);
      else if (!slash) this.#enqueue(CLOSE, st);
    } else {
      const g = this.#globstarOf(st);
      if (slash) this.#globstarAtBoundary(g);
      else this.#addState(this.#inSegment(g));
    }
    this.#drain();
    const bits = new Uint32Array(this.#plain.length);
    for (let k = 0; k < this.#foundLen; k++) {
      const found = this.#found[k]!;
      bits[found >>> 5]! |= 1 << (found & 31);
    }
    const succ = { bits, accept: this.#accept };
    this.#successors.set(key, succ);
    return succ;
  }

  /** The states that can take `cp` (a star never takes a slash; a globstar state takes anything), as a bitset. */
  #fitting(cp: number): Uint32Array {
    const hit = cp < 128 ? this.#fitsAscii[cp] : this.#fits.get(cp);
    if (hit) return hit;
    const n = this.#nodes.length;
    const mask = new Uint32Array(this.#plain.length);
    for (let i = 0; i < n; i++) {
      const node = this.#nodes[i]!;
      const takes = node.t === "char" ? fits(node.m, cp) : node.t === "star" && cp !== SLASH;
      if (takes) mask[i >>> 5]! |= 1 << (i & 31);
      if (node.t === "star" && node.double) {
        for (const st of [this.#atBoundary(i), this.#inSegment(i)]) mask[st >>> 5]! |= 1 << (st & 31);
      }
    }
    if (cp < 128) this.#fitsAscii[cp] = mask;
    else {
      if (this.#fits.size >= 256) this.#fits.clear();
      this.#fits.set(cp, mask);
    }
    return mask;
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
    this.#step(d.states, d.states.length, cp);
    const target = this.#intern();
    if (cp < 128) d.ascii[cp] = target;
    else d.wide.set(cp, target);
    this.#cached++;
    return target;
  }

  /** One character from `states[0..count)`: the states reached go to #found / #foundLen, with #accept. */
  #step(states: Int32Array, count: number, cp: number): void {
    const n = this.#nodes.length;
    const slash = cp === SLASH;
    this.#reset();
    for (let k = 0; k < count; k++) {
      const s = states[k]!;
      if (s < n) {
        const node = this.#nodes[s]!;
        if (node.t === "char") {
          if (fits(node.m, cp)) this.#enqueue(slash ? CLOSE_AFTER_SLASH : CLOSE, node.out);
        } else if (!slash) this.#enqueue(CLOSE, s); // a star goes on (and may stop) after a non-slash
      } else {
        const g = this.#globstarOf(s);
        if (slash) this.#globstarAtBoundary(g);
        else this.#addState(this.#inSegment(g));
      }
    }
    this.#drain();
  }

  #reset(): void {
    this.#gen++;
    if (this.#gen === 0xffffffff) {
      this.#seenClose.fill(0);
      this.#seenAbsorb.fill(0);
      this.#seenState.fill(0);
      this.#gen = 1;
    }
    this.#foundLen = 0;
    this.#accept = false;
  }

  #enqueue(kind: number, node: number): void {
    this.#stack.push(kind, node);
  }

  #addState(s: number): boolean {
    if (this.#seenState[s] === this.#gen) return false;
    this.#seenState[s] = this.#gen;
    this.#found[this.#foundLen++] = s;
    return true;
  }

  /** The state of `**` node `g` at a segment start. */
  #atBoundary(g: number): number {
    return this.#nodes.length + 2 * this.#globstarSlot[g]!;
  }

  /** The state of `**` node `g` inside a segment. */
  #inSegment(g: number): number {
    return this.#nodes.length + 2 * this.#globstarSlot[g]! + 1;
  }

  /** The `**` node of a globstar state. */
  #globstarOf(st: number): number {
    return this.#globstars[(st - this.#nodes.length) >>> 1]!;
  }

  /** Globstar `g` at a segment boundary: it may go on, or stop by absorbing the slash that follows it. */
  #globstarAtBoundary(g: number): void {
    if (this.#addState(this.#atBoundary(g))) this.#enqueue(ABSORB, (this.#nodes[g] as { out: number }).out);
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
    const states = this.#found.slice(0, this.#foundLen).sort();
    const key = `${states.join(",")}${this.#accept ? "!" : ""}`;
    const hit = this.#interned.get(key);
    if (hit) return hit;
    const dead = states.length === 0 && !this.#accept;
    const d: DState = { states, accept: this.#accept, dead, ascii: [], wide: new Map() };
    this.#interned.set(key, d);
    this.#cached += states.length + 1;
    if (++this.#created > this.#dfaStateBudget) this.#simulate = true;
    return d;
  }
}
