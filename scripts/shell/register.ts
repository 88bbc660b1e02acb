/**
 * The page side of the service worker (bundled by the app-shell plugin into
 * dist/register-sw.js, a classic script in the built page's head; never in
 * `vite dev`). Registers sw.js next to itself (its scope is the app's folder,
 * e.g. /deeptab/), and when the page is not cross-origin isolated reloads it
 * once the worker is active, so the reloaded page gets the worker's
 * COOP/COEP headers. A sessionStorage mark allows one such reload per tab
 * until the page is isolated: never a reload loop. Where the server already
 * sends the headers the page is isolated and nothing reloads.
 */
import { RELOAD_MARK, shouldReload } from "./isolation.ts";

function start(): void {
  const container = "serviceWorker" in navigator ? navigator.serviceWorker : undefined;
  if (!container || !isSecureContext) return;
  const script = document.currentScript;
  const swUrl = new URL("sw.js", script instanceof HTMLScriptElement && script.src ? script.src : location.href);
  // `crossOriginIsolated` is undefined in browsers without the notion: treat them as isolated (nothing to gain).
  const isolated = self.crossOriginIsolated !== false;
  const reloaded = readMark();
  if (isolated && reloaded) writeMark(false);

  container
    .register(swUrl)
    .then(() => container.ready)
    .then(() => {
      if (shouldReload(isolated, reloaded)) {
        writeMark(true);
        location.reload();
      } else if (!isolated) {
        console.warn("deeptab: still not cross-origin isolated after the service worker reload; WebContainer is unavailable.");
      }
    })
    .catch((err: unknown) => console.warn("deeptab: the service worker could not be registered:", err));
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
