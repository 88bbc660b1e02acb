/**
 * The offline shell's threads in Node: worker_threads Workers running the same
 * thread code as the browser's Web Worker (shell-thread-main.ts), loaded with
 * tsx. Node tests and benches pass `nodeShellThreads()` as ShellBackend's
 * `threads`, so a runaway command is killed for real there too.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ShellThreads, type FromShellThread, type ShellThread } from "../backends/sandbox/shell-thread.ts";

/** A worker's bootstrap: tsx's API imports the TypeScript entry (a worker does not inherit the test runner's loader). */
const BOOT = (() => {
  // The ESM build of tsx/esm/api (require.resolve finds the CommonJS one beside it).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
  const entry = new URL("./shell-thread.node-worker.ts", import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
})();

function nodeShellThread(): ShellThread {
  const worker = new Worker(BOOT, {
    eval: true,
    // A command that runs the thread out of memory ends the thread, not the process.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  worker.unref();
  let dead = false;
  let crash: string | undefined;
  let failed: ((reason: string) => void) | undefined;
  const fail = (reason: string) => {
    if (dead) return;
    dead = true;
    crash = reason;
    failed?.(reason);
  };
  worker.on("error", (err) => fail(err.message));
  worker.on("exit", (code) => fail(`the shell's thread exited (code ${code})`));
  return {
    post: (message) => worker.postMessage(message),
    listen: (handler) => {
      worker.removeAllListeners("message");
      worker.on("message", (message: FromShellThread) => {
        if (!dead) handler(message);
      });
    },
    onFailure: (handler) => {
      failed = handler;
      if (crash !== undefined) handler(crash);
    },
    terminate: () => {
      dead = true;
      void worker.terminate();
    },
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
  };
}

/** A pool of worker_threads shell threads (idle ones do not keep the process alive). */
export function nodeShellThreads(): ShellThreads {
  return new ShellThreads(nodeShellThread);
}
