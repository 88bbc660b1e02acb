/** Storage faults injected into IndexedDB (fake-indexeddb in Node, the real one in Chromium), the way a full disk fails. */
import { onTestFinished } from "vitest";
import { ALL_STORES } from "../storage/schema.ts";

/**
 * Makes `IDBObjectStore.prototype.put` throw a QuotaExceededError while
 * `when(store, value)` is true for the record being put (its object store's
 * name and value). Restored when the test ends, or earlier by the returned
 * function.
 */
export function injectQuotaErrors(when: (store: string, value: unknown) => boolean): () => void {
  const proto = IDBObjectStore.prototype;
  const original = proto.put;
  proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
    if (when(this.name, args[0])) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    return original.apply(this, args);
  };
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    proto.put = original;
  };
  onTestFinished(restore);
  return restore;
}

/** Is `store` one of IndexedDBSaver's object stores (a checkpoint or its writes being saved)? */
export function isSaverStore(store: string): boolean {
  return (ALL_STORES as readonly string[]).includes(store);
}
