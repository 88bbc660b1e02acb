/**
 * deeptab's service worker (bundled by the app-shell plugin into dist/sw.js,
 * after a first line `const SHELL = {version, files, onDemand}` written at build time):
 * - cross-origin isolation on hosts that send no COOP/COEP headers: every
 *   same-origin response it answers gets them (see isolation.ts);
 * - offline app shell: the app shell (`files`: the page, its first-load JS and
 *   stylesheets, the agent worker's startup JS) is precached on install, in a
 *   cache per build, served cache first; navigations go to the network first,
 *   the cached page when offline; other builds' shell caches are deleted on
 *   activate;
 * - every other file of the build (`onDemand`: llama.cpp's wasm, Pyodide, code
 *   a feature loads when first used) is cached the first time it is fetched,
 *   in one cache for all builds (src/ui/runtime/offline-cache.ts), then served
 *   cache first (offline too); on activate that cache keeps only the current
 *   build's files, so a new build does not download unchanged parts again.
 *   Settings › Offline files lists both caches and clears the second.
 * Requests to other origins (the model provider, model downloads) and
 * non-GET requests are not answered, so they reach the network untouched.
 */
import { PARTS_CACHE, SHELL_CACHE_PREFIX } from "../../../src/ui/runtime/offline-cache.ts";
import { installCacheMode, isolatedHeaders, routeOf } from "./isolation.ts";

/** Written by the plugin: the build's hash and its files, relative to this script. */
declare const SHELL: { readonly version: string; readonly files: readonly string[]; readonly onDemand?: readonly string[] };

const sw = self as unknown as ServiceWorkerGlobalScope;
const cacheName = `${SHELL_CACHE_PREFIX}${SHELL.version}`;
const precached = new Set(SHELL.files.map((file) => new URL(file, sw.location.href).href));
const onDemand = new Set((SHELL.onDemand ?? []).map((file) => new URL(file, sw.location.href).href));
const indexUrl = new URL("index.html", sw.location.href).href;

sw.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheName);
      await cache.addAll(SHELL.files.map((file) => new Request(new URL(file, sw.location.href).href, { cache: installCacheMode(file) })));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && name !== cacheName).map((name) => caches.delete(name)),
      );
      if (names.includes(PARTS_CACHE)) {
        const parts = await caches.open(PARTS_CACHE);
        const stale = (await parts.keys()).filter((request) => !onDemand.has(request.url));
        await Promise.all(stale.map((request) => parts.delete(request)));
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (event) => {
  const route = routeOf(event.request, sw.location.origin, precached);
  if (route === "pass") return;
  event.respondWith(respond(event, route));
});

async function respond(event: FetchEvent, route: "navigate" | "precached" | "network"): Promise<Response> {
  const request = event.request;
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
    const parts = await caches.open(PARTS_CACHE);
    const cached = await parts.match(url.href);
    if (cached) return isolate(cached);
    const response = await fetch(request);
    // Whole files only (never a range's 206); stored beside the answer, which streams to the page as it arrives.
    if (response.status === 200 && !request.headers.has("Range")) event.waitUntil(parts.put(url.href, response.clone()));
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
