// A fast non-cryptographic hash, pure: the checkpoint saver (storage/) and the eviction middleware share it.

/**
 * 53-bit hash of `bytes` (cyrb53). Not cryptographic: it only separates
 * versions of one message id, or messages without an id, within one thread.
 * Synchronous on purpose: `crypto.subtle` is async (and missing outside
 * secure contexts), and the saver hashes before opening its transaction.
 */
export function hash53(bytes: Uint8Array, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i]!;
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
