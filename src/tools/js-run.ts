/**
 * One run of JavaScript in QuickJS compiled to WebAssembly (`quickjs-emscripten-core` with the release-sync
 * variant; the .wasm is bundled from node_modules, never fetched from a CDN). Each run gets a fresh runtime and
 * context (no globals survive it), a memory limit, a deadline enforced by QuickJS's interrupt handler (a runaway loop
 * stops inside the interpreter) and by a timer while the code awaits the host, and no network, DOM or timers: the
 * only globals besides the language's own are `console` and the host functions the caller gives. This module is
 * loaded on demand (the interpreter's code and wasm are not in the worker's startup JS).
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core";

/** A host function callable from the code: takes the arguments as plain JSON values, resolves to a JSON value. */
export type HostFunction = (...args: unknown[]) => Promise<unknown>;

export interface JsRunOptions {
  /** Wall-clock limit for the whole run, including awaited host calls. */
  timeoutMs: number;
  /** Bytes QuickJS may allocate (a memory bomb throws an out-of-memory error inside the code). */
  memoryLimitBytes: number;
  /** Characters of console output kept; beyond them the output says how many were dropped. */
  maxOutputChars: number;
  /** Global async functions (`readFile`) and namespaces of them (`tools.grep`, `fs.ls`). */
  globals?: Readonly<Record<string, HostFunction | Readonly<Record<string, HostFunction>>>>;
  /**
   * Stop (the run's Stop button): read by the interrupt handler and while the code awaits the host. A synchronous
   * loop holds this thread, so an abort signalled from this thread's event loop is only seen at the deadline (or
   * through `stopFlag`).
   */
  signal?: AbortSignal | undefined;
  /**
   * Stop from another thread: a shared flag (element 0 non-zero: stop) the page sets before it sends Stop, read by
   * the interrupt handler, so even a synchronous loop ends at once. Only where memory can be shared (a cross-origin
   * isolated page, as the app's is); elsewhere the deadline ends such a loop.
   */
  stopFlag?: Int32Array | undefined;
}

export interface JsRunResult {
  ok: boolean;
  /** Console lines, in order. */
  logs: string[];
  /** Console characters dropped past `maxOutputChars`. */
  logsDroppedChars: number;
  /** The last expression's value (or the `default` export of code with top-level `await`), as JSON-able data. */
  value?: unknown;
  error?: { name: string; message: string; stack?: string };
  /** Why the run was stopped from outside, when it was. */
  stopped?: "timeout" | "aborted";
}

/** upstream @langchain/quickjs's defaults: 50 MB of memory, 320 KB of stack, 30 s. */
export const DEFAULT_MEMORY_LIMIT_BYTES = 50 * 1024 * 1024;
const DEFAULT_MAX_STACK_BYTES = 320 * 1024;
export const DEFAULT_JS_TIMEOUT_MS = 30_000;

let module: Promise<QuickJSWASMModule> | undefined;

/** The QuickJS module, compiled once per worker (a run still gets its own runtime and context). */
function loadQuickJS(): Promise<QuickJSWASMModule> {
  module ??= (async () => {
    const [{ newQuickJSWASMModuleFromVariant }, variant] = await Promise.all([
      import("quickjs-emscripten-core"),
      import("@jitl/quickjs-wasmfile-release-sync"),
    ]);
    return newQuickJSWASMModuleFromVariant(variant.default);
  })();
  module.catch(() => (module = undefined));
  return module;
}

class Output {
  readonly lines: string[] = [];
  dropped = 0;
  #used = 0;
  constructor(private readonly max: number) {}
  push(line: string): void {
    const room = this.max - this.#used;
    if (room <= 0) {
      this.dropped += line.length + 1;
      return;
    }
    const kept = line.length <= room ? line : line.slice(0, room);
    this.lines.push(kept);
    this.#used += kept.length + 1;
    this.dropped += line.length - kept.length;
  }
}

function consoleText(vm: QuickJSContext, args: QuickJSHandle[]): string {
  return args
    .map((handle) => {
      const value: unknown = vm.dump(handle);
      if (typeof value === "string") return value;
      if (value === undefined) return "undefined";
      try {
        return JSON.stringify(value) ?? String(value);
      } catch {
        return String(value);
      }
    })
    .join(" ");
}

function errorOf(value: unknown): NonNullable<JsRunResult["error"]> {
  if (typeof value === "object" && value !== null) {
    const { name, message, stack } = value as { name?: unknown; message?: unknown; stack?: unknown };
    return {
      name: typeof name === "string" ? name : "Error",
      message: typeof message === "string" ? message : JSON.stringify(value),
      ...(typeof stack === "string" && stack.trim() ? { stack: stack.trimEnd() } : {}),
    };
  }
  return { name: "Error", message: String(value) };
}

/** Runs `code` once; never throws for anything the code does (errors, limits, Stop come back in the result). */
export async function runJs(code: string, options: JsRunOptions): Promise<JsRunResult> {
  const quickjs = await loadQuickJS();
  const deadline = Date.now() + options.timeoutMs;
  let stopped: JsRunResult["stopped"];
  const stop = (): boolean => {
    if (options.signal?.aborted || (options.stopFlag && Atomics.load(options.stopFlag, 0) !== 0)) stopped = "aborted";
    else if (Date.now() > deadline) stopped = "timeout";
    return stopped !== undefined;
  };
  const runtime = quickjs.newRuntime({
    memoryLimitBytes: options.memoryLimitBytes,
    maxStackSizeBytes: DEFAULT_MAX_STACK_BYTES,
    interruptHandler: stop,
  });
  const vm = runtime.newContext();
  const output = new Output(options.maxOutputChars);
  const pending = new Set<QuickJSDeferredPromise>();
  let closed = false;
  const pump = (): void => {
    if (!closed) runtime.executePendingJobs().dispose();
  };

  const hostFunction = (name: string, fn: HostFunction): QuickJSHandle =>
    vm.newFunction(name, (...handles) => {
      const args = handles.map((handle) => vm.dump(handle) as unknown);
      const deferred = vm.newPromise();
      pending.add(deferred);
      const settle = (ok: boolean, value: unknown): void => {
        pending.delete(deferred);
        if (closed) return;
        if (ok) {
          const handle = value === undefined ? vm.undefined : jsonHandle(vm, value);
          deferred.resolve(handle);
          handle.dispose();
        } else {
          const handle = vm.newError(errorOf(value).message);
          deferred.reject(handle);
          handle.dispose();
        }
        deferred.dispose();
        pump();
      };
      Promise.resolve()
        .then(() => fn(...args))
        .then(
          (value) => settle(true, value),
          (cause: unknown) => settle(false, cause),
        );
      return deferred.handle;
    });

  try {
    const consoleObject = vm.newObject();
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      const fn = vm.newFunction(level, (...args) => {
        output.push(consoleText(vm, args));
      });
      vm.setProp(consoleObject, level, fn);
      fn.dispose();
    }
    vm.setProp(vm.global, "console", consoleObject);
    consoleObject.dispose();
    for (const [name, value] of Object.entries(options.globals ?? {})) {
      if (typeof value === "function") {
        const fn = hostFunction(name, value);
        vm.setProp(vm.global, name, fn);
        fn.dispose();
        continue;
      }
      const namespace = vm.newObject();
      for (const [key, fn] of Object.entries(value)) {
        const handle = hostFunction(key, fn);
        vm.setProp(namespace, key, handle);
        handle.dispose();
      }
      vm.setProp(vm.global, name, namespace);
      namespace.dispose();
    }
    return await evaluate(vm, code, pump, () => stop(), options.signal, deadline).then((settled) => ({
      ...settled,
      logs: output.lines,
      logsDroppedChars: output.dropped,
      ...(stopped ? { ok: false, stopped, error: stoppedError(stopped, options.timeoutMs) } : {}),
    }));
  } finally {
    closed = true;
    for (const deferred of pending) deferred.dispose();
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // A run stopped mid-await can leave objects QuickJS still counts; the whole runtime is dropped either way.
    }
  }
}

function stoppedError(stopped: "timeout" | "aborted", timeoutMs: number): NonNullable<JsRunResult["error"]> {
  return stopped === "timeout"
    ? { name: "TimeoutError", message: `The code ran longer than ${timeoutMs / 1000} seconds and was stopped.` }
    : { name: "AbortError", message: "The run was stopped." };
}

function jsonHandle(vm: QuickJSContext, value: unknown): QuickJSHandle {
  if (typeof value === "string") return vm.newString(value);
  const text = JSON.stringify(value);
  if (text === undefined) return vm.undefined;
  const parsed = vm.evalCode(`(${text})`);
  return vm.unwrapResult(parsed);
}

/** Compiles without running; true when it compiles. */
function compiles(vm: QuickJSContext, code: string, type: "global" | "module"): boolean {
  const probe = vm.evalCode(code, "js_eval.js", { type, compileOnly: true });
  if (probe.error) {
    probe.error.dispose();
    return false;
  }
  probe.value.dispose();
  return true;
}

/** Top-level `await` (or `export`) is a syntax error in a script: such code runs as a module (its `default` export is the value). */
function needsModule(vm: QuickJSContext, code: string): boolean {
  return /\bawait\b|\bexport\b/.test(code) && !compiles(vm, code, "global") && compiles(vm, code, "module");
}

async function evaluate(
  vm: QuickJSContext,
  code: string,
  pump: () => void,
  stop: () => boolean,
  signal: AbortSignal | undefined,
  deadline: number,
): Promise<Omit<JsRunResult, "logs" | "logsDroppedChars">> {
  const asModule = needsModule(vm, code);
  const evaluated = vm.evalCode(code, "js_eval.js", asModule ? { type: "module" } : {});
  if (evaluated.error) {
    const error = vm.dump(evaluated.error) as unknown;
    evaluated.error.dispose();
    return { ok: false, error: errorOf(error) };
  }
  const handle = evaluated.value;
  // A promise (async code, or a module's evaluation) settles as the host calls it awaits come back.
  const state = vm.getPromiseState(handle);
  if (state.type === "fulfilled" && state.notAPromise) {
    const value = vm.dump(handle) as unknown;
    handle.dispose();
    return { ok: true, value };
  }
  if (state.type === "fulfilled") state.value.dispose();
  else if (state.type === "rejected") state.error.dispose();
  const settled = vm.resolvePromise(handle);
  handle.dispose();
  pump();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const outside = new Promise<"stopped">((resolve) => {
    timer = setTimeout(() => resolve("stopped"), Math.max(0, deadline - Date.now()) + 5);
    onAbort = () => resolve("stopped");
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const result = await Promise.race([settled, outside]);
    // Settled or not, a run past its deadline or stopped is reported as stopped (its late value is dropped with the runtime).
    if (stop() || result === "stopped") return { ok: false };
    if (result.error) {
      const error = vm.dump(result.error) as unknown;
      result.error.dispose();
      return { ok: false, error: errorOf(error) };
    }
    let value = vm.dump(result.value) as unknown;
    result.value.dispose();
    if (asModule && typeof value === "object" && value !== null) value = (value as { default?: unknown }).default;
    return { ok: true, ...(value === undefined ? {} : { value }) };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
