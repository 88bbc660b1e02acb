/**
 * The offline shell's Web Worker: one command at a time, terminated when the
 * run is stopped or the command times out (see shell-thread.ts). Started by
 * `defaultShellThreads()` from the agent's worker (or a page).
 */
import { serveShellThread } from "./shell-thread-main.ts";
import type { FromShellThread, ToShellThread } from "./shell-thread.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;

serveShellThread({
  post: (message: FromShellThread) => scope.postMessage(message),
  listen: (handler) => {
    scope.onmessage = (event: MessageEvent<ToShellThread>) => handler(event.data);
  },
});
