/**
 * The specs' `test`: Playwright's, with every page of the test's context settled after each navigation. On a host
 * without COOP/COEP (the specs' static servers) the first visit reloads once, by itself, when the service worker is
 * active (scripts/vite/shell/register.ts); an evaluation in the page while that reload lands fails with "Execution context
 * was destroyed". So `goto`, `reload`, `goBack` and `goForward` return only once the page has settled: it is isolated,
 * or it will not reload on its own ({@link settled}). Where preview sends the headers (the specs' default host) the
 * page has settled as soon as it loads. scripts/e2e-settle.test.ts keeps every spec on this `test`.
 *
 * A spec that watches the reload itself (hosting.spec.ts) turns this off with `test.use({ settleNavigations: false })`
 * and calls {@link settled} where it evaluates. A context a spec makes itself (`browser.newContext`) blocks service
 * workers, so nothing reloads in it.
 */
import { test as base, type Page } from "@playwright/test";
import { ISOLATION_ATTRIBUTE, type IsolationState } from "../scripts/vite/shell/isolation.ts";

/**
 * Waits until the page will not reload on its own for cross-origin isolation (its `data-isolation` says so) and
 * returns where it stands. Survives the reload it waits for: Playwright's `waitForFunction` polls on in the new
 * document. The bound is a service worker's install on a loaded 2-core machine.
 */
export async function settled(page: Page, timeout = 30_000): Promise<Exclude<IsolationState, "reloading">> {
  const state = await page.waitForFunction(
    (name) => {
      const value = document.documentElement.getAttribute(name);
      return value && value !== "reloading" ? value : false;
    },
    ISOLATION_ATTRIBUTE,
    { timeout },
  );
  return (await state.jsonValue()) as Exclude<IsolationState, "reloading">;
}

const settling = new WeakSet<Page>();

/** `navigate`, bound to `page`, returning once the page has settled. */
function thenSettle<A extends unknown[], R>(page: Page, navigate: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    const result = await navigate.apply(page, args);
    await settled(page);
    return result;
  };
}

/** Makes the page's navigations return once it has settled. */
function settleNavigations(page: Page): void {
  if (settling.has(page)) return;
  settling.add(page);
  page.goto = thenSettle(page, page.goto);
  page.reload = thenSettle(page, page.reload);
  page.goBack = thenSettle(page, page.goBack);
  page.goForward = thenSettle(page, page.goForward);
}

export const test = base.extend<{ settleNavigations: boolean }>({
  settleNavigations: [true, { option: true }],
  context: async ({ context, settleNavigations: on }, use) => {
    if (on) context.on("page", settleNavigations);
    await use(context);
  },
  page: async ({ page, settleNavigations: on }, use) => {
    if (on) settleNavigations(page);
    await use(page);
  },
});
