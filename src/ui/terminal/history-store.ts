/**
 * The person's terminal history across a reload: the commands (never their output) kept per thread in
 * sessionStorage, the newest {@link KEPT_HISTORY} of them, and read back when the thread's terminal opens. The parsing
 * and the cut are pure; a storage that refuses (a private window, a full quota) leaves the history to this page.
 */

/** How many commands a thread's history keeps across a reload (the newest). */
export const KEPT_HISTORY = 200;

/** The sessionStorage key of a thread's history. */
export function historyKey(threadId: string): string {
  return `deeptab.terminal.history.${threadId}`;
}

/** What is stored: the newest {@link KEPT_HISTORY} commands as a JSON array. */
export function serializeHistory(history: readonly string[]): string {
  return JSON.stringify(history.slice(-KEPT_HISTORY));
}

/** A stored history read back: the commands of a JSON array of strings (anything else is no history), bounded. */
export function parseHistory(raw: string | null): string[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.filter((c): c is string => typeof c === "string" && c.trim() !== "").slice(-KEPT_HISTORY);
}

/** A thread's kept history (empty when none is kept, or storage refuses). */
export function loadHistory(storage: Pick<Storage, "getItem">, threadId: string): string[] {
  try {
    return parseHistory(storage.getItem(historyKey(threadId)));
  } catch {
    return [];
  }
}

/** Keeps a thread's history (the commands only); a storage that refuses keeps nothing. */
export function saveHistory(storage: Pick<Storage, "setItem">, threadId: string, history: readonly string[]): void {
  try {
    storage.setItem(historyKey(threadId), serializeHistory(history));
  } catch {
    // Refused (a private window, the quota): the history holds for this page only.
  }
}
