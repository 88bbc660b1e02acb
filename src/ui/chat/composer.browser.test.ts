/**
 * The composer keeps what is typed per thread (Chromium, the real agent
 * worker with the demo model): each thread shows its own draft, a
 * composer mounted anew (a reload) finds it, and sending clears it.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { Chat } from "./chat.svelte.ts";
import Composer from "./composer.svelte";
import { draftKey } from "./drafts.ts";

const pool = workerPool();
const cleanup: Array<() => void> = [];
afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
  sessionStorage.clear();
});

function type(root: HTMLElement, text: string): void {
  const box = root.querySelector("textarea")!;
  box.value = text;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

const boxOf = (root: HTMLElement) => root.querySelector("textarea")!;

describe("composer drafts", () => {
  it("adds a command shared from the terminal after the draft, and a starter prompt in its place", async () => {
    const client = pool.spawn();
    const chat = new Chat(client, "thread-share");
    cleanup.push(() => chat.dispose());
    await chat.connect();
    const props = reactiveProps<{ chat: Chat; prefill: { text: string; seq: number; append?: boolean } | null }>({ chat, prefill: null });
    const root = render(Composer, props);
    type(root, "Look at this:  ");
    props.prefill = { text: "I ran this in the terminal", seq: 1, append: true };
    flushSync();
    expect(boxOf(root).value).toBe("Look at this:\n\nI ran this in the terminal");
    props.prefill = { text: "Plan a trip", seq: 2 };
    flushSync();
    expect(boxOf(root).value).toBe("Plan a trip");
  });

  it("keeps each thread's draft across thread switches and a remount, and clears it once sent", async () => {
    const client = pool.spawn();
    const chat = new Chat(client, "thread-a");
    cleanup.push(() => chat.dispose());
    await chat.connect();
    const first = render(Composer, { chat });
    type(first, "half a thought for A");
    expect(sessionStorage.getItem(draftKey("thread-a"))).toBe("half a thought for A");

    await chat.open("thread-b");
    flushSync();
    expect(boxOf(first).value).toBe("");
    type(first, "and one for B");
    await chat.open("thread-a");
    flushSync();
    expect(boxOf(first).value).toBe("half a thought for A");

    // The page reloads: a new composer on the same thread finds the draft.
    cleanupRendered();
    const second = render(Composer, { chat });
    expect(boxOf(second).value).toBe("half a thought for A");

    boxOf(second).dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    await expect
      .poll(() => chat.live.messages.some((m) => m.role === "user" && m.content === "half a thought for A"), {
        timeout: 20_000,
      })
      .toBe(true);
    flushSync();
    expect(boxOf(second).value).toBe("");
    expect(sessionStorage.getItem(draftKey("thread-a"))).toBeNull();
    expect(sessionStorage.getItem(draftKey("thread-b"))).toBe("and one for B");
  }, 60_000);

  it("takes the next message as soon as the run shows as ended, however slow the reload after it", async () => {
    const client = pool.spawn();
    // The reload that ends a run answers late (a busy machine); r29 sent into that gap and the message was dropped.
    const slow: typeof client = { ...client, getThread: (id) => new Promise((r) => setTimeout(r, 400)).then(() => client.getThread(id)) };
    const chat = new Chat(slow, `thread-${crypto.randomUUID()}`);
    cleanup.push(() => chat.dispose());
    await chat.connect();
    const root = render(Composer, { chat });
    const enter = () => boxOf(root).dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    type(root, "first");
    enter();
    await expect.poll(() => chat.running, { timeout: 20_000 }).toBe(true);
    await expect.poll(() => chat.running, { timeout: 20_000, interval: 5 }).toBe(false);
    // The run shows as ended only with its answer in view.
    expect(chat.live.messages.map((m) => m.role)).toContain("assistant");
    type(root, "second");
    enter();
    await expect
      .poll(() => chat.live.messages.filter((m) => m.role === "user").map((m) => m.content), { timeout: 20_000 })
      .toEqual(["first", "second"]);
    await chat.idle();
    flushSync();
    expect(boxOf(root).value).toBe("");
  }, 60_000);
});
