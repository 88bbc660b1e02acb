/**
 * Driving the built app the way a person does, for the specs: open the
 * settings and connect a provider, send a message, wait for the run to end,
 * collect page errors. Only accessible names and the app's test ids.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { PROVIDER_TABLE, type ProviderId } from "../src/models/catalog.ts";

/**
 * The bound for the first look after a page (re)loads: the agent worker boots before the thread shows, which
 * takes seconds on a loaded 2-core machine (the default 5 s is not enough there).
 */
export const AFTER_LOAD = { timeout: 30_000 } as const;

/** Page errors and console errors, as they come. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  return errors;
}

/**
 * Records every text the streaming answer (`assistant-live`) shows from now on, as the page changes (a
 * MutationObserver on the conversation): a short stream cannot slip between two polls of an assertion, as it can
 * on a loaded machine. Read the texts with {@link streamedTexts}.
 */
export async function recordStreamed(page: Page): Promise<void> {
  await page.getByTestId("messages").evaluate((el) => {
    const seen: string[] = [];
    (window as unknown as { streamed: string[] }).streamed = seen;
    const selector = '[data-testid="assistant-live"]';
    new MutationObserver((records) => {
      // From the records themselves: on a loaded machine the live answer can be added and replaced by the final one
      // in one task, before this callback runs; the records still hold the (now detached) node with its text.
      for (const record of records) {
        for (const node of [record.target, ...record.addedNodes]) {
          const element = node instanceof Element ? node : node.parentElement;
          const live = element?.closest(selector) ?? element?.querySelector(selector);
          if (live) seen.push(live.textContent ?? "");
        }
      }
      for (const live of el.querySelectorAll(selector)) seen.push(live.textContent ?? "");
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
}

/** The texts the streaming answer showed since {@link recordStreamed}, in order. */
export function streamedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { streamed: string[] }).streamed);
}

export interface Connection {
  /** Any row of the provider table: the Provider select shows its label. */
  provider: ProviderId;
  baseUrl?: string;
  model?: string;
  key?: string;
  remember?: boolean;
  contextWindow?: number;
  /** Settings › Commands › "Ask before changing files". */
  approveWrites?: boolean;
  /** Settings › Commands › "Ask before running commands" (default: left as it is). */
  approveExecute?: boolean;
}

/** Opens Settings, fills the model fields, saves, waits for "Saved." and closes the dialog. */
export async function connect(page: Page, c: Connection): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider").selectOption({ label: PROVIDER_TABLE[c.provider].label });
  if (c.baseUrl !== undefined) await dialog.getByLabel("Base URL").fill(c.baseUrl);
  if (c.model !== undefined) await dialog.getByLabel("Model", { exact: true }).fill(c.model);
  if (c.key !== undefined) await dialog.getByLabel("API key").fill(c.key);
  if (c.remember) await dialog.getByRole("checkbox", { name: "Remember this key on this device" }).check();
  if (c.contextWindow !== undefined) await dialog.getByLabel("Context window").fill(String(c.contextWindow));
  if (c.approveWrites !== undefined) await dialog.getByRole("checkbox", { name: /Ask before changing files/ }).setChecked(c.approveWrites);
  if (c.approveExecute !== undefined)
    await dialog.getByRole("checkbox", { name: "Ask before running commands" }).setChecked(c.approveExecute);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

/**
 * Types a message into the composer and sends it with Enter, once the page would take it: Enter while Send is
 * disabled does nothing, so a page still settling (a thread loading, a run ending) is waited for, and a box that
 * lost the text fails here, saying so, instead of later as a run that never started.
 */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await expect(page.getByTestId("send")).toBeEnabled();
  await expect(box).toHaveValue(text);
  await box.press("Enter");
}

/** Waits until no run is going on in the shown thread. */
export async function idle(page: Page, timeout = 30_000): Promise<void> {
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false", { timeout });
}

/** Sends a message and waits for its run to end (the page marks the run as started synchronously on send). */
export async function turn(page: Page, text: string): Promise<void> {
  await send(page, text);
  await idle(page);
}

/** Where screenshots go (screenshots/, not committed; Playwright empties test-results/ on every run). */
export function shot(name: string): string {
  return `screenshots/${name}.png`;
}

/** What axe-core finds on the page as it is (or inside `include`, a CSS selector): one line per rule broken, with its impact and where. */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
