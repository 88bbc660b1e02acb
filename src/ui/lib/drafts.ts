/**
 * The composer's unsent text, per thread, in this tab's sessionStorage: a
 * reload (the user's, or the one that makes the page cross-origin isolated)
 * keeps it; closing the tab drops it. Attached files are not kept. Storage
 * that refuses (full, disabled) loses nothing on screen: the text stays in
 * the box.
 */

/** sessionStorage's key for a thread's draft. */
export const draftKey = (threadId: string): string => `deeptab:draft:${threadId}`;

export interface Drafts {
  get(threadId: string): string;
  /** Keeps `text` as the thread's draft; empty text removes it. */
  set(threadId: string, text: string): void;
}

export function sessionDrafts(storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined = globalStorage()): Drafts {
  return {
    get(threadId) {
      try {
        return storage?.getItem(draftKey(threadId)) ?? "";
      } catch {
        return "";
      }
    },
    set(threadId, text) {
      try {
        if (text) storage?.setItem(draftKey(threadId), text);
        else storage?.removeItem(draftKey(threadId));
      } catch {
        // Full or refused: the text is still in the box.
      }
    },
  };
}

function globalStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // Access denied (e.g. storage blocked for the site).
  }
}
