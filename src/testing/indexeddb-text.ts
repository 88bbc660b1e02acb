/**
 * Every value in every object store of this origin's IndexedDB databases whose name starts with `prefix`, as one
 * text (bytes decoded), so a test can say a secret is not stored anywhere. Self-contained: Playwright specs pass it
 * to `page.evaluate` as it is.
 */
export async function indexedDBText(prefix: string): Promise<string> {
  const texts: string[] = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name?.startsWith(prefix)) continue;
    const idb = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    for (const store of [...idb.objectStoreNames]) {
      const request = idb.transaction(store).objectStore(store).getAll();
      const values = await new Promise<unknown[]>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error);
      });
      texts.push(JSON.stringify(values, (_k, v: unknown) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v)));
    }
    idb.close();
  }
  return texts.join("\n");
}
