/**
 * The agent worker's entry: opens IndexedDB (threads survive reloads; memory
 * when IndexedDB cannot open), builds the demo agent and exposes the host and
 * the thread calls over Comlink. The page reaches it only through protocol.ts
 * (see client.ts). The API is exposed at once; calls wait until storage is open.
 */
import { MemorySaver } from "@langchain/langgraph/web";
import { expose } from "comlink";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { createDemoAgent } from "./demo.ts";
import { createAgentHost } from "./host.ts";
import { createLayout, type Layout } from "./layout.ts";
import { THREADS_CHANNEL, type AgentWorkerApi, type ThreadApi, type ThreadEvent } from "./protocol.ts";
import { createThreadService, unavailableThreads, type RunHooks } from "./threads.ts";

/** The IndexedDB database prefix; a worker named "db:<name>" uses another one (tests). */
const dbName = self.name.startsWith("db:") ? self.name.slice(3) : "deeptab";
let storage: "indexeddb" | "memory" = "memory";
let layout: Layout | undefined;
const channel = new BroadcastChannel(THREADS_CHANNEL);
const notify = (event: ThreadEvent) => channel.postMessage(event);

async function openStorage() {
  const saver = new IndexedDBSaver(`${dbName}-checkpoints`);
  const opened = await saver.open();
  storage = opened.ok ? "indexeddb" : "memory";
  if (!opened.ok) return { agent: createDemoAgent(new MemorySaver()), saver: undefined };
  layout = createLayout(dbName);
  return { agent: createDemoAgent(saver, { backend: layout.backend, store: layout.store }), saver };
}

const ready = openStorage();
const threadsReady: Promise<ThreadApi & Partial<RunHooks>> = ready.then(({ saver }) => {
  if (!saver || !layout) return unavailableThreads;
  return createThreadService({ saver, layout, notify, messages: (id) => host.getMessages(id), runningHere: (id) => host.runningHere(id) });
});

const host = createAgentHost({
  agent: ready.then((r) => r.agent),
  model: "scripted",
  demo: true,
  storage: () => storage,
  files: (threadId) => (layout ? layout.files(threadId) : undefined),
  notify,
  hooks: {
    runStarted: async (id, text) => (await threadsReady).runStarted?.(id, text),
    runEnded: async (id) => (await threadsReady).runEnded?.(id),
  },
});

const api: AgentWorkerApi = {
  ping: host.ping,
  startRun: host.startRun,
  resume: host.resume,
  getPendingApproval: host.getPendingApproval,
  cancel: host.cancel,
  getMessages: host.getMessages,
  getFiles: host.getFiles,
  listThreads: async () => (await threadsReady).listThreads(),
  renameThread: async (id, title) => (await threadsReady).renameThread(id, title),
  deleteThread: async (id) => (await threadsReady).deleteThread(id),
  exportThread: async (id) => (await threadsReady).exportThread(id),
  importThread: async (data) => (await threadsReady).importThread(data),
  getThreadStatus: async (id) => (await threadsReady).getThreadStatus(id),
};
expose(api);
