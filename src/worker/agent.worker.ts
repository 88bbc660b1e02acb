/**
 * The agent worker's entry: opens IndexedDB (threads survive reloads; memory
 * when IndexedDB cannot open), builds the demo agent and exposes the host over
 * Comlink. The page reaches it only through protocol.ts (see client.ts).
 * The host is exposed at once; calls wait until storage is open.
 */
import { MemorySaver } from "@langchain/langgraph/web";
import { expose } from "comlink";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { createDemoAgent } from "./demo.ts";
import { createAgentHost } from "./host.ts";
import { createLayout, type Layout } from "./layout.ts";

/** The IndexedDB database prefix; a worker named "db:<name>" uses another one (tests). */
const dbName = self.name.startsWith("db:") ? self.name.slice(3) : "deeptab";
let storage: "indexeddb" | "memory" = "memory";
let layout: Layout | undefined;

async function openAgent() {
  const saver = new IndexedDBSaver(`${dbName}-checkpoints`);
  const opened = await saver.open();
  storage = opened.ok ? "indexeddb" : "memory";
  if (!opened.ok) return createDemoAgent(new MemorySaver());
  layout = createLayout(dbName);
  return createDemoAgent(saver, { backend: layout.backend, store: layout.store });
}

expose(
  createAgentHost({
    agent: openAgent(),
    model: "scripted",
    demo: true,
    storage: () => storage,
    files: (threadId) => (layout ? layout.files(threadId) : undefined),
  }),
);
