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
