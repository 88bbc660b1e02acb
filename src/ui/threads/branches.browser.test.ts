/**
 * Branch switching in the Chat state over the real agent worker (Chromium,
 * its own IndexedDB) and the scripted demo model: clicks that come faster
 * than the worker answers each move one step from the position last asked
 * for, and the view shown at the end is the worker's view of that branch;
 * a switch that fails shows its error and puts the position back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import { Chat } from "../chat/chat.svelte.ts";

const { spawn } = workerPool();
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const undo of cleanup.splice(0).reverse()) undo();
});

async function threeBranches(wrap: (client: AgentClient) => AgentClient = (c) => c): Promise<Chat> {
  const chat = new Chat(wrap(spawn()), `thread-${crypto.randomUUID()}`);
  cleanup.push(() => chat.dispose());
  await chat.connect();
  expect(await chat.send({ text: "hello" })).toBe(true);
  await chat.idle();
  expect(await chat.retry()).toBe(true);
  await chat.idle();
  expect(await chat.retry()).toBe(true);
  await chat.idle();
  await chat.reload();
  return chat;
}

const position = (chat: Chat) => chat.view!.branches.map((b) => `${b.current} / ${b.count}`);

describe("branch switching", () => {
  it("two quick clicks move two branches, and the worker's view of the last one is shown", async () => {
    const chat = await threeBranches();
    expect(position(chat)).toEqual(["3 / 3"]);
    const heads = chat.view!.branches[0]!.heads;

    // Both clicks before the worker answers the first.
    const first = chat.moveBranch(0, -1);
    expect(position(chat)).toEqual(["2 / 3"]);
    const second = chat.moveBranch(0, -1);
    expect(position(chat)).toEqual(["1 / 3"]);
    await Promise.all([first, second]);
    expect(position(chat)).toEqual(["1 / 3"]);
    expect(chat.view!.head).toBe(heads[0]);
    // The worker keeps the branch shown: a fresh view agrees.
    await chat.reload();
    expect(position(chat)).toEqual(["1 / 3"]);

    // Past the last branch it stops there.
    await Promise.all([chat.moveBranch(0, 1), chat.moveBranch(0, 1), chat.moveBranch(0, 1)]);
    expect(position(chat)).toEqual(["3 / 3"]);
    await chat.reload();
    expect(position(chat)).toEqual(["3 / 3"]);
  });

  it("a switch the worker fails shows the error and the branch the worker still has", async () => {
    const chat = await threeBranches((client) => ({
      ...client,
      switchBranch: () => Promise.reject(new Error("the worker went away")),
    }));
    await chat.moveBranch(0, -1);
    expect(chat.live.error?.message).toMatch(/the worker went away/);
    expect(position(chat)).toEqual(["3 / 3"]);
  });

  it("a retry asked while branch switches are on their way runs on the branch they end on", async () => {
    const chat = new Chat(spawn(), `thread-${crypto.randomUUID()}`);
    cleanup.push(() => chat.dispose());
    await chat.connect();
    expect(await chat.send({ text: "hello" })).toBe(true);
    await chat.idle();
    expect(await chat.edit(0, "bye")).toBe(true);
    await chat.idle();
    const users = () => chat.live.messages.filter((m) => m.role === "user").map((m) => m.content);
    expect(users()).toEqual(["bye"]);
    await chat.moveBranch(0, -1);
    expect(users()).toEqual(["hello"]);

    // Back to "bye", and Retry before the worker has answered the switch (r30's e2e did this after a reload).
    const back = chat.moveBranch(0, 1);
    const retried = chat.retry();
    expect(await retried).toBe(true);
    await back;
    await chat.idle();
    expect(users()).toEqual(["bye"]);
    await chat.reload();
    expect(users()).toEqual(["bye"]);
  });
});
