/**
 * Where a remembered LangGraph server key is kept: this site's IndexedDB (as the worker keeps a remembered provider
 * key), never `localStorage` and never the DOM, with the origin it was entered for. The page keeps it itself because
 * the page's LangGraph client (page/langgraph-client.ts) sends it; the worker never hands a key back out.
 */
import { openDB } from "idb";

/** A server key and the origin (scheme, host and port) of the server URL it was entered with. */
export interface BoundServerKey {
  key: string;
  origin: string;
}

/** The port a {@link RuntimeState} keeps its remembered key through. */
export interface ServerKeyStore {
  /** The remembered key, if any (undefined also when storage is refused). */
  get(): Promise<BoundServerKey | undefined>;
  put(value: BoundServerKey): Promise<void>;
  delete(): Promise<void>;
}

const STORE = "keys";
const ID = "langgraph";

/** The store in IndexedDB database `name`; a refused IndexedDB (storage blocked) keeps nothing. */
export function indexedDbServerKeyStore(name = "deeptab-server-key"): ServerKeyStore {
  let db: ReturnType<typeof openDB> | undefined;
  const open = () => (db ??= openDB(name, 1, { upgrade: (d) => void d.createObjectStore(STORE) }));
  return {
    async get() {
      try {
        const value = (await (await open()).get(STORE, ID)) as Partial<BoundServerKey> | undefined;
        return typeof value?.key === "string" && typeof value.origin === "string" ? { key: value.key, origin: value.origin } : undefined;
      } catch {
        return undefined;
      }
    },
    async put(value) {
      await (await open()).put(STORE, { ...value }, ID);
    },
    async delete() {
      await (await open()).delete(STORE, ID);
    },
  };
}
