/**
 * The reload that makes the page cross-origin isolated, when the service
 * worker's registration offers it (isolation-offer.ts): the page was in
 * use, so it did not reload on its own, and the app asks the user instead
 * (a banner; never while a run streams). Without an offer (vite dev, a host
 * that sends COOP/COEP, isolated already) there is nothing to ask.
 */
import { ISOLATION_OFFER_EVENT, ISOLATION_OFFER_GLOBAL, type IsolationOffer } from "./isolation-offer.ts";

export class Isolation {
  #offer: IsolationOffer | null = $state.raw(null);
  #dismissed = $state.raw(false);
  readonly #target: EventTarget;
  readonly #onOffer = (event: Event) => {
    this.#offer = (event as CustomEvent<IsolationOffer>).detail;
  };

  constructor(target: EventTarget = globalThis) {
    this.#target = target;
    const early = (target as unknown as Record<string, unknown>)[ISOLATION_OFFER_GLOBAL] as IsolationOffer | undefined;
    if (early && typeof early.reload === "function") this.#offer = early;
    target.addEventListener(ISOLATION_OFFER_EVENT, this.#onOffer);
  }

  /** A reload is on offer and the user has not put it off. */
  get offered(): boolean {
    return this.#offer !== null && !this.#dismissed;
  }

  reload(): void {
    this.#offer?.reload();
  }

  /** Not now: the banner goes until the next page load. */
  dismiss(): void {
    this.#dismissed = true;
  }

  dispose(): void {
    this.#target.removeEventListener(ISOLATION_OFFER_EVENT, this.#onOffer);
  }
}
