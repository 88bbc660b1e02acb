/**
 * The page as a client of a LangGraph server (deeptab's graph, or any deepagents deployment): assistants, threads,
 * runs streamed as the page's {@link AgentEvent}s, Stop, rejoining a running run, answering an approval, and a
 * thread's state as the page's messages, todos and files (langgraph-state.ts). `@langchain/langgraph-sdk` loads on
 * the first connection (dynamic import): nothing of it is in the page's or the worker's startup code.
 *
 * Every call returns a {@link LangGraphResult}; the expected failures are values with a {@link LangGraphErrorCode}
 * and a message written for people (the server's URL, never the API key: a server's own words quoted in one, which may
 * echo the `x-api-key` it was sent, have it hidden by redactSecrets):
 * - `invalid_url`: not an http(s) URL;
 * - `unreachable`: nothing answered (and, from a public page to a local address, Chrome's Local Network Access); on a
 *   cross-origin isolated page, where a refused origin cannot be told from a dead server, the message names both;
 * - `cors`: the server answered but does not allow the page's origin (`http.cors.allow_origins` in langgraph.json);
 * - `unauthorized`: 401/403, the API key is missing or wrong;
 * - `not_found`: no such thread, run or assistant;
 * - `busy`: the thread runs already (a run of another tab or client);
 * - `approval_changed`: the decisions answer an approval that no longer waits (answered elsewhere);
 * - `server_error`: any other HTTP error;
 * - `run_failed`: a run ended with an error on the server (as the run's terminal `error` event).
 */
import type { Client, Thread } from "@langchain/langgraph-sdk";
import { redactSecrets } from "../core/redact.ts";
import { err, ok, type Result } from "../core/result.ts";
import type { Todo } from "../middleware/todos.ts";
import type { RunHandle } from "./client.ts";
import {
  approvalFromInterrupts,
  eventsFromPart,
  filePage,
  filesFromState,
  messagesFromState,
  subagentNester,
  todosFromState,
  type ServerInterrupt,
  type StreamPart,
} from "./langgraph-state.ts";
import { STOPPED_KEY } from "../protocol/message-marks.ts";
import type { AgentEvent, TerminalEvent } from "../protocol/events.ts";
import type { ApprovalDecision, PendingApproval } from "../protocol/approvals.ts";
import type { FileEntry, FilePage } from "../protocol/files.ts";
import type { MessageInfo } from "../protocol/messages.ts";
import type { ThreadCopy, ThreadInfo } from "../protocol/threads.ts";
import type { LangGraphError, LangGraphErrorCode } from "../protocol/errors.ts";

export type LangGraphResult<T> = Result<T, LangGraphError>;

/** Where the server is. */
export interface LangGraphTarget {
  /** The server's base URL (`http://127.0.0.1:2024`, a deployment's URL). */
  url: string;
  /** Sent as the `x-api-key` header (LangGraph Platform deployments, a server with custom auth); never in a message. */
  apiKey?: string;
}

/** An assistant (a graph with its configuration) the server serves. */
export interface AssistantInfo {
  id: string;
  graphId: string;
  name: string;
}

/** A server thread as the page shows it. */
export interface ServerThread {
  threadId: string;
  messages: MessageInfo[];
  todos: Todo[];
  files: FileEntry[];
  approval: PendingApproval | null;
  /** The thread's run in progress, if any (to rejoin it). */
  running: boolean;
}

/** What a run starts from: a user message, or the decisions answering the pending approval `approvalId`. */
export type RunInput = { text: string } | { decisions: ApprovalDecision[]; approvalId?: string };

/** The calls over one server; see the module's header for the error codes. */
export interface LangGraphConnection {
  readonly url: string;
  /** The server's assistants (graphs), e.g. to fill Settings → Runtime → Assistant. */
  assistants(): Promise<LangGraphResult<AssistantInfo[]>>;
  /** The server's threads, most recently updated first (at most `limit`). */
  threads(limit?: number): Promise<LangGraphResult<ThreadInfo[]>>;
  /** A thread's state; a thread the server does not have yet (the page's new thread) is an empty one. */
  thread(threadId: string): Promise<LangGraphResult<ServerThread>>;
  /** A page of a file of the thread's `files` channel (`file_not_found` as `not_found`). */
  readFile(threadId: string, path: string, offset: number, limit: number): Promise<LangGraphResult<FilePage>>;
  /**
   * Starts a run of `assistantId` on the thread (created when the server does not have it) and streams it: `onEvent`
   * sees every event, the terminal one included, which `done` also resolves with. The run goes on if the page goes
   * away (`onDisconnect: "continue"`), so a reload can {@link join} it.
   */
  run(threadId: string, assistantId: string, input: RunInput, onEvent: (event: AgentEvent) => void): Promise<LangGraphResult<RunHandle>>;
  /**
   * Steering on the server: a run of `text` queued behind the thread's run in progress with LangGraph's multitask
   * strategy `"enqueue"` (the server starts it once the current run ends); resolves with its run id.
   */
  enqueue(threadId: string, assistantId: string, text: string): Promise<LangGraphResult<string>>;
  /** Cancels a queued run that has not started; false when it has started (or ended) meanwhile. */
  dropQueued(threadId: string, runId: string): Promise<LangGraphResult<boolean>>;
  /**
   * The thread's run in progress, or null: the running one, else the oldest pending one (queued runs start in the
   * order they were sent). Runs in `except` are passed over (those a caller has followed already).
   */
  activeRun(threadId: string, except?: ReadonlySet<string>): Promise<LangGraphResult<string | null>>;
  /**
   * Streams a running run's events, as {@link run} does: from now on (after a reload, where the thread's checkpoint
   * shows what came before), or with `from: "start"` from its first event (a queued run the page has shown none of;
   * its stream is resumable, so the server replays what it already sent before the page joined).
   */
  join(threadId: string, runId: string, onEvent: (event: AgentEvent) => void, from?: "now" | "start"): Promise<LangGraphResult<RunHandle>>;
  /** Stops a run (LangGraph's `interrupt` action: the checkpoint so far is kept); its stream ends `cancelled`. */
  cancel(threadId: string, runId: string): Promise<LangGraphResult<null>>;
  /** Deletes a thread on the server. */
  deleteThread(threadId: string): Promise<LangGraphResult<null>>;
  /**
   * A server thread's messages and `files` channel as a {@link ThreadCopy}, as the server gives them: unchecked (the
   * worker's `createThreadFrom` checks and converts them before it writes anything).
   */
  copy(threadId: string): Promise<LangGraphResult<ThreadCopy>>;
  /**
   * A new thread of `graphId` on the server holding `copy`'s messages and files (one state update); resolves with its
   * id. A failed update deletes the half-made thread.
   */
  createThreadFrom(copy: ThreadCopy, graphId: string): Promise<LangGraphResult<string>>;
}

const STREAM_MODE = ["messages-tuple", "updates"] as const;
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+)$/;

function failure(code: LangGraphErrorCode, message: string, status?: number): { ok: false; error: LangGraphError } {
  return err({ name: "LangGraphError", code, message, ...(status ? { status } : {}) });
}

/** The page's origin, when there is a page (not in Node). */
function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== "null" ? location.origin : undefined;
}

/**
 * Tells a refused cross-origin request from a server that is not there: a `no-cors` request to the server's `/ok`
 * succeeds (opaquely) exactly when something answers at that address.
 */
async function answersOpaquely(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/ok`, { mode: "no-cors", cache: "no-store" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Any thrown SDK or fetch error as a coded one, with a message for people; the server's own text in it has `secrets`
 * (the key sent) hidden.
 */
async function classify(cause: unknown, url: string, secrets: readonly string[]): Promise<{ ok: false; error: LangGraphError }> {
  const status = (cause as { status?: unknown } | null)?.status;
  const text = redactSecrets(cause instanceof Error ? cause.message : String(cause), secrets);
  if (typeof status === "number") {
    if (status === 401 || status === 403)
      return failure(
        "unauthorized",
        `The LangGraph server at ${url} refused the request (HTTP ${status}): check the API key in Settings → Runtime.`,
        status,
      );
    if (status === 404) return failure("not_found", `The LangGraph server at ${url} has no such thread, run or assistant (HTTP 404).`, 404);
    if (status === 409)
      return failure("busy", "This thread is running on the server already (another tab or client): wait for it or Stop it.", 409);
    return failure(
      "server_error",
      `The LangGraph server at ${url} answered HTTP ${status}: ${text.replace(/^HTTP \d+: /, "").slice(0, 300)}`,
      status,
    );
  }
  const origin = pageOrigin();
  const crossOrigin = origin !== undefined && new URL(url).origin !== origin;
  const setting = `"${origin}" to "http": { "cors": { "allow_origins": [...] } } in the server's langgraph.json, and restart the server`;
  if (crossOrigin && (await answersOpaquely(url)))
    return failure("cors", `The LangGraph server at ${url} answered, but does not allow this page's origin (${origin}). Add ${setting}.`);
  const host = new URL(url).hostname;
  const localFromPublic = origin && LOCAL_HOST.test(host) && !LOCAL_HOST.test(new URL(origin).hostname);
  // A cross-origin isolated page (require-corp) cannot make even an opaque request to a server that sends no
  // Cross-Origin-Resource-Policy (LangGraph's API does not), so a refused origin and a dead server look alike: say both.
  const orCors =
    crossOrigin && globalThis.crossOriginIsolated === true
      ? ` If it is, it does not allow this page's origin (${origin}): add ${setting}.`
      : "";
  return failure(
    "unreachable",
    `Cannot reach the LangGraph server at ${url}: is it running (\`npm run serve\`, \`npx @langchain/langgraph-cli dev\`)?` +
      orCors +
      (localFromPublic
        ? " A public page reaching a local address needs the browser's permission (Chrome 142+: Local Network Access; " +
          "allow it in the site's settings)."
        : ""),
  );
}

/** The first user message, as the thread list's title (60 characters at most, as the tab's). */
function titleOf(messages: MessageInfo[]): string {
  const first =
    messages
      .find((m) => m.role === "user")
      ?.content.trim()
      .replace(/\s+/g, " ") ?? "";
  return first ? (first.length > 60 ? `${first.slice(0, 59)}…` : first) : "New thread";
}

type Values = { messages?: unknown; files?: unknown; todos?: unknown };

/** Connects to a server (loading the SDK); `invalid_url` before any request when `target.url` is not http(s). */
export async function connectLangGraph(target: LangGraphTarget): Promise<LangGraphResult<LangGraphConnection>> {
  let parsed: URL;
  try {
    parsed = new URL(target.url.trim());
  } catch {
    return failure("invalid_url", `"${target.url}" is not a URL: give the server's address, e.g. http://127.0.0.1:2024.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return failure("invalid_url", `The server URL must start with http:// or https:// (got ${parsed.protocol}).`);
  const url = parsed.href.replace(/\/+$/, "");
  const { Client } = await import("@langchain/langgraph-sdk");
  const client: Client = new Client({
    apiUrl: url,
    // null: never the SDK's environment lookup (LANGGRAPH_API_KEY …); the key is the one the person gave, if any.
    apiKey: target.apiKey || null,
    // One retry: an unreachable server is reported in seconds, not after the SDK's backoff.
    callerOptions: { maxRetries: 1 },
  });
  /** Hidden in every server text a failure quotes: a server may echo the key it was sent. */
  const secrets = target.apiKey ? [target.apiKey] : [];
  const call = async <T>(fn: () => Promise<T>): Promise<LangGraphResult<T>> => {
    try {
      return ok(await fn());
    } catch (cause) {
      return classify(cause, url, secrets);
    }
  };

  /**
   * Keeps the answer a stopped run was streaming, as the tab does (worker/runs/stop.ts): written into the thread as the
   * output of the node the server was running (its checkpoint's only next node, a model call), marked stopped. Nothing
   * is written when the stop fell elsewhere (no text, or not one node pending); a failure leaves the thread as it is.
   */
  async function keepStopped(threadId: string, text: string): Promise<void> {
    if (!text.trim()) return;
    try {
      const state = await client.threads.getState<Values>(threadId);
      if (state.next.length !== 1) return;
      const message = { type: "ai", content: text, response_metadata: { [STOPPED_KEY]: true } };
      await client.threads.updateState(threadId, { values: { messages: [message] }, asNode: state.next[0]! });
    } catch {
      // The stop happened; only the shown text is not kept.
    }
  }

  /**
   * A listed thread's values and pending interrupts. The API forgets a thread's values when a run of it is stopped
   * (langgraph-api's queue sets them from no checkpoint), while its checkpoints keep the user's message and every
   * finished step: those are read then, so Stop loses nothing shown.
   */
  async function storedState(thread: Thread<Values>): Promise<{ values: Values; interrupts: ServerInterrupt[] }> {
    if (thread.values) return { values: thread.values, interrupts: Object.values(thread.interrupts ?? {}).flat() };
    const state = await client.threads.getState<Values>(thread.thread_id);
    return { values: state.values ?? {}, interrupts: state.tasks.flatMap((t) => (t.interrupts ?? []) as ServerInterrupt[]) };
  }

  /** Streams `parts` into `onEvent` (after the run id arrives), ending with one terminal event. */
  async function follow(
    parts: AsyncGenerator<StreamPart>,
    knownRunId: string | undefined,
    onEvent: (event: AgentEvent) => void,
    threadId: string,
  ): Promise<LangGraphResult<RunHandle>> {
    let runId = knownRunId;
    let first: IteratorResult<StreamPart> | undefined;
    try {
      // The first part of a new run is its metadata (the run id); a refused run throws here.
      if (!runId) {
        first = await parts.next();
        const data = first.done ? undefined : (first.value.data as { run_id?: unknown } | undefined);
        if (typeof data?.run_id !== "string") return failure("server_error", `The LangGraph server at ${url} did not start the run.`);
        runId = data.run_id;
      }
    } catch (cause) {
      return classify(cause, url, secrets);
    }
    const id = runId;
    let paused = false;
    const nest = subagentNester();
    /** The top-level answer streaming now (since the last finished assistant message). */
    let partial = "";
    const done = (async (): Promise<TerminalEvent> => {
      let terminal: TerminalEvent | undefined;
      try {
        for await (const part of parts) {
          if (part.event === "error") {
            const data = part.data as { message?: unknown; error?: unknown } | undefined;
            const detail =
              typeof data?.message === "string" ? data.message : typeof data?.error === "string" ? data.error : "unknown error";
            terminal = {
              type: "error",
              runId: id,
              error: {
                name: "LangGraphError",
                code: "run_failed",
                message: `The run failed on the server: ${redactSecrets(detail, secrets)}`,
              },
            };
            break;
          }
          for (const event of eventsFromPart(part, id).map(nest)) {
            if (event.type === "interrupt") paused = true;
            if (event.type === "token" && !event.taskId) partial += event.text;
            else if (event.type === "messages" && !event.taskId && event.messages.some((m) => m.role === "assistant")) partial = "";
            onEvent(event);
          }
        }
      } catch (cause) {
        const failed = await classify(cause, url, secrets);
        terminal = { type: "error", runId: id, error: failed.error };
      }
      if (!terminal) {
        // How the run ended: the server's word (a stopped run's stream just ends).
        const run = await client.runs.get(threadId, id).catch(() => undefined);
        const status = run?.status;
        terminal =
          status === "error"
            ? { type: "error", runId: id, error: { name: "LangGraphError", code: "run_failed", message: "The run failed on the server." } }
            : { type: "done", runId: id, status: paused ? "interrupted" : status === "interrupted" ? "cancelled" : "complete" };
        if (terminal.type === "done" && terminal.status === "cancelled") await keepStopped(threadId, partial);
      }
      onEvent(terminal);
      return terminal;
    })();
    return ok({ runId: id, done });
  }

  const connection: LangGraphConnection = {
    url,
    assistants: () =>
      call(async () => {
        const found = await client.assistants.search({ limit: 100 });
        return found.map((a) => ({ id: a.assistant_id, graphId: a.graph_id, name: a.name || a.graph_id }));
      }),
    threads: (limit = 100) =>
      call(async () => {
        const found = await client.threads.search<Values>({ limit, sortBy: "updated_at", sortOrder: "desc" });
        const stored = await Promise.all(found.map(storedState));
        return found.map((t, i): ThreadInfo => {
          const messages = messagesFromState(stored[i]!.values.messages);
          return {
            id: t.thread_id,
            title: titleOf(messages),
            createdAt: t.created_at,
            updatedAt: t.updated_at,
            messageCount: messages.filter((m) => m.role === "user" || (m.role === "assistant" && m.content.trim())).length,
            ...(t.status === "busy" ? { running: true } : {}),
          };
        });
      }),
    async thread(threadId) {
      // A search by id, not GET /threads/<id>: a thread the server does not have yet is no 404 in the page's console.
      const found = await call(() => client.threads.search<Values>({ ids: [threadId], limit: 1 }));
      if (!found.ok) return found;
      const thread = found.value.find((t) => t.thread_id === threadId);
      if (!thread) return ok({ threadId, messages: [], todos: [], files: [], approval: null, running: false });
      const stored = await call(() => storedState(thread));
      if (!stored.ok) return stored;
      const { values, interrupts } = stored.value;
      return ok({
        threadId,
        messages: messagesFromState(values.messages),
        todos: todosFromState(values.todos),
        files: filesFromState(values.files),
        approval: approvalFromInterrupts(interrupts),
        running: thread.status === "busy",
      });
    },
    async readFile(threadId, path, offset, limit) {
      const state = await call(() => client.threads.getState<Values>(threadId, undefined, { select: ["values.files"] } as never));
      if (!state.ok) return state;
      const page = filePage(state.value.values?.files, path, offset, limit);
      return page ? ok(page) : failure("not_found", `No file ${path} in this thread's files on the server.`);
    },
    async run(threadId, assistantId, input, onEvent) {
      if ("decisions" in input && input.approvalId) {
        const shown = await connection.thread(threadId);
        if (!shown.ok) return shown;
        if (shown.value.approval?.id !== input.approvalId)
          return failure("approval_changed", "This approval was answered or changed meanwhile: the thread now shows what waits.");
      }
      const payload =
        "text" in input
          ? { input: { messages: [{ role: "user", content: input.text }] } }
          : {
              // deepagents' HITL response; one pending request at a time (the page shows one), so no resume map.
              command: { resume: { decisions: input.decisions } },
            };
      let parts: AsyncGenerator<StreamPart>;
      try {
        parts = client.runs.stream(threadId, assistantId, {
          ...payload,
          streamMode: [...STREAM_MODE],
          streamSubgraphs: true,
          streamResumable: true,
          onDisconnect: "continue",
          ifNotExists: "create",
          multitaskStrategy: "reject",
        }) as AsyncGenerator<StreamPart>;
      } catch (cause) {
        return classify(cause, url, secrets);
      }
      return follow(parts, undefined, onEvent, threadId);
    },
    enqueue: (threadId, assistantId, text) =>
      call(async () => {
        const run = await client.runs.create(threadId, assistantId, {
          input: { messages: [{ role: "user", content: text }] },
          // What the page follows when the run starts (joined: the server streams only the modes a run was made with).
          streamMode: [...STREAM_MODE],
          streamSubgraphs: true,
          streamResumable: true,
          // The strategy for a run sent while another runs: wait for it to end, then run (steering on a server).
          multitaskStrategy: "enqueue",
          ifNotExists: "create",
        });
        return run.run_id;
      }),
    dropQueued: (threadId, runId) =>
      call(async () => {
        const run = await client.runs.get(threadId, runId);
        if (run.status !== "pending") return false;
        await client.runs.cancel(threadId, runId, false);
        return true;
      }),
    activeRun: (threadId, except) =>
      call(async () => {
        const runs = (await client.runs.list(threadId, { limit: 50 })).filter((r) => !except?.has(r.run_id));
        const pending = runs.filter((r) => r.status === "pending").sort((a, b) => a.created_at.localeCompare(b.created_at));
        return (runs.find((r) => r.status === "running") ?? pending[0])?.run_id ?? null;
      }),
    join: (threadId, runId, onEvent, from = "now") =>
      follow(
        // Last-Event-ID -1: the server replays the resumable stream from its first event.
        client.runs.joinStream(threadId, runId, {
          streamMode: [...STREAM_MODE],
          ...(from === "start" ? { lastEventId: "-1" } : {}),
        }) as AsyncGenerator<StreamPart>,
        runId,
        onEvent,
        threadId,
      ),
    cancel: (threadId, runId) => call(async () => (await client.runs.cancel(threadId, runId, false, "interrupt"), null)),
    deleteThread: (threadId) => call(async () => (await client.threads.delete(threadId), null)),
    async copy(threadId) {
      const state = await call(() => client.threads.getState<Values>(threadId));
      if (!state.ok) return state;
      const values = state.value.values ?? {};
      const messages = Array.isArray(values.messages) ? (values.messages as ThreadCopy["messages"]) : [];
      return ok({
        title: titleOf(messagesFromState(values.messages)),
        messages,
        files: (values.files ?? {}) as ThreadCopy["files"],
      });
    },
    async createThreadFrom(copy, graphId) {
      const created = await call(() => client.threads.create({ graphId, metadata: { title: copy.title, copied_from: "deeptab tab" } }));
      if (!created.ok) return created;
      const threadId = created.value.thread_id;
      const values = { messages: copy.messages, ...(Object.keys(copy.files).length ? { files: copy.files } : {}) };
      const updated =
        copy.messages.length || Object.keys(copy.files).length
          ? await call(() => client.threads.updateState(threadId, { values }))
          : ok(null);
      if (!updated.ok) {
        await call(() => client.threads.delete(threadId));
        return updated;
      }
      return ok(threadId);
    },
  };
  return ok(connection);
}
