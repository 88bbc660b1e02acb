/** IndexedDB that refuses to open, as in a browser that denies this site storage. */
import { onTestFinished, vi } from "vitest";

/**
 * Replaces the global `indexedDB` for the running test with a factory whose
 * `open()` throws `error` (by default the SecurityError DOMException a browser
 * throws when storage is denied); the real one is back when the test ends.
 */
export function refuseIndexedDB(
  error: unknown = new DOMException("The user denied permission to access the database.", "SecurityError"),
): void {
  const refusing: Pick<IDBFactory, "open"> = {
    open: () => {
      throw error;
    },
  };
  vi.stubGlobal("indexedDB", refusing);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
}
