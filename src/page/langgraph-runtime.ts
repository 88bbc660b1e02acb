/**
 * Runtime "LangGraph server": the page's {@link AgentClient} with its thread, run and file calls sent to a LangGraph
 * server (langgraph-client.ts) while a server is chosen, and to the tab's worker otherwise. The page's state classes
 * (ui/chat, threads, files) stay as they are: they call the client they were given, and this is it.
 *
 * While a server is chosen: the thread list is the server's; a run streams from the server (a new thread is created
 * there by its first run); Stop cancels the server's run; an approval answers the server's interrupt; files and todos
 * come from the thread's state. A thread whose run is still going on the server (after a reload) shows as
 * interrupted and `running`: the page rejoins that run at once (ui/chat), and Continue does if that failed. What the
 * server runtime cannot do (edit, retry, branches, rename, export, import, writing files, attachments) answers
 * `not_supported` with a plain message; settings, keys, agents and everything else stay with the worker. Switching
 * runtime announces a `thread_updated` for `"*"`, so the page reloads what it shows.
 */
import { DeeptabError, type ErrorInfo } from "../core/errors.ts";
import { err, ok } from "../core/result.ts";
import type { AgentClient, RunHandle, RunStart } from "./client.ts";
import type { LangGraphConnection, LangGraphResult, RunInput } from "./langgraph-client.ts";
import { followQueued } from "./langgraph-queue.ts";
import type { LangGraphError, SteerErrorCode } from "../protocol/errors.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { FileEntry } from "../protocol/files.ts";
import type { ThreadEvent, ThreadView } from "../protocol/threads.ts";

/** The server the page uses now, and the assistant its runs start. */
export interface ServerRoute {
  connection: LangGraphConnection;
  assistantId: string;
  /** Shown as the thread's agent and model. */
  assistantName: string;
}

/** An {@link AgentClient} that follows the runtime: {@link ServerRoute} when `route()` gives one, the worker otherwise. */
export interface RoutedClient extends AgentClient {
  /** Tell the page the runtime changed (it reloads its thread and list). */
  announce(): void;
}

/** The id prefix of a server thread's agent (the assistant): `langgraph:<assistant id>`. */
export const SERVER_AGENT_PREFIX = "langgraph:";

const NOT_SUPPORTED = "Not available for threads on a LangGraph server yet (they run on the server; use a tab thread for this).";

function notSupported(): { ok: false; error: ErrorInfo & { code: "not_supported" } } {
  return err({ name: "LangGraphError", code: "not_supported", message: NOT_SUPPORTED });
}

/** A failed server call as a thrown error (for the calls the page expects to throw). */
function unwrap<T>(result: LangGraphResult<T>): T {
  if (result.ok) return result.value;
  throw Object.assign(
    new DeeptabError(result.error.code, result.error.message),
    result.error.status ? { status: result.error.status } : {},
  );
}

type StartFailure = Extract<RunStart, { ok: false }>;

const NOTHING_RUNS = "Nothing runs on this thread on the server now.";
const TAKEN = "That message's run has started on the server: it is in the conversation now.";

/** A server refusal of a steering call, as the steering calls' error (the server's message kept). */
function steerFailure(error: LangGraphError): { ok: false; error: ErrorInfo & { code: SteerErrorCode } } {
  return err({ ...error, name: "SteerError", code: error.code === "busy" ? "thread_busy" : "not_supported" });
}
/** The server's refusals in the worker's run codes where one means the same (the page reacts to those). */
function startFailure(error: LangGraphError): StartFailure {
  const code = error.code === "busy" ? "thread_busy" : error.code;
  return err({ ...error, code }) as StartFailure;
}

/** The thread as the page shows it: the server's state, with nothing of the tab's (branches, usage) made up. */
function viewOf(route: ServerRoute, thread: Awaited<ReturnType<LangGraphConnection["thread"]>>, threadId: string): ThreadView {
  const t = unwrap(thread);
  return {
    threadId,
    messages: t.messages,
    todos: t.todos,
    approval: t.approval,
    ...(t.running ? { interrupted: { running: true } } : {}),
    model: { provider: "openai-compatible", model: `LangGraph: ${route.assistantName}`, baseUrl: route.connection.url },
    agent: { id: `${SERVER_AGENT_PREFIX}${route.assistantId}`, name: route.assistantName },
    usage: { input: 0, output: 0 },
    branches: [],
  };
}

export function routeClient(worker: AgentClient, route: () => ServerRoute | null): RoutedClient {
  const listeners = new Set<(event: ThreadEvent) => void>();
  /** The thread of each server run this page follows (Stop names only the run). */
  const runThreads = new Map<string, { threadId: string; connection: LangGraphConnection; current?: () => string }>();
  /** The text of each message this page queued on a server (by its run's id), shown when its run starts. */
  const queuedTexts = new Map<string, string>();

  async function start(
    r: ServerRoute,
    threadId: string,
    started: Promise<LangGraphResult<RunHandle & { current?: () => string }>>,
  ): Promise<RunStart> {
    const result = await started;
    if (!result.ok) return startFailure(result.error);
    const { current } = result.value;
    runThreads.set(result.value.runId, { threadId, connection: r.connection, ...(current ? { current } : {}) });
    void result.value.done.then(() => {
      runThreads.delete(result.value.runId);
      for (const l of [...listeners]) l({ type: "thread_updated", threadId, running: false });
    });
    return ok({ runId: result.value.runId, done: result.value.done });
  }

  const run = (r: ServerRoute, threadId: string, input: RunInput, onEvent?: (e: AgentEvent) => void) =>
    start(
      r,
      threadId,
      r.connection.run(threadId, r.assistantId, input, (e) => onEvent?.(e)),
    );

  /** Follows the thread's run going on on the server (a reload's, or the queued one that started). */
  async function rejoin(r: ServerRoute, threadId: string, onEvent?: (e: AgentEvent) => void): Promise<RunStart> {
    const active = await r.connection.activeRun(threadId);
    if (!active.ok) return startFailure(active.error);
    if (!active.value) return err({ name: "LangGraphError", code: "not_interrupted", message: NOTHING_RUNS });
    return start(
      r,
      threadId,
      r.connection.join(threadId, active.value, (e) => onEvent?.(e)),
    );
  }

  /** Queues `text` as a run of its own behind the thread's run (steering on a server); its id is the run's. */
  async function enqueue(r: ServerRoute, threadId: string, text: string) {
    const queued = await r.connection.enqueue(threadId, r.assistantId, text);
    if (!queued.ok) return steerFailure(queued.error);
    queuedTexts.set(queued.value, text);
    return ok({ id: queued.value, text });
  }

  /** Follows the thread's run and each queued behind it in turn, as one run for the page (langgraph-queue.ts). */
  async function runQueued(r: ServerRoute, threadId: string, onEvent?: (e: AgentEvent) => void): Promise<RunStart> {
    const followed = await followQueued(r.connection, threadId, queuedTexts, (e) => onEvent?.(e));
    if (!followed.ok) return startFailure(followed.error);
    if (!followed.value) {
      // They have all run already (a quick server): the thread shows them once the page reloads it after this end.
      const end = { type: "done", runId: crypto.randomUUID(), status: "complete" } as const;
      onEvent?.(end);
      return ok({ runId: end.runId, done: Promise.resolve(end) });
    }
    return start(r, threadId, Promise.resolve(ok(followed.value)));
  }

  const overrides = (r: ServerRoute): Partial<AgentClient> => ({
    listThreads: async () => unwrap(await r.connection.threads()),
    getThread: async (threadId) => viewOf(r, await r.connection.thread(threadId), threadId),
    // Another client's run is rejoined (Continue), not waited out read-only.
    getThreadStatus: async () => ({ busy: false }),
    run: (threadId, input, onEvent) =>
      input.attachments?.length
        ? Promise.resolve(err({ name: "LangGraphError", code: "attachment_failed", message: `Attachments: ${NOT_SUPPORTED}` }))
        : run(r, threadId, { text: input.text }, onEvent),
    resume: (threadId, decisions, onEvent, approvalId) => run(r, threadId, { decisions, ...(approvalId ? { approvalId } : {}) }, onEvent),
    continueRun: (threadId, onEvent) => rejoin(r, threadId, onEvent),
    // Steering: the message is a run of its own queued on the server (multitask strategy "enqueue"), which starts once
    // the current run ends; its id is the queued message's. Editing one that has not started replaces that run.
    async steer(threadId, text) {
      if (!text.trim()) return err({ name: "SteerError", code: "empty_input", message: "Type a message first." });
      return enqueue(r, threadId, text.trim());
    },
    async editQueued(threadId, id, text) {
      if (!text.trim()) return err({ name: "SteerError", code: "empty_input", message: "Type a message first (or withdraw it)." });
      const dropped = await r.connection.dropQueued(threadId, id);
      if (!dropped.ok) return steerFailure(dropped.error);
      if (!dropped.value) return err({ name: "SteerError", code: "already_taken", message: TAKEN });
      queuedTexts.delete(id);
      return enqueue(r, threadId, text.trim());
    },
    async withdrawQueued(threadId, id) {
      const dropped = await r.connection.dropQueued(threadId, id);
      if (!dropped.ok) return steerFailure(dropped.error);
      if (dropped.value) queuedTexts.delete(id);
      return dropped.value ? ok(null) : err({ name: "SteerError", code: "already_taken", message: TAKEN });
    },
    // The queued runs start on the server by themselves, one after another: the page follows each in turn.
    runQueued: (threadId, onEvent) => runQueued(r, threadId, onEvent),
    editAndRerun: async () => notSupported() as StartFailure,
    retry: async () => notSupported() as StartFailure,
    switchBranch: async () => {
      throw new DeeptabError("not_supported", NOT_SUPPORTED);
    },
    async cancel(runId) {
      const known = runThreads.get(runId);
      if (!known) return false;
      // A turn of queued runs stops the one running now (those queued behind it still run, as after any Stop).
      return (await known.connection.cancel(known.threadId, known.current?.() ?? runId)).ok;
    },
    attachStopFlag: async () => undefined,
    setThreadModel: async () => undefined,
    listFiles: async (threadId): Promise<FileEntry[]> => unwrap(await r.connection.thread(threadId)).files,
    async readFile(threadId, path, offset, limit) {
      const page = await r.connection.readFile(threadId, path, offset, limit);
      if (page.ok) return page;
      const code = page.error.code === "not_found" ? "file_not_found" : "not_supported";
      return err({ name: "FileError", code, message: page.error.message });
    },
    async fileBytes(threadId, path) {
      const page = await r.connection.readFile(threadId, path, 0, Number.MAX_SAFE_INTEGER);
      if (!page.ok)
        return err({
          name: "FileError",
          code: page.error.code === "not_found" ? "file_not_found" : "not_supported",
          message: page.error.message,
        });
      return ok(new TextEncoder().encode(page.value.lines.map((l) => `${l}\n`).join("")));
    },
    writeFile: async () => err({ name: "FileError", code: "not_supported", message: NOT_SUPPORTED }),
    deleteFile: async () => err({ name: "FileError", code: "not_supported", message: NOT_SUPPORTED }),
    workspaceZip: async () => {
      throw new DeeptabError("not_supported", NOT_SUPPORTED);
    },
    rewindPreview: async () => err({ name: "RewindError", code: "not_supported", message: NOT_SUPPORTED }),
    rewind: async () => err({ name: "RewindError", code: "not_supported", message: NOT_SUPPORTED }),
    turnChanges: async () => err({ name: "RewindError", code: "not_supported", message: NOT_SUPPORTED }),
    revertTurn: async () => err({ name: "RewindError", code: "not_supported", message: NOT_SUPPORTED }),
    renameThread: async () => err({ name: "ThreadError", code: "unavailable", message: NOT_SUPPORTED }),
    exportThread: async () => err({ name: "ThreadError", code: "unavailable", message: NOT_SUPPORTED }),
    importThread: async () => err({ name: "ThreadError", code: "unavailable", message: NOT_SUPPORTED }),
    async deleteThread(threadId) {
      const done = await r.connection.deleteThread(threadId);
      return done.ok ? ok(null) : err({ name: "ThreadError", code: "unavailable", message: done.error.message });
    },
  });
  /** The server's calls, made once per route. */
  let cached: { route: ServerRoute; calls: Partial<AgentClient> } | undefined;

  const own: Pick<RoutedClient, "announce" | "onThreadEvent"> = {
    announce() {
      for (const l of [...listeners]) l({ type: "thread_updated", threadId: "*", running: false });
    },
    onThreadEvent(listener) {
      listeners.add(listener);
      const off = worker.onThreadEvent((event) => {
        // The tab's own threads' news is not the server's.
        if (!route()) listener(event);
      });
      return () => {
        listeners.delete(listener);
        off();
      };
    },
  };

  return new Proxy(worker as RoutedClient, {
    get(target, prop, receiver) {
      if (prop === "announce" || prop === "onThreadEvent") return own[prop];
      const r = route();
      if (r) {
        if (cached?.route !== r) cached = { route: r, calls: overrides(r) };
        const override = cached.calls[prop as keyof AgentClient];
        if (override) return override;
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}
