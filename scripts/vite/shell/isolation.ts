/**
 * The pure half of deeptab's service worker (sw.ts) and of its registration
 * (register.ts): which requests the worker answers, the headers that make the
 * page cross-origin isolated on a host that sends none, and when the page
 * reloads to get them (never on its own once someone uses it). Bundled into dist/sw.js and dist/register-sw.js;
 * unit-tested in Node.
 */

/** What coi-serviceworker adds to same-origin responses (its `require-corp` mode). */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

/** The fields of a Request the router reads. */
export interface RequestInfo {
  readonly url: string;
  readonly method: string;
  readonly mode: RequestMode;
  readonly cache: RequestCache;
}

/**
 * How the worker handles a request:
 * - `pass`: not answered at all (other origins, non-GET): the browser fetches it untouched;
 * - `navigate`: network first, the cached page when offline;
 * - `precached`: cache first (an app-shell file of this build);
 * - `network`: any other same-origin GET, fetched and given the isolation headers.
 */
export type Route = "pass" | "navigate" | "precached" | "network";

/** The route of a request seen by the worker at `origin`, given the absolute URLs of the precached files. */
export function routeOf(request: RequestInfo, origin: string, precached: ReadonlySet<string>): Route {
  if (request.method !== "GET") return "pass";
  // Chromium throws on these when they are answered (a DevTools quirk coi-serviceworker also skips).
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return "pass";
  const url = new URL(request.url);
  if (url.origin !== origin) return "pass";
  if (request.mode === "navigate") return "navigate";
  url.hash = "";
  return precached.has(url.href) ? "precached" : "network";
}

/** The response's headers plus the isolation headers; null for an opaque response (status 0), which cannot be rewritten. */
export function isolatedHeaders(status: number, headers: Headers): Headers | null {
  if (status === 0) return null;
  const out = new Headers(headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) out.set(name, value);
  return out;
}

/** The sessionStorage key marking "reloaded once for isolation" in this tab. */
export const RELOAD_MARK = "deeptab:isolation-reload";

/**
 * Events that mean someone is using the page (typing, clicking, scrolling,
 * dropping files): from the first one on, a reload could lose a run, a draft
 * or a key held in memory, so the page is never reloaded on its own.
 */
export const USE_EVENTS: readonly string[] = ["keydown", "pointerdown", "input", "wheel", "touchstart", "dragenter", "drop", "paste"];

/**
 * What happens once the worker is active:
 * - `reload` at once: not isolated, not reloaded for it yet, and nobody has used the page (nothing to lose);
 * - `offer` the reload to the app, which asks the user: the page is in use;
 * - `none`: isolated already, or reloaded for it once (a second reload would not help; never a loop).
 */
export type ReloadDecision = "reload" | "offer" | "none";

export function reloadDecision(isolated: boolean, alreadyReloaded: boolean, used: boolean): ReloadDecision {
  if (isolated || alreadyReloaded) return "none";
  return used ? "offer" : "reload";
}

/**
 * The attribute of the page's root element (`<html data-isolation="…">`) in which the registration says where the
 * page stands, for whoever must know that no reload is coming (the e2e specs evaluate in a page only once it has
 * settled: a reload during an evaluation destroys it). Absent until the registration knows (the worker is not active
 * yet); never set where no register-sw.js runs (`vite dev`).
 */
export const ISOLATION_ATTRIBUTE = "data-isolation";

/**
 * - `reloading`: the page reloads now to become isolated;
 * - `isolated`: cross-origin isolated; nothing reloads on its own;
 * - `offered`: not isolated and in use: the reload is offered to the app (it happens only if the user takes it);
 * - `not-isolated`: not isolated, and nothing reloads (no service worker here, its registration failed, or the one
 *   reload did not isolate the page).
 */
export type IsolationState = "reloading" | "isolated" | "offered" | "not-isolated";

/** The state a {@link reloadDecision} leaves the page in. */
export function isolationState(isolated: boolean, decision: ReloadDecision): IsolationState {
  switch (decision) {
    case "reload":
      return "reloading";
    case "offer":
      return "offered";
    case "none":
      return isolated ? "isolated" : "not-isolated";
  }
}

/**
 * How the service worker's install fetches a precached file: a content-hashed asset (`assets/name-<hash>.ext`) as the
 * browser would (`default`: the copy the page has just loaded into the HTTP cache serves it, so a first visit does not
 * download its app shell twice; a hashed name never holds other bytes), anything else past the HTTP cache (`reload`:
 * it may still hold the previous build's index.html or register-sw.js).
 */
export function installCacheMode(path: string): RequestCache {
  return /^assets\/(?:[^/]+\/)*[^/]+-[\w-]{8}\.[a-z0-9]+$/i.test(path) ? "default" : "reload";
}
