/** Where a site's files are, as the worker (or a page running the worker's API) sees it: its base URL. */

/**
 * The site's base URL as the worker sees it. `base` is Vite's `BASE_URL`: absolute (`/deeptab/`) it is taken at the
 * script's origin; relative (`./`, a build for any folder) it is the folder above the script when the script is a
 * built worker in `assets/`, else the script's own folder (a page).
 */
export function siteBaseUrl(base: string, scriptUrl: string, inWorker: boolean): string {
  if (base.startsWith("/")) return new URL(base, scriptUrl).href;
  if (/^[a-z]+:/i.test(base)) return base;
  return new URL(inWorker && new URL(scriptUrl).pathname.includes("/assets/") ? "../" : "./", scriptUrl).href;
}

/** The site's base URL where the worker (or a page running its API) runs in a browser; undefined elsewhere (Node). */
export function defaultSiteBase(): string | undefined {
  const location = globalThis.location as Location | undefined;
  if (!location?.href.startsWith("http")) return undefined;
  const inWorker = typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope;
  return siteBaseUrl(import.meta.env?.BASE_URL ?? "/", location.href, inWorker);
}
