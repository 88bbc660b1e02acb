/**
 * The shell thread's side (see shell-thread.ts): runs the commands it is
 * sent, one at a time, over a filesystem whose every call is a message to the
 * caller. Started by shell.worker.ts in browsers and by a worker_threads entry
 * in Node tests.
 */
import type { IFileSystem } from "just-bash/browser";
import { resolveShellPath } from "./shell-fs.ts";
import { runShellCommand } from "./shell-runner.ts";
import type { FromShellThread, FsMethod, ShellChannel, ToShellThread } from "./shell-thread.ts";

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

/** just-bash's filesystem, forwarded: each call a message, each answer (or Node-style error with `code`) a reply. */
class RemoteFs implements IFileSystem {
  readonly #call: (method: FsMethod, args: unknown[]) => Promise<unknown>;

  constructor(call: (method: FsMethod, args: unknown[]) => Promise<unknown>) {
    this.#call = call;
  }

  readFile(...args: Parameters<IFileSystem["readFile"]>) {
    return this.#call("readFile", args) as Promise<string>;
  }
  readFileBuffer(...args: Parameters<IFileSystem["readFileBuffer"]>) {
    return this.#call("readFileBuffer", args) as Promise<Uint8Array>;
  }
  writeFile(...args: Parameters<IFileSystem["writeFile"]>) {
    return this.#call("writeFile", args) as Promise<void>;
  }
  appendFile(...args: Parameters<IFileSystem["appendFile"]>) {
    return this.#call("appendFile", args) as Promise<void>;
  }
  exists(...args: Parameters<IFileSystem["exists"]>) {
    return this.#call("exists", args) as Promise<boolean>;
  }
  stat(...args: Parameters<IFileSystem["stat"]>) {
    return this.#call("stat", args) as ReturnType<IFileSystem["stat"]>;
  }
  lstat(...args: Parameters<IFileSystem["lstat"]>) {
    return this.#call("lstat", args) as ReturnType<IFileSystem["lstat"]>;
  }
  realpath(...args: Parameters<IFileSystem["realpath"]>) {
    return this.#call("realpath", args) as Promise<string>;
  }
  chmod(...args: Parameters<IFileSystem["chmod"]>) {
    return this.#call("chmod", args) as Promise<void>;
  }
  utimes(...args: Parameters<IFileSystem["utimes"]>) {
    return this.#call("utimes", args) as Promise<void>;
  }
  mkdir(...args: Parameters<IFileSystem["mkdir"]>) {
    return this.#call("mkdir", args) as Promise<void>;
  }
  readdir(...args: Parameters<IFileSystem["readdir"]>) {
    return this.#call("readdir", args) as Promise<string[]>;
  }
  readdirWithFileTypes(...args: Parameters<NonNullable<IFileSystem["readdirWithFileTypes"]>>) {
    return this.#call("readdirWithFileTypes", args) as ReturnType<NonNullable<IFileSystem["readdirWithFileTypes"]>>;
  }
  rm(...args: Parameters<IFileSystem["rm"]>) {
    return this.#call("rm", args) as Promise<void>;
  }
  cp(...args: Parameters<IFileSystem["cp"]>) {
    return this.#call("cp", args) as Promise<void>;
  }
  mv(...args: Parameters<IFileSystem["mv"]>) {
    return this.#call("mv", args) as Promise<void>;
  }
  symlink(...args: Parameters<IFileSystem["symlink"]>) {
    return this.#call("symlink", args) as Promise<void>;
  }
  link(...args: Parameters<IFileSystem["link"]>) {
    return this.#call("link", args) as Promise<void>;
  }
  readlink(...args: Parameters<IFileSystem["readlink"]>) {
    return this.#call("readlink", args) as Promise<string>;
  }
  resolvePath(base: string, path: string): string {
    return resolveShellPath(base, path);
  }
  getAllPaths(): string[] {
    return [];
  }
}

/** Serves commands on this thread until it is terminated. */
export function serveShellThread(channel: ShellChannel<ToShellThread, FromShellThread>): void {
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
    const fs = new RemoteFs(
      (method, args) =>
        new Promise((resolve, reject) => {
          const call = nextCall++;
          pending.set(call, { resolve, reject });
          channel.post({ type: "fs", id, call, method, args });
        }),
    );
    void runShellCommand(fs, request).then(
      (result) => channel.post({ type: "done", id, result }),
      (err: unknown) => channel.post({ type: "done", id, result: { stdout: "", stderr: `bash: ${String(err)}\n`, exitCode: 1 } }),
    );
  });
}
