/**
 * The bound for `vi.waitFor` in tests: the state a test waits on (a lazily loaded highlighter, a real worker's answer,
 * IndexedDB) can take seconds on a loaded 2-core CI machine, and `vi.waitFor`'s default is 1 s. A test that never
 * reaches its state still fails, after this bound. (`expect.element` and `expect.poll` get the same bound from the
 * browser project's config.)
 */
export const WAIT = { timeout: 30_000, interval: 50 } as const;
