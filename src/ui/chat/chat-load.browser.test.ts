/**
 * A message sent right after a reload, before the thread's view has loaded, over the real agent worker (Chromium, its
 * own IndexedDB) and the demo model: the run shows the earlier conversation above it as soon as the view arrives,
 * not only once the run ends; and a view read before the run, arriving after the run's own reload, is not shown.
 */
import { afterEach, describe, expect, it } from "vitest";
import { heldClient } from "../../testing/held-client.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { Chat } from "./chat.svelte.ts";

const { spawn } = workerPool();
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const undo of cleanup.splice(0).reverse()) undo();
});

const users = (chat: Chat) => chat.live.messages.filter((m) => m.role === "user").map((m) => m.content);

/** A thread with one finished turn, and a fresh Chat on it (the page after a reload) whose first load waits. */
async function reloadedThread() {
  const client = spawn();
  const threadId = `thread-${crypto.randomUUID()}`;
  const before = new Chat(client, threadId);
  await before.connect();
  expect(await before.send({ text: "first" })).toBe(true);
  await before.idle();
  const earlier = before.live.messages;
  before.dispose();
  const slow = heldClient(client, { firstLoad: true, runs: true });
  const chat = new Chat(slow.client, threadId);
  cleanup.push(() => chat.dispose());
  const connected = chat.connect();
  return { chat, earlier, connected, releaseLoad: slow.releaseLoad, releaseEnd: slow.releaseEnd };
}

describe("a message sent before the thread has loaded", () => {
  it("shows the earlier conversation above the run once the view arrives, and the thread as stored after it", async () => {
    const { chat, earlier, connected, releaseLoad, releaseEnd } = await reloadedThread();
    expect(await chat.send({ text: "second" })).toBe(true);
    expect(users(chat)).toEqual(["second"]);
    releaseLoad();
    await connected;
    // Still running: the first turn is shown above the second, once.
    expect(chat.running).toBe(true);
    expect(users(chat)).toEqual(["first", "second"]);
    expect(chat.live.messages.slice(0, earlier.length)).toEqual(earlier);
    releaseEnd();
    await chat.idle();
    expect(users(chat)).toEqual(["first", "second"]);
    const shown = chat.live.messages;
    await chat.reload();
    expect(chat.live.messages).toEqual(shown);
  });

  it("a view read before the run that arrives after the run's own reload is not shown", async () => {
    const { chat, connected, releaseLoad, releaseEnd } = await reloadedThread();
    expect(await chat.send({ text: "second" })).toBe(true);
    releaseEnd();
    // The run's end reloads the thread while the first load still waits.
    await chat.idle();
    expect(users(chat)).toEqual(["first", "second"]);
    releaseLoad();
    await connected;
    expect(users(chat)).toEqual(["first", "second"]);
    // The thread's update broadcast at the run's end reloads it too: once that is shown, the same.
    await expect.poll(() => chat.loading, { timeout: 30_000 }).toBe(false);
    expect(users(chat)).toEqual(["first", "second"]);
    expect(chat.running).toBe(false);
  });

  it("a run counts as running until the thread is shown again after its last event: a message sent meanwhile waits", async () => {
    const { chat, connected, releaseLoad, releaseEnd } = await reloadedThread();
    releaseLoad();
    await connected;
    expect(await chat.send({ text: "second" })).toBe(true);
    // The run's last event has come (it clears the run's id); its end, and the reload after it, have not.
    await expect.poll(() => chat.live.runId, { timeout: 30_000 }).toBeNull();
    expect(chat.running).toBe(true);
    expect(await chat.send({ text: "third" })).toBe(false);
    releaseEnd();
    await chat.idle();
    expect(chat.running).toBe(false);
    expect(users(chat)).toEqual(["first", "second"]);
    expect(await chat.send({ text: "third" })).toBe(true);
    await chat.idle();
    expect(users(chat)).toEqual(["first", "second", "third"]);
  });
});
