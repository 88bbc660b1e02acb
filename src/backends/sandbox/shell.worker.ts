/**
 * The offline shell's Web Worker: one command at a time, terminated when the
 * run is stopped or the command times out (see shell-thread.ts). Started by
 * `defaultShellThreads()` from the agent's worker (or a page).
 */
import { sealThread } from "./python-seal.ts";
import { serveShellThread } from "./shell-thread-main.ts";
import type { FromShellThread, ToShellThread } from "./shell-thread.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;

/** Pyodide's files, the site's own (scripts/vite/pyodide/plugin.ts): beside this worker's chunk when built, served by Vite in dev. */
const PYODIDE_DIR = "pyodide/";
const indexURL = import.meta.env.DEV ? new URL("/__pyodide/", scope.location.origin).href : new URL(PYODIDE_DIR, scope.location.href).href;

serveShellThread(
  {
    post: (message: FromShellThread) => scope.postMessage(message),
    listen: (handler) => {
      scope.onmessage = (event: MessageEvent<ToShellThread>) => handler(event.data);
    },
  },
  { indexURL, isolate: () => void sealThread() },
);
