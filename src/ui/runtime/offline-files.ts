/**
 * What the service worker keeps for offline use, read from the page (the Cache API is the page's too): the app shell's
 * cache of this build and the cache of parts fetched on first use (offline-cache.ts), and clearing the latter. Where
 * there is no Cache API (an insecure context) or no service worker ever ran (`vite dev`), there is nothing to list.
 */
import { PARTS_CACHE, SHELL_CACHE_PREFIX, type CachedFile } from "./offline-cache.ts";

/** The files of each cache, with paths relative to the app's folder (`base`, e.g. https://user.github.io/deeptab/). */
export interface OfflineCaches {
  readonly shell: readonly CachedFile[];
  readonly parts: readonly CachedFile[];
}

async function filesOf(cache: Cache, base: string): Promise<CachedFile[]> {
  const out: CachedFile[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const bytes = response ? (await response.blob()).size : 0;
    const path = request.url.startsWith(base) ? request.url.slice(base.length) || "index.html" : request.url;
    out.push({ path, bytes });
  }
  return out;
}

/** The cached files of the shell (every build's, normally one) and of the parts; empty without a Cache API. */
export async function readOfflineCaches(base: string): Promise<OfflineCaches> {
  if (typeof caches === "undefined") return { shell: [], parts: [] };
  const names = await caches.keys();
  const shell = (
    await Promise.all(names.filter((n) => n.startsWith(SHELL_CACHE_PREFIX)).map(async (n) => filesOf(await caches.open(n), base)))
  ).flat();
  const parts = names.includes(PARTS_CACHE) ? await filesOf(await caches.open(PARTS_CACHE), base) : [];
  return { shell, parts };
}

/** Deletes the parts fetched on first use (each is fetched, and cached, again when next used); the app shell stays. */
export async function clearOfflineParts(): Promise<void> {
  if (typeof caches !== "undefined") await caches.delete(PARTS_CACHE);
}
