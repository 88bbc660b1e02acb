/**
 * The shell thread's side (see shell-thread.ts): runs the commands it is
 * sent, one at a time, over a filesystem whose every call is a message to the
 * caller. Started by shell.worker.ts in browsers and by a worker_threads entry
 * in Node tests.
 */
import type { IFileSystem } from "just-bash/browser";
import { resolveShellPath } from "./shell-fs.ts";
import { pythonCommands } from "./python-command.ts";
import type { PackageDelivery, PackageRequest } from "./python-packages.ts";
import { pythonLoaded, type PythonHost } from "./python-run.ts";
import { runShellCommand } from "./shell-runner.ts";
import { FS_METHODS, type FromShellThread, type FsMethod, type ShellChannel, type ToShellThread } from "./shell-thread.ts";

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

/**
 * just-bash's filesystem, forwarded: each call of {@link FS_METHODS} a message,
 * each answer (or Node-style error with `code`) a reply; path resolution is
 * pure and stays here.
 */
function remoteFs(call: (method: FsMethod, args: unknown[]) => Promise<unknown>): IFileSystem {
  const calls = Object.fromEntries(FS_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]));
  // Each forwarded method answers what the caller's ShellFs (an IFileSystem) answered.
  return { ...calls, resolvePath: resolveShellPath, getAllPaths: () => [] } as unknown as IFileSystem;
}

/** Serves commands on this thread until it is terminated; `python` gives them `python3` (see python-command.ts). */
export function serveShellThread(channel: ShellChannel<ToShellThread, FromShellThread>, python?: PythonHost): void {
  const pending = new Map<number, Pending>();
  let nextCall = 1;
  channel.listen((message) => {
    if (message.type === "fs-reply") {
      const waiting = pending.get(message.call);
      pending.delete(message.call);
      if (!waiting) return;
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
      return;
    }
    const { id, request } = message;
    channel.post({ type: "started", id });
    /** Asks the caller (a filesystem call or packages) and waits for its `fs-reply`. */
    const ask = (question: { type: "fs"; method: FsMethod; args: unknown[] } | { type: "packages"; request: PackageRequest }) =>
      new Promise<unknown>((resolve, reject) => {
        const call = nextCall++;
        pending.set(call, { resolve, reject });
        channel.post({ ...question, id, call });
      });
    const fs = remoteFs((method, args) => ask({ type: "fs", method, args }));
    const status = (phase: "loading" | "loaded", text: string) => channel.post({ type: "status", id, phase, text });
    // Packages (when the person chose a source): asked of the caller, who fetches them; this thread has no network.
    const source = request.pythonPackages;
    const packages = source
      ? {
          host: source,
          deliver: (asked: PackageRequest) => ask({ type: "packages", request: asked }) as Promise<PackageDelivery>,
        }
      : undefined;
    // python3 only on a thread that is terminated at the timeout (a Python loop gives the interpreter no turn to stop it);
    // its first load does not count against the interpreter's own deadline either (PYTHON_LOAD_MS).
    const extra = python
      ? {
          commands: pythonCommands({ ...python, onStatus: status, ...(packages && { packages }) }),
          ms: pythonLoaded() ? 0 : (request.pythonLoadMs ?? 0),
        }
      : undefined;
    void runShellCommand(fs, request, undefined, extra).then(
      (result) => channel.post({ type: "done", id, result }),
      (err: unknown) => channel.post({ type: "done", id, result: { stdout: "", stderr: `bash: ${String(err)}\n`, exitCode: 1 } }),
    );
  });
}
