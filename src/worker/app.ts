/**
 * The worker's API (AgentWorkerApi) assembled from its services: settings
 * and keys, the request log, sandboxes, models in the tab, runs, thread
 * views, files and the thread registry. agent.worker.ts exposes it over
 * Comlink; browser tests call it directly in a page.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { proxy } from "comlink";
import type { BaseCheckpointSaver } from "@langchain/langgraph/web";
import { createBackendRuntime, resolveBackend } from "../backends/runtime.ts";
import { redactSecrets } from "../core/redact.ts";
import { err } from "../core/result.ts";
import type { SummarizationEvent } from "../context/view.ts";
import { EVENT_KEY } from "../middleware/summarization.ts";
import { checkArgs } from "../harness/validate-args.ts";
import type { PromptApiPort } from "../models/chrome-ai.ts";
import { endpointOf, listModels, preloadClient, type ModelChoice } from "../models/providers.ts";
import { endpointOrigin } from "../models/key-endpoint.ts";
import type { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { GENERAL_AGENT } from "./agents/general-agent.ts";
import { AGENT_CALLS } from "../protocol/agent-calls.ts";
import type { AgentService } from "./agents/agent-service.ts";
import { AGENT_LINKS_NS, AGENTS_NS } from "./agents/agent-namespaces.ts";
import { buildAgent, preloadRunCode, readerAgent } from "./runs/agents.ts";
import { basePrompt } from "../agent/deeptab-prompt.ts";
import { KEY_PROVIDERS, providerInfo } from "../protocol/catalog.ts";
import { enrichApproval } from "./runs/approvals.ts";
import { createFilesService } from "./threads/files.ts";
import type { createRewindService } from "./threads/rewind.ts";
import type { CheckpointReader } from "./threads/history.ts";
import type { Layout } from "./layout.ts";
import type { LocalModels } from "./models/local-models.ts";
import { lazyLocalModels } from "./models/local-models-lazy.ts";
import type { McpServersService } from "./mcp/mcp-servers.ts";
import type { AgentLibraryApi } from "../protocol/agents.ts";
import type { AgentWorkerApi, PromptApiRemote, WorkerInfo } from "../protocol/worker-api.ts";
import type { ThreadApi, ThreadEvent } from "../protocol/threads.ts";
import { createRequestLog } from "./request-log.ts";
import { createRunService, type RunRegistry } from "./runs/runs.ts";
import type { PythonPackages } from "../backends/sandbox/python-packages.ts";
import { createSandboxService } from "./sandbox.ts";
import type { ServerProbes } from "./models/server-probes.ts";
import { createSettingsService } from "./settings/settings.ts";
import type { TerminalApi } from "../protocol/terminal.ts";
import { threadView } from "./threads/thread-view.ts";
import { createThreadService, type ThreadAgents, type ThreadModels } from "./threads/threads.ts";
import { modelWindow } from "./models/windows.ts";
import type { ModelReplies } from "./runs/model-replies.ts";
import { once } from "../core/once.ts";

export interface WorkerAppOptions {
  /**
   * The stores: IndexedDB, or (`inMemory`, when the browser denies the site IndexedDB) the same stores in memory
   * for the session (memory-storage.ts).
   */
  storage: { saver: IndexedDBSaver; layout: Layout; inMemory?: boolean };
  notify(event: ThreadEvent): void;
  /** The fetch every provider request goes through (tests pass a loopback one). */
  fetch?: typeof fetch;
  local?: LocalModels;
  tokenBatchMs?: number;
  /**
   * The site's base URL (ending in `/`), where its agents are (`agents/index.json`); default: from Vite's BASE_URL
   * and this script's location (site-agents.ts). None: the site has no agents (Node).
   */
  siteBase?: string | undefined;
}

/** The host python3's packages come from (the Python packages setting's URL), or undefined for none (or not a URL). */
function packageHost(source: string | undefined): string | undefined {
  try {
    return source ? new URL(source).host : undefined;
  } catch {
    return undefined;
  }
}

/** The agent calls, each loading the agents' code on first use. */
function lazyAgentCalls(service: () => Promise<AgentService>): AgentLibraryApi {
  const names = Object.keys(AGENT_CALLS) as Array<keyof AgentLibraryApi>;
  return Object.fromEntries(
    names.map((name) => [name, async (...args: unknown[]) => ((await service()).api[name] as (...a: unknown[]) => unknown)(...args)]),
  ) as unknown as AgentLibraryApi;
}

/** The Prompt API as ChatChromeAI wants it, over the page's remote (the reply stream is cancelled on abort). */
function promptPort(remote: PromptApiRemote): PromptApiPort {
  return {
    async prompt(request, signal) {
      const stream = await remote.prompt(request);
      if (!signal) return stream;
      const reader = stream.getReader();
      const onAbort = () => void reader.cancel().catch(() => undefined);
      signal.addEventListener("abort", onAbort, { once: true });
      // A pass-through that drops the abort listener once the reply ends.
      return new ReadableStream<string>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) {
            signal.removeEventListener("abort", onAbort);
            controller.close();
          } else controller.enqueue(value);
        },
        cancel: () => {
          signal.removeEventListener("abort", onAbort);
          return reader.cancel();
        },
      });
    },
    contextWindow: () => remote.contextWindow(),
  };
}

/** Why `choice` cannot run for want of a key, or undefined (see RunDeps.missingKey). */
async function missingKey(choice: ModelChoice, settings: ReturnType<typeof createSettingsService>): Promise<string | undefined> {
  if (!KEY_PROVIDERS.includes(choice.provider) || (await settings.key(choice.provider, choice.baseUrl))) return undefined;
  const { label, key } = providerInfo(choice.provider);
  const bound = await settings.keyOrigin(choice.provider);
  const target = endpointOrigin(choice.provider, choice.baseUrl);
  // A key entered for another endpoint is never sent here (models/key-endpoint.ts).
  if (bound && key === "required")
    return (
      `Your ${label} API key was entered for ${bound}, and this thread's model is at ${target ?? "another address"}: ` +
      "the key is sent only where it was entered. Enter it again in Settings with this base URL. Nothing was sent."
    );
  if (await settings.keyNotKept(choice.provider))
    return (
      `The ${label} API key was for the last session only, so the reload did not keep it. Enter it again in Settings ` +
      '(tick "Remember this key on this device" to keep it across reloads). Nothing was sent.'
    );
  return key === "required" ? `Add your ${label} API key in Settings.` : undefined;
}

export function createWorkerApi(options: WorkerAppOptions): AgentWorkerApi & { runningHere(threadId: string): boolean } {
  const storage = options.storage;
  const settings = createSettingsService(storage.layout.store);
  const log = createRequestLog(500, options.fetch, (text) => redact(text));
  // MCP servers: loaded on first use (Settings, or a run), so the worker's startup code does not carry them.
  let mcpLoaded: McpServersService | undefined;
  let mcpLoading: Promise<McpServersService> | undefined;
  const mcp = () =>
    (mcpLoading ??= import("./mcp/mcp-servers.ts").then((m) => (mcpLoaded = m.createMcpServers(storage.layout.store, log.fetch))));
  /**
   * The worker's one list of secrets: provider keys and MCP header values and sign-in tokens. Every text that leaves
   * (run errors, the request log, a run's tool errors and node failures through the agent's `secrets`) is redacted
   * against it, in every form (core/redact.ts).
   */
  const secrets = () => [...settings.secrets(), ...(mcpLoaded?.secrets() ?? [])];
  const redact = (text: string) => redactSecrets(text, secrets());
  // One source per URL for the session: its lock and wheels are fetched once (through the request log).
  let packageSource: { url: string; packages: PythonPackages } | undefined;
  const sandbox = createSandboxService(storage.layout.workspace, async () => {
    const url = (await settings.get()).pythonPackages;
    if (!url) return undefined;
    if (packageSource?.url !== url) {
      // Loaded on first use: the worker's startup code does not carry it.
      const { PythonPackages } = await import("../backends/sandbox/python-packages.ts");
      packageSource = { url, packages: new PythonPackages(url, log.fetch) };
    }
    return packageSource.packages;
  });
  // The in-tab models' code loads with their first use (local-models-lazy.ts).
  const injected = options.local;
  const local = lazyLocalModels(log.fetch, injected && (() => injected));
  const files = createFilesService();
  const checkpointer: BaseCheckpointSaver = storage.saver;
  const backendFor = (kind: Parameters<typeof sandbox.workspaceFor>[0]) => {
    const route = sandbox.workspaceFor(kind);
    return storage.layout.backend(route);
  };
  let promptApi: PromptApiPort | undefined;
  /** Per thread, the page's shared stop flag (attachStopFlag): js_eval's interpreter reads it while it holds this thread. */
  const stopFlags = new Map<string, Int32Array>();
  // Asked once per server and model per session, and remembered: a first turn does not wait for a known answer.
  // Local servers' windows: the cache's and the probe's code load when a server is first asked (server-probes.ts,
  // models/server-probe.ts); a first turn with another provider never needs them.
  // The key set for the server's origin, if any, goes with its model list (a vLLM started with --api-key asks for it).
  const probe = async (choice: ModelChoice) =>
    (await import("../models/server-probe.ts")).probeServer(choice, log.fetch, await settings.key(choice.provider, choice.baseUrl));
  let probesMade: Promise<ServerProbes> | undefined;
  const probes = () => (probesMade ??= import("./models/server-probes.ts").then((m) => m.createServerProbes(probe, storage.layout.store)));
  const serverWindow = async (choice: ModelChoice) => (await probes()).window(choice);
  /** The window a choice works in: the same decision the agent's summarization is sized by (windows.ts). */
  const windowOf = (choice: ModelChoice) => modelWindow(choice, { serverWindow, promptApi: () => promptApi });

  const reader = readerAgent({ checkpointer, store: storage.layout.store, backend: backendFor });
  /**
   * Each run's model calls, per turn: what a thread saved as a demo holds (runs/model-replies.ts). Its code loads
   * when a run first ends (not with the worker's startup code).
   */
  const repliesStore = once(async () => new (await import("./runs/model-replies.ts")).ModelReplies(storage.layout.store));
  const replies: Pick<ModelReplies, "save" | "get" | "deleteThread" | "forgetAll"> = {
    save: async (...args) => (await repliesStore()).save(...args),
    get: async (...args) => (await repliesStore()).get(...args),
    deleteThread: async (...args) => (await repliesStore()).deleteThread(...args),
    forgetAll: async () => (await repliesStore()).forgetAll(),
  };
  /** Bound once the run service exists (the registry it uses needs this first). */
  const bound: { runs?: ReturnType<typeof createRunService> } = {};
  const runningHere = (id: string) => bound.runs?.runningHere(id) ?? false;
  const messagesOf = async (id: string, checkpointId?: string) =>
    (
      (await reader.getState({ configurable: { thread_id: id, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) } })).values as {
        messages?: BaseMessage[];
      }
    ).messages ?? [];

  const threads: ThreadApi & RunRegistry & ThreadModels & ThreadAgents = createThreadService({
    saver: storage.saver,
    layout: storage.layout,
    notify: options.notify,
    messages: messagesOf,
    writeMessages: async (id, messages) =>
      void (await reader.updateState({ configurable: { thread_id: id } }, { messages }, "after_model")),
    runningHere,
    defaultModel: async () => (await settings.get()).defaultModel,
    agents: async () => (await agents()).transfer,
  });

  const history: CheckpointReader = {
    tree: (threadId) => storage.saver.checkpointTree(threadId),
    async at(threadId, checkpointId) {
      const tuple = await storage.saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } });
      const messages = tuple?.checkpoint.channel_values.messages;
      return {
        count: Array.isArray(messages) ? messages.length : 0,
        ...(tuple?.metadata?.source ? { source: tuple.metadata.source } : {}),
      };
    },
  };

  /** The thread's files as the agent sees them (through the active sandbox). */
  async function fsOf(threadId: string) {
    const kind = sandbox.active((await settings.get()).sandbox);
    return resolveBackend(backendFor(kind), createBackendRuntime({}, { configurable: { thread_id: threadId } }));
  }

  /** The thread's own workspace: the default route alone (no shared /memories/ or /skills/), where an agent's files go. */
  async function ownFsOf(threadId: string) {
    const kind = sandbox.active((await settings.get()).sandbox);
    return resolveBackend(sandbox.workspaceFor(kind), createBackendRuntime({}, { configurable: { thread_id: threadId } }));
  }

  // The agents' code (the folder loader: YAML, zip, schemas) loads with the first agent call or agent thread.
  let service: Promise<AgentService> | undefined;
  const agents = () =>
    (service ??= import("./agents/agent-service.ts").then(({ createAgentService }) =>
      createAgentService({
        store: storage.layout.store,
        siteBase: options.siteBase,
        fetch: log.fetch,
        threadsUsing: (agentId) => threads.threadsUsing(agentId),
        generalInstructions: async () => basePrompt(sandbox.active((await settings.get()).sandbox)),
        keyOrigins: async () => new Set((await settings.keyStatus()).flatMap((s) => (s.origin ? [s.origin] : []))),
        threads,
        messageCount: async (id) => (await messagesOf(id)).length,
        runningHere,
        workspace: ownFsOf,
        notify: (threadId) => options.notify({ type: "thread_updated", threadId, running: runningHere(threadId) }),
        branchMessages: async (id) => messagesOf(id, await threads.head(id)),
        record: (id, turnId) => replies.get(id, turnId),
      }),
    ));
  /** The thread's agent as its view shows it; a thread of the general agent needs none of the agents' code. */
  const agentView = async (threadId: string) =>
    (await threads.agentOf(threadId)) ? (await agents()).view(threadId) : { id: GENERAL_AGENT.id, name: GENERAL_AGENT.name };

  // Rewind and a turn's changes: loaded with a first turn's start (or a first rewind), not with the worker.
  let rewindLoaded: Promise<ReturnType<typeof createRewindService>> | undefined;
  const rewindService = () =>
    (rewindLoaded ??= Promise.all([import("./threads/rewind.ts"), storage.layout.snapshots()]).then(([m, snapshots]) =>
      m.createRewindService({
        snapshots,
        fs: fsOf,
        reader,
        registry: threads,
        history,
        runningHere,
        view: (threadId) => view(threadId),
        notify: options.notify,
      }),
    ));
  const rewind: ReturnType<typeof createRewindService> = {
    turnStarted: async (threadId, id) => (await rewindService()).turnStarted(threadId, id),
    turnEnded: async (threadId, messages) => (await rewindService()).turnEnded(threadId, messages),
    rewindPreview: async (threadId, index) => (await rewindService()).rewindPreview(threadId, index),
    rewind: async (threadId, index, mode) => (await rewindService()).rewind(threadId, index, mode),
    turnChanges: async (threadId, index) => (await rewindService()).turnChanges(threadId, index),
    revertTurn: async (threadId, index, paths) => (await rewindService()).revertTurn(threadId, index, paths),
  };

  const runs = createRunService({
    turnFiles: rewind,
    replies,
    reader,
    registry: threads,
    history,
    notify: options.notify,
    redact,
    // The failure texts load with a run's first failure (the worker's startup code does not carry them).
    describe: async (error, choice) =>
      (await import("../middleware/provider-failure.ts")).describeProviderFailure(error, endpointOf(choice)),
    attach: async (threadId, list) => files.attach(await fsOf(threadId), list),
    enrich: async (threadId, approval) => enrichApproval(approval, (path) => fsOf(threadId).then((fs) => files.text(fs, path))),
    ...(options.tokenBatchMs !== undefined ? { tokenBatchMs: options.tokenBatchMs } : {}),
    missingKey: (choice) => missingKey(choice, settings),
    async agent(choice, onStatus, threadId, replay) {
      const s = await settings.get();
      // The page's stop flag for the thread, cleared for this run (Stop sets it again).
      const stopFlag = threadId === undefined ? undefined : stopFlags.get(threadId);
      if (stopFlag) Atomics.store(stopFlag, 0, 0);
      const own = threadId !== undefined && (await threads.agentOf(threadId));
      const folder = own ? await (await agents()).folderOf(threadId) : { ok: true as const, agent: undefined };
      if (!folder.ok) return err(folder.message);
      // A replay's code loads with the first one.
      const played = replay ? await (await import("./runs/replay-spec.ts")).replayOf(folder.agent, replay) : undefined;
      if (played && !played.ok) return played;
      // The agent's sandbox when it names one (a WebContainer the page has not booted: the offline shell).
      const wanted = folder.agent?.manifest.sandbox;
      return buildAgent(
        {
          choice,
          agent: folder.agent,
          sandbox: sandbox.active(wanted === undefined ? s.sandbox : wanted === "webcontainer" ? "auto" : wanted),
          approveExecute: s.approveExecute,
          approveWrites: s.approveWrites,
          toolProfile: s.toolProfile,
          harnessProfile: s.harnessProfile,
          pythonPackages: packageHost(s.pythonPackages),
          stopFlag,
          inbox: runs.inbox,
          ...(played ? { replay: played.value } : {}),
        },
        {
          checkpointer,
          store: storage.layout.store,
          backend: backendFor,
          key: (p, baseUrl) => settings.key(p, baseUrl),
          keyOrigin: (p) => settings.keyOrigin(p),
          local,
          promptApi: () => promptApi,
          fetch: log.fetch,
          serverWindow,
          mcpTools: async () => (await mcp()).forRun(),
          secrets,
        },
        onStatus,
      );
    },
  });
  bound.runs = runs;

  // The person's commands (the terminal panel): their code loads with the first one.
  let terminalLoaded: Promise<TerminalApi> | undefined;
  const terminal = () =>
    (terminalLoaded ??= import("./terminal/person-commands.ts").then((m) =>
      m.createPersonCommands({ backend: backendFor, runningHere, sandbox, settings, threads, agents }),
    ));

  const view = async (threadId: string) => ({
    ...(await threadView(threadId, {
      reader,
      registry: threads,
      runs,
      enrich: (id, approval) => enrichApproval(approval, (path) => fsOf(id).then((fs) => files.text(fs, path))),
      history,
      windowOf,
      childThread: async (id) => {
        const tuple = await checkpointer.getTuple({ configurable: { thread_id: id, checkpoint_ns: "" } });
        const values = tuple?.checkpoint.channel_values;
        if (!Array.isArray(values?.messages)) return undefined;
        return { messages: values.messages as BaseMessage[], event: values[EVENT_KEY] as SummarizationEvent | undefined };
      },
    })),
    agent: await agentView(threadId),
  });

  // The default model's client loads as the worker starts (a thread's own model is known at its first getThread).
  void settings.get().then(
    (s) => preloadClient(s.defaultModel.provider),
    () => undefined,
  );

  return {
    runningHere,
    async ping(): Promise<WorkerInfo> {
      return {
        inWorker: typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope,
        crossOriginIsolated: globalThis.crossOriginIsolated === true,
        storage: storage.inMemory ? "memory" : "indexeddb",
      };
    },

    getSettings: () => settings.get(),
    updateSettings: (patch) => settings.update(patch),
    setKey: (provider, key, remember, baseUrl) => settings.setKey(provider, key, remember, baseUrl),
    forgetKey: (provider) => settings.forgetKey(provider),
    keyStatus: () => settings.keyStatus(),
    listProviderModels: async (choice) => {
      const listed = await listModels(choice, await settings.key(choice.provider, choice.baseUrl), log.fetch);
      return listed.ok ? listed : err({ ...listed.error, message: redact(listed.error.message) });
    },
    // The model's own window; undefined when only an assumption is left (the settings say what is assumed).
    defaultWindow: async (choice) => {
      const bare: ModelChoice = { ...choice };
      delete bare.contextWindow;
      const window = await windowOf(bare);
      return window.assumed ? undefined : window.tokens;
    },
    setThreadModel: (threadId, choice) => threads.setModel(threadId, choice),
    requestLog: async () => log.entries(),
    async forgetEverything() {
      stopFlags.clear();
      await settings.clear();
      await (await mcp()).clear();
      await (await probes()).clear();
      log.clear();
      for (const id of await storage.saver.listThreads()) await storage.saver.deleteThread(id);
      for (const scope of await storage.layout.workspace.listScopes()) await storage.layout.workspace.deleteScope(scope);
      await (await storage.layout.snapshots()).forgetAll();
      await replies.forgetAll();
      for (const ns of [["threads"], ["partials"], ["memories"], ["skills"], AGENTS_NS, AGENT_LINKS_NS]) {
        const items = await storage.layout.store.search(ns, { limit: 100_000 });
        if (items.length) await storage.layout.store.batch(items.map((i) => ({ namespace: i.namespace, key: i.key, value: null })));
      }
      options.notify({ type: "thread_updated", threadId: "*", running: false });
    },

    listLocalModels: () => local.list(),
    downloadModel: (source, onProgress) => local.download(source, onProgress),
    cancelDownload: async (id) => local.cancel(id),
    deleteLocalModel: (id) => local.delete(id),
    useLocalFile: async (list) => local.useFiles(list),

    async attachContainer(port, state, reason) {
      await sandbox.attach(port, state, reason);
      const s = await settings.get();
      return sandbox.status(s.sandbox, packageHost(s.pythonPackages));
    },
    sandboxStatus: async () => {
      const s = await settings.get();
      return sandbox.status(s.sandbox, packageHost(s.pythonPackages));
    },
    async attachPromptApi(remote) {
      promptApi = remote ? promptPort(remote) : undefined;
    },

    startRun: runs.startRun,
    resume: runs.resume,
    continueRun: runs.continueRun,
    editAndRerun: runs.editAndRerun,
    retry: (threadId, onEvent) => runs.retry(threadId, onEvent),
    async switchBranch(threadId, head) {
      await threads.setHead(threadId, head);
      return view(threadId);
    },
    cancel: runs.cancel,
    steer: runs.steer,
    editQueued: runs.editQueued,
    withdrawQueued: runs.withdrawQueued,
    runQueued: runs.runQueued,
    async attachStopFlag(threadId, flag) {
      // Only a shared Int32Array can carry Stop past a busy thread; anything else is ignored.
      if (flag instanceof Int32Array && flag.length >= 1 && flag.buffer instanceof SharedArrayBuffer) stopFlags.set(threadId, flag);
    },
    checkArgs: async (schema, args) => {
      const checked = checkArgs(schema, args);
      return checked.ok ? null : checked.error;
    },

    async getThread(threadId) {
      const shown = await view(threadId);
      // What a first run of this thread needs loads now, while the person types, not at the first send: its model's
      // client, the MCP servers' service, and the run's code again if its load at the worker's start failed.
      preloadClient(shown.model.provider);
      void preloadRunCode().catch(() => undefined);
      void mcp().catch(() => undefined);
      return shown;
    },
    listFiles: async (threadId) => files.list(await fsOf(threadId)),
    readFile: async (threadId, path, offset, limit) => files.read(await fsOf(threadId), path, offset, limit),
    fileBytes: async (threadId, path) => files.bytes(await fsOf(threadId), path),
    writeFile: async (threadId, path, content) => files.write(await fsOf(threadId), path, content),
    deleteFile: async (threadId, path) => files.remove(await fsOf(threadId), path),
    workspaceZip: async (threadId) => files.zip(await fsOf(threadId)),
    runCommand: async (...args) => (await terminal()).runCommand(...args),
    cancelCommand: async (threadId) => (await terminal()).cancelCommand(threadId),
    rewindPreview: rewind.rewindPreview,
    rewind: rewind.rewind,
    turnChanges: rewind.turnChanges,
    revertTurn: rewind.revertTurn,

    listThreads: () => threads.listThreads(),
    renameThread: (id, title) => threads.renameThread(id, title),
    deleteThread: (id) => {
      stopFlags.delete(id);
      return threads.deleteThread(id);
    },
    exportThread: (id) => threads.exportThread(id),
    importThread: (data) => threads.importThread(data),
    copyThread: (id) => threads.copyThread(id),
    createThreadFrom: (copy) => threads.createThreadFrom(copy),
    getThreadStatus: (id) => threads.getThreadStatus(id),

    ...lazyAgentCalls(agents),
    mcpServers: async () => proxy((await mcp()).api),
  };
}
