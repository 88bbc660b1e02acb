/**
 * The composer's unsent text, per thread, in this tab's sessionStorage: a
 * reload (the user's, or the one that makes the page cross-origin isolated)
 * keeps it; closing the tab drops it. Attached files are not kept. Storage
 * that refuses (full, disabled) loses nothing on screen: the text stays in
 * the box.
 */

/** sessionStorage's key for a thread's draft. */
export const draftKey = (threadId: string): string => `deeptab:draft:${threadId}`;
/** sessionStorage's key for a thread's message sent and not yet stored by the worker. */
export const sentKey = (threadId: string): string => `deeptab:sent:${threadId}`;

export interface Drafts {
  get(threadId: string): string;
  /** Keeps `text` as the thread's draft; empty text removes it. */
  set(threadId: string, text: string): void;
  /**
   * The message sent on the thread that the worker had not stored yet when it was last kept (a reload in between
   * cut the send short), or "".
   */
  sent(threadId: string): string;
  /** Keeps `text` as the thread's message sent and not yet stored; empty text removes it. */
  setSent(threadId: string, text: string): void;
}

export function sessionDrafts(storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined = globalStorage()): Drafts {
  const get = (key: string) => {
    try {
      return storage?.getItem(key) ?? "";
    } catch {
      return "";
    }
  };
  const set = (key: string, text: string) => {
    try {
      if (text) storage?.setItem(key, text);
      else storage?.removeItem(key);
    } catch {
      // Full or refused: the text is still in the box.
    }
  };
  return {
    get: (threadId) => get(draftKey(threadId)),
    set: (threadId, text) => set(draftKey(threadId), text),
    sent: (threadId) => get(sentKey(threadId)),
    setSent: (threadId, text) => set(sentKey(threadId), text),
  };
}

function globalStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // Access denied (e.g. storage blocked for the site).
  }
}
