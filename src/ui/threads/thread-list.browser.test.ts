/**
 * The thread list while the shown thread runs, in Chromium over the real agent worker (its own IndexedDB) and the
 * demo model: New thread, opening another thread and deleting the running one do not happen, and the list says why
 * (they used to do nothing, or hide a thread that stayed shown); once the run ends they work again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import { heldClient } from "../../testing/held-client.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { Chat } from "../chat/chat.svelte.ts";
import ThreadList from "./thread-list.svelte";
import { Threads } from "./threads.svelte.ts";

const { spawn } = workerPool();
const cleanup: Array<() => void> = [];
afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
});

describe("the thread list while the shown thread runs", () => {
  it("holds New thread, opening another thread and deleting the running one, says why, and lets go when the run ends", async () => {
    const held = heldClient(spawn(), { lastEvent: true });
    const chat = new Chat(held.client, `thread-${crypto.randomUUID()}`);
    const threads = new Threads(held.client, chat);
    cleanup.push(() => {
      threads.dispose();
      chat.dispose();
    });
    await chat.connect();
    // An earlier thread to open, then the shown one, running.
    expect(await chat.send({ text: "earlier thread" })).toBe(true);
    await chat.idle();
    const earlier = chat.threadId;
    await threads.create();
    render(ThreadList, { threads });
    held.holdRuns();
    expect(await chat.send({ text: "running thread" })).toBe(true);
    const running = chat.threadId;
    await threads.refresh();
    expect(chat.running).toBe(true);

    const list = page.getByRole("navigation", { name: "Threads" });
    const newThread = list.getByRole("button", { name: "New thread", exact: true });
    await expect.element(newThread).toHaveAttribute("aria-disabled", "true");
    // aria-disabled, not disabled: a click still comes through (Playwright waits for "enabled" unless forced).
    await newThread.click({ force: true });
    const note = list.getByTestId("thread-locked");
    await expect.element(note).toHaveTextContent("The shown thread is running: stop it or let it finish");
    expect(chat.threadId).toBe(running);

    const items = list.getByTestId("thread-item");
    const other = items.filter({ hasText: "earlier thread" });
    await other.getByTestId("thread-open").click({ force: true });
    expect(chat.threadId).toBe(running);
    await items.filter({ hasText: "running thread" }).getByTestId("thread-delete").click({ force: true });
    await expect.element(page.getByRole("dialog", { name: "Delete this thread?" })).not.toBeInTheDocument();
    expect(threads.pendingDelete).toBeNull();
    // The state class holds them too, not only the list.
    await threads.remove(running);
    await threads.select(earlier);
    expect(threads.pendingDelete).toBeNull();
    expect(chat.threadId).toBe(running);

    // The run ends: the note goes, and the list works again.
    held.releaseEnd();
    await chat.idle();
    await expect.element(note).not.toBeInTheDocument();
    await expect.element(newThread).toHaveAttribute("aria-disabled", "false");
    await other.getByTestId("thread-open").click();
    await expect.poll(() => chat.threadId).toBe(earlier);
  });
});
