/**
 * The worker's agents, assembled: the library (agent-library.ts), a thread's agent (thread-agents.ts) and the folder
 * a run uses. The loader behind them (YAML, zip, schemas) is no part of the worker's startup: app.ts imports this
 * module when the first agent call, or the first thread with an agent, needs it.
 */
import { createAgentLibrary, type AgentLibrary, type AgentLibraryDeps } from "./agent-library.ts";
import { memoryAgents, storeAgents } from "./agent-store.ts";
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import type { BaseStore } from "@langchain/langgraph/web";
import type { AgentLibraryApi } from "../../protocol/agents.ts";
import type { ThreadView } from "../../protocol/threads.ts";
import { demoSaver, type SaveDemoDeps } from "./save-demo.ts";
import { siteAgents } from "./site-agents.ts";
import { defaultSiteBase } from "./site-base.ts";
import { threadAgentTransfer } from "../threads/thread-agent-transfer.ts";
import { threadAgent, threadAgentSetter, threadAgentView, type ThreadAgentDeps } from "../threads/thread-agents.ts";
import type { ThreadAgentTransfer } from "../threads/threads.ts";

export interface AgentServiceDeps
  extends
    Omit<AgentLibraryDeps, "store" | "site" | "origin">,
    Omit<ThreadAgentDeps, "library">,
    Pick<SaveDemoDeps, "branchMessages" | "record"> {
  /** The IndexedDB store; none: agents are kept for the session. */
  store: BaseStore | undefined;
  /** The site's base URL; default: where this script runs (site-base.ts); none there (Node): the site has no agents. */
  siteBase?: string | undefined;
}

export interface AgentService {
  library: AgentLibrary;
  /** The protocol's agent calls. */
  api: AgentLibraryApi;
  view(threadId: string): Promise<ThreadView["agent"]>;
  /** The folder a thread's run uses (undefined: the general agent), or why it is gone. */
  folderOf(threadId: string): Promise<{ ok: true; agent: AgentDefinition | undefined } | { ok: false; message: string }>;
  /** A thread's agent in thread exports and imports. */
  transfer: ThreadAgentTransfer;
}

export function createAgentService(deps: AgentServiceDeps): AgentService {
  const store = deps.store ? storeAgents(deps.store) : memoryAgents();
  const library = createAgentLibrary({
    ...deps,
    store,
    origin: globalThis.location?.origin ?? "this page",
    site: siteAgents(deps.siteBase ?? defaultSiteBase(), (input, init) => globalThis.fetch(input, init)),
  });
  const threads = { library, threads: deps.threads };
  const { resolve: _resolve, ...calls } = library;
  return {
    library,
    api: {
      ...calls,
      setThreadAgent: threadAgentSetter({ ...deps, library }),
      saveDemo: demoSaver({
        library,
        runningHere: deps.runningHere,
        agentOf: async (threadId) => (await deps.threads.agentOf(threadId))?.id,
        branchMessages: deps.branchMessages,
        record: deps.record,
      }),
    },
    view: (threadId) => threadAgentView(threadId, threads),
    folderOf: (threadId) => threadAgent(threadId, threads),
    transfer: threadAgentTransfer({ library, store }),
  };
}
