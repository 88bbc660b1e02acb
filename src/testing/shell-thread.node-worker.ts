/** Node's entry of a shell thread (see node-shell-threads.ts): the browser's thread code over worker_threads' port. */
import { parentPort } from "node:worker_threads";
import { serveShellThread } from "../backends/sandbox/shell-thread-main.ts";
import type { FromShellThread, ToShellThread } from "../backends/sandbox/shell-thread.ts";

const port = parentPort;
if (!port) throw new Error("shell-thread.node-worker.ts runs only as a worker thread");
serveShellThread({
  post: (message: FromShellThread) => port.postMessage(message),
  listen: (handler) => {
    port.removeAllListeners("message");
    port.on("message", (message: ToShellThread) => handler(message));
  },
});
