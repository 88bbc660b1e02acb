/**
 * A stand-in for a booted WebContainer, for tests (WebContainer cannot boot
 * without StackBlitz): the same `fs` / `spawn` / `mount` / `on` surface the
 * app uses, over a just-bash in-memory filesystem, with `jsh -c <command>`
 * run by just-bash. Output comes as a terminal would send it: in chunks,
 * with CRLF line ends and colour escape codes, so the host's output handling
 * is tested for real. `kill()` aborts the command (it must yield, as `sleep`
 * does). What it cannot stand in for: Node.js, npm, the real pty, the boot.
 */
import type { FileSystemTree, WebContainerProcess } from "@webcontainer/api";
import { Bash, InMemoryFs } from "just-bash/browser";
import type { WebContainerLike } from "../page/webcontainer-host.ts";

const WORKDIR = "/home/workspace";

function abs(path: string): string {
  const rel = path.replace(/^\.\/?/, "").replace(/^\/+/, "");
  return rel ? `${WORKDIR}/${rel}` : WORKDIR;
}

export interface FakeWebContainer extends WebContainerLike {
  /** The container's files, relative paths to text (for assertions). */
  snapshot(): Promise<Record<string, string>>;
  /** Fires the `server-ready` event as a dev server starting would. */
  startServer(port: number, url: string): void;
  /** Commands spawned so far. */
  readonly spawned: Array<{ command: string; args: string[] }>;
}

export async function fakeWebContainer(): Promise<FakeWebContainer> {
  const fs = new InMemoryFs();
  await fs.mkdir(WORKDIR, { recursive: true });
  const serverListeners: Array<(port: number, url: string) => void> = [];
  const spawned: Array<{ command: string; args: string[] }> = [];

  const fsApi = {
    async readFile(path: string, encoding?: string) {
      const bytes = await fs.readFileBuffer(abs(path));
      return encoding ? new TextDecoder().decode(bytes) : bytes;
    },
    async writeFile(path: string, data: string | Uint8Array) {
      await fs.writeFile(abs(path), data);
    },
    async readdir(path: string, options?: { withFileTypes?: boolean }) {
      const entries = await fs.readdirWithFileTypes(abs(path));
      if (!options?.withFileTypes) return entries.map((e) => e.name);
      return entries.map((e) => ({ name: e.name, isFile: () => e.isFile, isDirectory: () => e.isDirectory }));
    },
    async mkdir(path: string, options?: { recursive?: boolean }) {
      await fs.mkdir(abs(path), options);
    },
    async rm(path: string, options?: { recursive?: boolean; force?: boolean }) {
      await fs.rm(abs(path), options);
    },
  };

  async function mountTree(tree: FileSystemTree, dir: string): Promise<void> {
    for (const [name, node] of Object.entries(tree)) {
      const path = `${dir}/${name}`;
      if ("directory" in node) {
        await fs.mkdir(path, { recursive: true });
        await mountTree(node.directory, path);
      } else if ("file" in node && "contents" in node.file) {
        await fs.writeFile(path, node.file.contents);
      }
    }
  }

  async function spawn(command: string, args: string[]): Promise<WebContainerProcess> {
    spawned.push({ command, args });
    const script = command === "jsh" && args[0] === "-c" ? (args[1] ?? "") : [command, ...args].join(" ");
    const abort = new AbortController();
    let write: (chunk: string) => void = () => undefined;
    let close: () => void = () => undefined;
    const output = new ReadableStream<string>({
      start(controller) {
        write = (c) => controller.enqueue(c);
        close = () => controller.close();
      },
    });
    const exit = (async () => {
      const bash = new Bash({ fs, cwd: WORKDIR, defenseInDepth: false });
      const res = await bash.exec(script, { signal: abort.signal });
      // As a pty: CRLF, and a colour code around stderr.
      const text = res.stdout.replace(/\n/g, "\r\n") + (res.stderr ? `\u001b[31m${res.stderr.replace(/\n/g, "\r\n")}\u001b[0m` : "");
      for (let i = 0; i < text.length; i += 7) write(text.slice(i, i + 7));
      close();
      return abort.signal.aborted ? 130 : res.exitCode;
    })();
    const input = new WritableStream<string>();
    return { exit, output, input, kill: () => abort.abort(), resize: () => undefined };
  }

  const container = {
    fs: fsApi,
    spawn,
    async mount(tree: FileSystemTree | Uint8Array | ArrayBuffer) {
      if (tree instanceof Uint8Array || tree instanceof ArrayBuffer) throw new Error("binary snapshots are not supported by the fake");
      await mountTree(tree, WORKDIR);
    },
    on(event: string, listener: (port: number, url: string) => void) {
      if (event === "server-ready") serverListeners.push(listener);
      return () => undefined;
    },
    async snapshot() {
      const out: Record<string, string> = {};
      const walk = async (dir: string) => {
        for (const e of await fs.readdirWithFileTypes(dir)) {
          const path = `${dir}/${e.name}`;
          if (e.isDirectory) await walk(path);
          else out[path.slice(WORKDIR.length + 1)] = await fs.readFile(path);
        }
      };
      await walk(WORKDIR);
      return out;
    },
    startServer(port: number, url: string) {
      for (const l of serverListeners) l(port, url);
    },
    spawned,
  };
  // The overloaded members of WebContainer (fs.readFile, readdir, spawn, on) take one wide implementation here.
  return container as unknown as FakeWebContainer;
}
