/**
 * The one seeded random generator of tests and benchmarks (mulberry32: small, fast, and good enough for test
 * data): the same seed gives the same sequence on every run and in every runtime, so a failure replays.
 */

/** A generator of floats in [0, 1) from `seed` (an integer; only its low 32 bits count). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, picked with `random`. */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A string of `length` characters, each picked from `alphabet` with `random`. */
export function randomString(random: () => number, alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
}
