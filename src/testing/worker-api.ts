/**
 * Node tests of the worker API: one API over its own IndexedDB database
 * (fake-indexeddb, which the test imports), with tokens sent unbatched.
 * Pass `db` to open a second API on the same database (another worker), and
 * `fetch` to route its provider requests (e.g. a cuttable one, cut-fetch.ts).
 * `collectRun` starts a run and gathers its events.
 */
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import { createWorkerApi } from "../worker/app.ts";
import { createLayout } from "../worker/layout.ts";
import type { AgentEvent, TerminalEvent } from "../protocol/events.ts";
import type { AgentWorkerApi } from "../protocol/worker-api.ts";

export function openWorkerApi(
  db = `t-${crypto.randomUUID()}`,
  options: { fetch?: typeof fetch; notify?: Parameters<typeof createWorkerApi>[0]["notify"] } = {},
): { api: ReturnType<typeof createWorkerApi>; db: string } {
  const api = createWorkerApi({
    storage: { saver: new IndexedDBSaver(`${db}-checkpoints`), layout: createLayout(db) },
    notify: options.notify ?? (() => undefined),
    tokenBatchMs: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { api, db };
}

/** A run started through the API: its id, its events as they come, and its terminal event. */
export interface CollectedRun {
  runId: string;
  events: AgentEvent[];
  done: Promise<TerminalEvent>;
}

/**
 * Runs a start call of the worker API (startRun, resume, …; e.g. `(cb) => api.startRun(id, input, cb)`) to its
 * terminal event: its run id, every event it sent, and the terminal event to await. A start the worker refuses
 * throws, naming the code.
 */
export async function collectRun(start: (cb: (e: AgentEvent) => void) => ReturnType<AgentWorkerApi["startRun"]>): Promise<CollectedRun> {
  const events: AgentEvent[] = [];
  let finish!: (e: TerminalEvent) => void;
  const done = new Promise<TerminalEvent>((r) => (finish = r));
  const started = await start((e) => {
    events.push(e);
    if (e.type === "done" || e.type === "error") finish(e);
  });
  if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
  return { runId: started.value, events, done };
}

/** Waits until `check` holds, polling every 10 ms; fails after `ms` (a bound for a loaded machine) naming `what`. */
export async function waitUntil(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Stores the agent folder `files` (path → text) through the API, as a reviewed upload the person used: its id. */
export async function storeFolderAgent(api: AgentWorkerApi, files: Record<string, string>): Promise<string> {
  const encoder = new TextEncoder();
  const preview = await api.previewAgentUpload({
    files: Object.entries(files).map(([path, text]) => ({ path, content: encoder.encode(text) })),
  });
  if (!preview.ok) throw new Error(preview.error.message);
  const used = await api.useAgent(preview.value.summary.hash!);
  if (!used.ok) throw new Error(used.error.message);
  return used.value.id;
}
