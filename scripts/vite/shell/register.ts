/**
 * The page side of the service worker (bundled by the app-shell plugin into
 * dist/register-sw.js, a classic script in the built page's head; never in
 * `vite dev`). Registers sw.js next to itself (its scope is the app's folder,
 * e.g. /deeptab/). When the page is not cross-origin isolated, the reloaded
 * page gets the worker's COOP/COEP headers; the reload happens at a moment
 * that loses nothing (isolation.ts, `reloadDecision`):
 * - nobody has used the page since it loaded (no key pressed, no click, no
 *   scroll, nothing dropped): it reloads as soon as the worker is active;
 * - otherwise it never reloads on its own: it offers the reload to the app
 *   (src/ui/runtime/isolation-offer.ts), which asks the user with a banner.
 * A sessionStorage mark allows one such reload per tab until the page is
 * isolated: never a reload loop. Where the server already sends the headers
 * the page is isolated and nothing reloads. The page's root element says
 * where it stands (`data-isolation`, isolation.ts: ISOLATION_ATTRIBUTE), so
 * a test knows when no reload is coming.
 */
import { ISOLATION_OFFER_EVENT, ISOLATION_OFFER_GLOBAL, type IsolationOffer } from "../../../src/ui/runtime/isolation-offer.ts";
import { ISOLATION_ATTRIBUTE, RELOAD_MARK, USE_EVENTS, isolationState, reloadDecision, type IsolationState } from "./isolation.ts";

function start(): void {
  // `crossOriginIsolated` is undefined in browsers without the notion: treat them as isolated (nothing to gain).
  const isolated = self.crossOriginIsolated !== false;
  // An isolated page never reloads for isolation: it has settled before the worker is even registered.
  if (isolated) show("isolated");
  const container = "serviceWorker" in navigator ? navigator.serviceWorker : undefined;
  if (!container || !isSecureContext) return show(isolationState(isolated, "none"));
  const script = document.currentScript;
  const swUrl = new URL("sw.js", script instanceof HTMLScriptElement && script.src ? script.src : location.href);
  const reloaded = readMark();
  if (isolated && reloaded) writeMark(false);
  const used = watchUse();

  container
    .register(swUrl)
    .then(() => container.ready)
    .then(() => {
      const decision = reloadDecision(isolated, reloaded, used());
      show(isolationState(isolated, decision));
      if (decision === "reload") reload();
      else if (decision === "offer") offer({ reload });
      else if (!isolated) {
        console.warn("deeptab: still not cross-origin isolated after the service worker reload; WebContainer is unavailable.");
      }
    })
    .catch((err: unknown) => {
      show(isolationState(isolated, "none"));
      console.warn("deeptab: the service worker could not be registered:", err);
    });
}

/** Says where the page stands (see ISOLATION_ATTRIBUTE). */
function show(state: IsolationState): void {
  document.documentElement.setAttribute(ISOLATION_ATTRIBUTE, state);
}

/** From now on: whether anyone has used the page. */
function watchUse(): () => boolean {
  let used = false;
  const options = { capture: true, passive: true } as const;
  const onUse = () => {
    used = true;
    for (const type of USE_EVENTS) removeEventListener(type, onUse, options);
  };
  for (const type of USE_EVENTS) addEventListener(type, onUse, options);
  return () => used;
}

function reload(): void {
  show("reloading");
  writeMark(true);
  location.reload();
}

/** Hands the reload to the app (an event now, a global for later). */
function offer(value: IsolationOffer): void {
  (globalThis as Record<string, unknown>)[ISOLATION_OFFER_GLOBAL] = value;
  dispatchEvent(new CustomEvent<IsolationOffer>(ISOLATION_OFFER_EVENT, { detail: value }));
}

function readMark(): boolean {
  try {
    return sessionStorage.getItem(RELOAD_MARK) !== null;
  } catch {
    return true; // no sessionStorage: never reload, as a loop could not be ruled out
  }
}

function writeMark(on: boolean): void {
  try {
    if (on) sessionStorage.setItem(RELOAD_MARK, "1");
    else sessionStorage.removeItem(RELOAD_MARK);
  } catch {
    // no sessionStorage: readMark said "reloaded", so no reload is attempted either
  }
}

start();
