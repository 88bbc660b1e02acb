/**
 * A test worker (Chromium): runs one slow agent run on a thread of an
 * IndexedDB checkpoint database, so that the page can try the same thread
 * meanwhile with its own saver (another realm: only the Web Lock is shared).
 * Posts `{ started: true }` once the run holds the thread, then the run's
 * outcome.
 */
import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { runLockName } from "../agent/one-run-per-thread.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";

export type BusyThreadMessage = { started: true } | { done: true; final: string } | { done: true; error: string };

async function held(name: string): Promise<void> {
  for (;;) {
    const { held: locks = [] } = await navigator.locks.query();
    if (locks.some((l) => l.name === name)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

self.onmessage = async (event: MessageEvent<{ db: string; thread: string; delayMs: number }>) => {
  const { db, thread, delayMs } = event.data;
  const saver = new IndexedDBSaver(db);
  const agent = createDeepAgent({ model: new ScriptedChatModel({ script: [{ text: "from the worker", delayMs }] }), checkpointer: saver });
  const outcome = agent.invoke({ messages: [new HumanMessage("worker")] }, { configurable: { thread_id: thread } }).then(
    (out): BusyThreadMessage => ({ done: true, final: String(out.messages.at(-1)?.text) }),
    (err: unknown): BusyThreadMessage => ({ done: true, error: String(err) }),
  );
  await Promise.race([held(runLockName(saver.storageKey, thread)), outcome]);
  self.postMessage({ started: true } satisfies BusyThreadMessage);
  self.postMessage(await outcome);
};
