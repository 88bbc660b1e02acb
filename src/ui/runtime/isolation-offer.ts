/**
 * The contract between the service worker's registration (register-sw.js,
 * built from scripts/vite/shell/register.ts) and the app, on a host that sends no
 * COOP/COEP headers: the page becomes cross-origin isolated only by
 * reloading once the service worker is active. The registration reloads at
 * once only while nobody has used the page (nothing can be lost); after
 * that it offers the reload instead, and the app asks the user. Constants
 * and types only.
 */

/** The window event the registration dispatches with the offer (`CustomEvent<IsolationOffer>`). */
export const ISOLATION_OFFER_EVENT = "deeptab:isolation-offer";

/** The global the registration also leaves the offer in, for an app that starts listening later. */
export const ISOLATION_OFFER_GLOBAL = "deeptabIsolationOffer";

export interface IsolationOffer {
  /** Reloads the page (once per tab: the registration marks it, so a reload that does not isolate never loops). */
  reload(): void;
}
