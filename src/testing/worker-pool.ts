/**
 * Browser tests: spawns the app's real agent worker (agent.worker.ts) and
 * closes every spawned worker after each test. With `db`, the workers share
 * that IndexedDB database prefix (a worker named "db:<name>").
 */
import { afterEach } from "vitest";
import { connectAgent, type AgentClient } from "../worker/client.ts";

export function workerPool(db?: string): { spawn(): AgentClient } {
  let clients: AgentClient[] = [];
  afterEach(() => {
    for (const c of clients) c.close();
    clients = [];
  });
  return {
    spawn() {
      const client = connectAgent(
        new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module", name: db ? `db:${db}` : "deeptab-agent" }),
      );
      clients.push(client);
      return client;
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
