/**
 * The whole app shell in Chromium over the real agent worker (its own IndexedDB), as main.ts mounts it: the skip
 * link to the message box, the focus when the person opens a thread (and not on load), and the header at a phone's
 * width and a desktop's.
 */
import { flushSync, mount, unmount } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { workerPool } from "../testing/worker-pool.ts";
import App from "./app.svelte";
import { AgentsState } from "./agents/state.svelte.ts";
import { Chat } from "./chat/chat.svelte.ts";
import { appContext } from "./context.ts";
import { FilesState } from "./files/files.svelte.ts";
import { Servers } from "./runtime/servers.svelte.ts";
import { SettingsState } from "./settings/settings.svelte.ts";
import { Threads } from "./threads/threads.svelte.ts";

const { spawn } = workerPool();
const WAIT = { timeout: 30_000 } as const;
const cleanup: Array<() => void> = [];

afterEach(() => {
  for (const undo of cleanup.splice(0).reverse()) undo();
});

function mountApp(): { root: HTMLElement; chat: Chat } {
  const client = spawn();
  const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
  const threads = new Threads(client, chat);
  const settings = new SettingsState(client);
  const files = new FilesState(client, chat);
  const address = { get: () => new URL("http://127.0.0.1/app/"), replace: () => undefined };
  const agents = new AgentsState(client, chat, threads, address);
  const target = document.createElement("div");
  document.body.append(target);
  const app = mount(App, { target, context: appContext({ chat, threads, settings, files, agents, servers: new Servers() }) });
  flushSync();
  cleanup.push(() => {
    void unmount(app);
    target.remove();
    settings.dispose();
    threads.dispose();
    chat.dispose();
  });
  return { root: target, chat };
}

const composer = (root: HTMLElement) => root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]');

async function ready(root: HTMLElement): Promise<void> {
  await expect.poll(() => root.querySelector('[data-testid="app"]')?.getAttribute("data-agents"), WAIT).toBe("settled");
  await expect.poll(() => composer(root)?.disabled, WAIT).toBe(false);
}

describe("the app shell", () => {
  it("the first Tab stop skips to the message box (shown only while focused); load leaves the focus alone", async () => {
    const { root } = mountApp();
    await ready(root);
    expect(document.activeElement).toBe(document.body);
    const skip = root.querySelector<HTMLAnchorElement>(".skip-link")!;
    expect(skip.textContent).toBe("Skip to message box");
    expect(skip.getBoundingClientRect().bottom).toBeLessThanOrEqual(0);
    await userEvent.tab();
    expect(document.activeElement).toBe(skip);
    const shown = skip.getBoundingClientRect();
    expect(shown.top).toBeGreaterThanOrEqual(0);
    expect(shown.height).toBeGreaterThan(0);
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => document.activeElement, WAIT).toBe(composer(root));
  });

  it("opening a thread (New thread, or one from the list) puts the focus in the message box", async () => {
    const { root } = mountApp();
    await ready(root);
    const newThread = root.querySelector<HTMLButtonElement>('[data-testid="new-thread"]')!;
    newThread.focus();
    newThread.click();
    await expect.poll(() => document.activeElement, WAIT).toBe(composer(root));
  });
});

describe("the app's header", () => {
  afterEach(async () => {
    await page.viewport(1280, 800);
  });

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    it(`at ${width}×${height}: the model and agent names fit on one line (cut with …, named in full), the meter on one line`, async () => {
      await page.viewport(width, height);
      const { root, chat } = mountApp();
      await ready(root);
      // A turn of the demo model, so the meter counts tokens.
      await chat.send({ text: "hello" });
      await expect.poll(() => chat.running, WAIT).toBe(false);
      await expect.poll(() => root.querySelector('[data-testid="context-used"]')?.textContent, WAIT).not.toBe("0 tokens");
      const chip = root.querySelector<HTMLButtonElement>('[data-testid="model-chip"]')!;
      const picker = root.querySelector<HTMLSelectElement>('[data-testid="agent-picker"]')!;
      await expect.poll(() => picker.options.length, WAIT).toBeGreaterThan(0);
      // A long name: cut with an ellipsis, the whole of it in the title and the accessible name.
      for (const el of [chip, picker]) {
        const style = getComputedStyle(el);
        expect(style.textOverflow, el.dataset.testid).toBe("ellipsis");
        expect(el.getBoundingClientRect().right, el.dataset.testid).toBeLessThanOrEqual(width);
      }
      expect(chip.title).toContain(chip.textContent!.trim());
      expect(picker.title).toContain(picker.selectedOptions[0]!.textContent!.trim());
      const meter = root.querySelector<HTMLElement>(`${width < 700 ? ".phone-meter" : ".header-meter"} [data-testid="context-meter"]`)!;
      const lineHeight = parseFloat(getComputedStyle(meter).fontSize) * 2;
      for (const part of meter.querySelectorAll<HTMLElement>("*")) {
        if (part.offsetParent === null || !part.textContent?.trim() || part.children.length) continue;
        expect(part.getBoundingClientRect().height, part.textContent).toBeLessThan(lineHeight);
      }
      // Nothing in the header spills sideways.
      const header = root.querySelector("header")!;
      expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth);
    });
  }
});
