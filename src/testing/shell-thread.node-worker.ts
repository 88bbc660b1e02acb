/** Node's entry of a shell thread (see node-shell-threads.ts): the browser's thread code over worker_threads' port. */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { sealThread } from "../backends/sandbox/python-seal.ts";
import { serveShellThread } from "../backends/sandbox/shell-thread-main.ts";
import type { FromShellThread, ToShellThread } from "../backends/sandbox/shell-thread.ts";

const port = parentPort;
if (!port) throw new Error("shell-thread.node-worker.ts runs only as a worker thread");
serveShellThread(
  {
    post: (message: FromShellThread) => port.postMessage(message),
    listen: (handler) => {
      port.removeAllListeners("message");
      port.on("message", (message: ToShellThread) => handler(message));
    },
  },
  // Pyodide from node_modules (its own folder); the thread sealed once it has loaded (python-seal.ts).
  { indexURL: `${dirname(createRequire(import.meta.url).resolve("pyodide/package.json"))}/`, isolate: () => void sealThread() },
);
