/**
 * The workers of browser tests: every test that runs a Web Worker gets it here, and the pool ends each one after
 * its test. `spawn()` starts the app's real agent worker (agent.worker.ts) behind the page-side client; its
 * IndexedDB is a fresh database per worker, or the database `db` names for every worker of the pool (a worker named
 * "db:<name>" uses that database). `connect(worker)` puts the client on an agent worker the test started, `track`
 * ends any other worker after the test (test harnesses in src/testing/). A test writes `new Worker(new URL("…",
 * import.meta.url))` itself where it starts one: that is the form Vite bundles as a worker.
 */
import { afterEach } from "vitest";
import { connectAgent, type AgentClient } from "../page/client.ts";
import { spawnAgentWorker } from "../page/spawn.ts";

export interface WorkerPool {
  /** The app's agent worker and its client. */
  spawn(): AgentClient;
  /** The client over a worker the test started. */
  connect(worker: Worker): AgentClient;
  /** Ends `worker` after the test; returns it. */
  track(worker: Worker): Worker;
}

/** Call at the top of a test file (or describe): it registers the afterEach that ends the pool's workers. */
export function workerPool(db?: string): WorkerPool {
  let ends: (() => void)[] = [];
  afterEach(() => {
    for (const end of ends) end();
    ends = [];
  });
  const connect = (worker: Worker) => {
    const client = connectAgent(worker);
    ends.push(() => client.close());
    return client;
  };
  return {
    spawn: () => connect(spawnAgentWorker(`db:${db ?? `test-${crypto.randomUUID()}`}`)),
    connect,
    track(worker) {
      ends.push(() => worker.terminate());
      return worker;
    },
  };
}

/** A thread's messages, as the client's view has them. */
export async function messagesOf(client: AgentClient, threadId: string) {
  return (await client.getThread(threadId)).messages;
}

/** The approval a thread waits for, or null. */
export async function pendingOf(client: AgentClient, threadId: string) {
  return (await client.getThread(threadId)).approval;
}

/** A thread's files (workspace and memories) with their text, by path. */
export async function filesOf(client: AgentClient, threadId: string): Promise<Record<string, { content: string }>> {
  const out: Record<string, { content: string }> = {};
  for (const entry of await client.listFiles(threadId)) {
    if (entry.isDir) continue;
    const page = await client.readFile(threadId, entry.path, 0, 5_000);
    out[entry.path] = { content: page.ok ? page.value.lines.join("\n") : "" };
  }
  return out;
}
