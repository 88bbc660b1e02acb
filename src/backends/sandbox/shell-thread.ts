/**
 * The offline shell's own thread: where a command runs so that it can be
 * stopped. just-bash is an interpreter on a JavaScript thread; a CPU-bound
 * command (`while true; do :; done`) gives that thread no turn until it ends,
 * so it must not be the agent's thread. A command runs on a {@link ShellThread}
 * (a dedicated Web Worker in browsers; a worker_threads Worker in Node tests),
 * which is terminated when the run is stopped or the command times out, and
 * replaced for the next command.
 *
 * Files stay where they are. The thread has no files of its own: every
 * filesystem call of the command is a message to the caller, which answers it
 * with the shell's filesystem ({@link ShellFs} over the workspace store, the
 * source of truth, and the session's `/tmp`). So IndexedDB is written only by
 * the agent's thread, through the same atomic units as the file tools.
 *
 * What a killed command leaves: every file operation it completed (each is one
 * atomic unit: a file is replaced whole or not at all), and nothing else. A
 * request still running when the thread is killed finishes (or fails) as one
 * unit before `execute` returns; requests arriving after the kill are ignored.
 * Nothing is rolled back: as with a process killed mid-script, earlier
 * commands' effects stay.
 */
import type { PackageDelivery, PackageRequest } from "./python-packages.ts";
import type { ShellRequest, ShellRunResult } from "./shell-runner.ts";

/** The filesystem calls a command may make (all of just-bash's asynchronous IFileSystem methods the shell implements). */
export const FS_METHODS = [
  "readFile",
  "readFileBuffer",
  "writeFile",
  "appendFile",
  "exists",
  "stat",
  "lstat",
  "realpath",
  "chmod",
  "utimes",
  "mkdir",
  "readdir",
  "readdirWithFileTypes",
  "rm",
  "cp",
  "mv",
  "symlink",
  "link",
  "readlink",
] as const;
export type FsMethod = (typeof FS_METHODS)[number];

/** Caller → thread. */
export type ToShellThread =
  | { type: "run"; id: number; request: ShellRequest }
  | { type: "fs-reply"; call: number; ok: true; value: unknown }
  | { type: "fs-reply"; call: number; ok: false; message: string; code?: string };

/** Thread → caller. */
export type FromShellThread =
  | { type: "started"; id: number }
  | { type: "fs"; id: number; call: number; method: FsMethod; args: unknown[] }
  | { type: "done"; id: number; result: ShellRunResult }
  /**
   * Python's first load on this thread (python-run.ts), or packages being fetched and installed (python-wheels.ts):
   * `loading` pauses the command's timeout, `loaded` restarts it.
   */
  | { type: "status"; id: number; phase: "loading" | "loaded"; text: string }
  /** python3 asks for the packages its program imports (answered with an `fs-reply` whose value is a PackageDelivery). */
  | { type: "packages"; id: number; call: number; request: PackageRequest };

/** One end of the messages between caller and thread. */
export interface ShellChannel<In, Out> {
  post(message: Out): void;
  /** Sets the handler of incoming messages (replacing any earlier one). */
  listen(handler: (message: In) => void): void;
}

/**
 * A thread a command can run on, as the caller holds it.
 *
 * Contract: messages are delivered in order; after `terminate()` no message
 * from the thread is delivered and the thread runs no more code; `onFailure`
 * fires once if the thread dies by itself (an uncaught error, out of memory),
 * also for a handler set after that.
 */
export interface ShellThread extends ShellChannel<FromShellThread, ToShellThread> {
  /** Sets the handler of the thread dying by itself; called at once if it already has. */
  onFailure(handler: (reason: string) => void): void;
  terminate(): void;
  /** Node: keep the process alive while a command runs (`true`), not while idle. Optional. */
  hold?(busy: boolean): void;
}

export type ShellThreadFactory = () => ShellThread;

/**
 * Threads for commands: an idle one is reused, a killed one replaced. One
 * thread runs one command at a time; parallel commands get their own threads.
 */
export class ShellThreads {
  readonly #spawn: ShellThreadFactory;
  readonly #maxIdle: number;
  readonly #idle: ShellThread[] = [];

  constructor(spawn: ShellThreadFactory, maxIdle = 2) {
    this.#spawn = spawn;
    this.#maxIdle = maxIdle;
  }

  acquire(): ShellThread {
    return this.#idle.pop() ?? this.#spawn();
  }

  /**
   * Starts a thread ahead of the first command, if none is idle (a new thread
   * loads the interpreter, which takes a moment): call it when commands are
   * likely soon, such as when a run with `execute` starts.
   */
  warm(): void {
    if (this.#idle.length > 0) return;
    try {
      const thread = this.#spawn();
      thread.hold?.(false);
      this.#idle.push(thread);
    } catch {
      // Spawned again at the next acquire, where a failure is the command's.
    }
  }

  /** A thread whose command ended normally: kept for the next command. */
  release(thread: ShellThread): void {
    if (this.#idle.length < this.#maxIdle) {
      thread.hold?.(false);
      this.#idle.push(thread);
    } else thread.terminate();
  }

  /** A thread whose command was killed: terminated, and a fresh one started for the next command. */
  discard(thread: ShellThread): void {
    thread.terminate();
    this.warm();
  }

  /** Terminates the idle threads (a running command keeps its thread until it ends). */
  close(): void {
    for (const thread of this.#idle.splice(0)) thread.terminate();
  }
}

/** How long a new thread may take to start a command (loading the interpreter) before it counts as crashed. */
export const THREAD_START_MS = 60_000;

/**
 * How long Python's first load on a thread (about 13 MB: fetched once, compiled) may take. It does not count against
 * the command's timeout (which restarts once Python is ready): else a short timeout would kill every first load and
 * Python would never become ready.
 */
export const PYTHON_LOAD_MS = 180_000;

/** How a command on a thread ended. */
export type ThreadOutcome =
  | { kind: "done"; result: ShellRunResult }
  | { kind: "timeout" }
  | { kind: "aborted"; reason: unknown }
  | { kind: "crashed"; reason: string }
  | { kind: "storage"; error: Error };

/** What the caller answers a thread's filesystem calls with. */
export type ShellFsCalls = Record<FsMethod, (...args: never[]) => Promise<unknown>>;

const METHODS = new Set<string>(FS_METHODS);
let nextId = 1;

/**
 * Runs one command on a thread of `threads`, answering its filesystem calls
 * with `fs`, and kills the thread `timeoutMs` after the command started (a new
 * thread's loading does not count) or when `signal` aborts. Resolves once the
 * command ended and no filesystem call of it is still running; the thread is
 * released to `threads` or discarded (killed, crashed, storage failure).
 */
export function runOnThread(
  threads: ShellThreads,
  fs: ShellFsCalls,
  request: ShellRequest,
  options: {
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    onStatus?: (text: string) => void;
    /** Answers python3's requests for packages (the request says `pythonPackages` when there is a source). */
    packages?: (request: PackageRequest) => Promise<PackageDelivery>;
  },
): Promise<ThreadOutcome> {
  const id = nextId++;
  const thread = threads.acquire();
  thread.hold?.(true);
  const running = new Set<Promise<unknown>>();
  let settled = false;
  return new Promise<ThreadOutcome>((resolve) => {
    const finish = (outcome: ThreadOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (outcome.kind === "done") threads.release(thread);
      else threads.discard(thread);
      // Calls already running finish as whole units before the caller hears the outcome.
      void Promise.allSettled([...running]).then(() => resolve(outcome));
    };
    const onAbort = () => finish({ kind: "aborted", reason: options.signal?.reason });
    let timer = setTimeout(() => finish({ kind: "crashed", reason: "the shell's thread did not start" }), THREAD_START_MS);
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    thread.listen((message) => {
      if (settled || message.id !== id) return;
      if (message.type === "started") {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ kind: "timeout" }), options.timeoutMs);
        return;
      }
      if (message.type === "done") return finish({ kind: "done", result: message.result });
      if (message.type === "status") {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ kind: "timeout" }), message.phase === "loading" ? PYTHON_LOAD_MS : options.timeoutMs);
        if (message.text) options.onStatus?.(message.text);
        return;
      }
      if (message.type === "packages") {
        const deliver = options.packages ?? (() => Promise.reject(new Error("no package source is set")));
        return answer(message.call, () => deliver(message.request));
      }
      const { call, method, args } = message;
      if (!METHODS.has(method)) {
        thread.post({ type: "fs-reply", call, ok: false, message: `EINVAL: unknown filesystem call ${String(method)}`, code: "EINVAL" });
        return;
      }
      answer(call, () => (fs[method] as (...a: unknown[]) => Promise<unknown>)(...args), true);
    });

    /**
     * Runs one of the thread's requests and answers it with an `fs-reply` unless the command is over; the run waits
     * for it before the caller hears the outcome. A storage fault of a filesystem call (`storage`) ends the command.
     */
    function answer(call: number, work: () => Promise<unknown>, storage = false): void {
      const op = work().then(
        (value) => {
          if (!settled) thread.post({ type: "fs-reply", call, ok: true, value });
        },
        (err: unknown) => {
          if (storage && err instanceof Error && err.name === "StorageError") return finish({ kind: "storage", error: err });
          if (settled) return;
          const code = (err as { code?: unknown } | null)?.code;
          thread.post({
            type: "fs-reply",
            call,
            ok: false,
            message: err instanceof Error ? err.message : String(err),
            ...(typeof code === "string" ? { code } : {}),
          });
        },
      );
      running.add(op);
      void op.finally(() => running.delete(op));
    }
    thread.post({ type: "run", id, request: { ...request, pythonLoadMs: PYTHON_LOAD_MS } });
    thread.onFailure((reason) => finish({ kind: "crashed", reason }));
  });
}

/** A ShellThread over a Web Worker (or anything shaped like one). */
export function workerShellThread(worker: Worker): ShellThread {
  let failed: ((reason: string) => void) | undefined;
  let dead = false;
  let crash: string | undefined;
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    if (dead) return;
    dead = true;
    crash = event.message || "the shell's worker stopped";
    failed?.(crash);
  });
  return {
    post: (message) => worker.postMessage(message),
    listen: (handler) => {
      worker.onmessage = (event: MessageEvent<FromShellThread>) => {
        if (!dead) handler(event.data);
      };
    },
    onFailure: (handler) => {
      failed = handler;
      if (crash !== undefined) handler(crash);
    },
    terminate: () => {
      dead = true;
      worker.terminate();
    },
  };
}

let shared: ShellThreads | undefined;

/**
 * The threads of this page or worker: dedicated Web Workers running
 * shell.worker.ts. Undefined where Web Workers do not exist (Node: commands
 * then run on the caller's thread unless the caller passes threads).
 */
export function defaultShellThreads(): ShellThreads | undefined {
  if (typeof Worker !== "function") return undefined;
  shared ??= new ShellThreads(() =>
    workerShellThread(new Worker(new URL("./shell.worker.ts", import.meta.url), { type: "module", name: "deeptab-shell" })),
  );
  return shared;
}
