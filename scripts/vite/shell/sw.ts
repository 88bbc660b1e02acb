/**
 * deeptab's service worker (bundled by the app-shell plugin into dist/sw.js,
 * after a first line `const SHELL = {version, files}` written at build time):
 * - cross-origin isolation on hosts that send no COOP/COEP headers: every
 *   same-origin response it answers gets them (see isolation.ts);
 * - offline app shell: the build's files are precached on install, served
 *   cache first; navigations go to the network first, the cached page when
 *   offline; caches of other builds are deleted on activate. Large files only
 *   some visits need (Pyodide, `onDemand`) are cached the first time they are
 *   fetched, then served cache first (offline too).
 * Requests to other origins (the model provider, model downloads) and
 * non-GET requests are not answered, so they reach the network untouched.
 */
import { isolatedHeaders, routeOf } from "./isolation.ts";

/** Written by the plugin: the build's hash and its files, relative to this script. */
declare const SHELL: { readonly version: string; readonly files: readonly string[]; readonly onDemand?: readonly string[] };

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE_PREFIX = "deeptab-shell-";
const cacheName = `${CACHE_PREFIX}${SHELL.version}`;
const precached = new Set(SHELL.files.map((file) => new URL(file, sw.location.href).href));
const onDemand = new Set((SHELL.onDemand ?? []).map((file) => new URL(file, sw.location.href).href));
const indexUrl = new URL("index.html", sw.location.href).href;

sw.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheName);
      // `reload`: the HTTP cache may still hold the previous build's index.html.
      await cache.addAll([...precached].map((url) => new Request(url, { cache: "reload" })));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName).map((name) => caches.delete(name)));
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (event) => {
  const route = routeOf(event.request, sw.location.origin, precached);
  if (route === "pass") return;
  event.respondWith(respond(event.request, route));
});

async function respond(request: Request, route: "navigate" | "precached" | "network"): Promise<Response> {
  const cache = await caches.open(cacheName);
  if (route === "navigate") {
    // One cached copy per page, whatever its query string.
    const page = new URL(request.url);
    page.search = "";
    page.hash = "";
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(page.href, response.clone());
      return isolate(response);
    } catch (err) {
      const cached = (await cache.match(page.href)) ?? (await cache.match(indexUrl));
      if (cached) return isolate(cached);
      throw err;
    }
  }
  if (route === "precached") {
    const cached = await cache.match(request);
    if (cached) return isolate(cached);
  }
  const url = new URL(request.url);
  url.hash = "";
  if (onDemand.has(url.href)) {
    const cached = await cache.match(url.href);
    if (cached) return isolate(cached);
    const response = await fetch(request);
    if (response.ok) await cache.put(url.href, response.clone());
    return isolate(response);
  }
  return isolate(await fetch(request));
}

/** The response with the cross-origin isolation headers (an opaque one as it is). */
function isolate(response: Response): Response {
  const headers = isolatedHeaders(response.status, response.headers);
  if (!headers) return response;
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
