/**
 * WebContainerBackend: a sandbox backend whose commands run in a
 * WebContainer (Node.js and npm in the tab), reached through a
 * {@link ContainerHost}: WebContainer boots on the page's main thread only,
 * so in the app the host lives on the page and the worker holds a Comlink
 * proxy of it.
 *
 * The backend's files stay in its FileStore (IndexedDB in the app): the
 * store is the source of truth, the container a working copy.
 * - Before the first command (and whenever the container holds another
 *   workspace) the store's files are mounted into the container.
 * - A file operation (write_file, edit_file, delete, upload) changes the
 *   store and is mirrored into the container's filesystem.
 * - After each command, the files it created, changed or deleted are written
 *   back to the store, except under {@link REBUILDABLE_DIRS}
 *   (`node_modules` and other caches a command can rebuild). A reload or a
 *   failed boot therefore loses nothing but those folders.
 */
import { sameBytes } from "../../core/bytes.ts";
import { fileDataFromBytes, fileDataToBytes } from "../file-ops.ts";
import { FileBackend } from "../file-backend.ts";
import type { FileStore, FileTx } from "../file-store.ts";
import type { ExecuteOptions, ExecuteResult, SandboxBackendProtocol } from "../protocol.ts";
import { DEFAULT_EXECUTE_TIMEOUT, DEFAULT_MAX_EXECUTE_TIMEOUT, DEFAULT_MAX_OUTPUT_BYTES, timeoutMessage } from "./shell.ts";

/** Folders never written back from the container (a command rebuilds them). */
export const REBUILDABLE_DIRS = ["node_modules", ".npm", ".cache", ".pnpm-store", ".yarn", ".next", ".turbo", ".parcel-cache"] as const;

/** A file as it crosses between worker and page: a workspace path and its bytes. */
export interface ContainerFile {
  path: string;
  content: Uint8Array;
}

/** The outcome of one command in the container. */
export interface ContainerRun {
  /** Terminal output (stdout and stderr merged, escape codes removed), at most the requested bytes. */
  output: string;
  /** Null when the command was stopped at its timeout (or by `signal`). */
  exitCode: number | null;
  truncated: boolean;
}

/**
 * The container as the worker uses it: plain data in and out, so it can be a
 * Comlink proxy of the page's host. Paths are workspace paths ("/src/a.ts").
 *
 * Contract:
 * - `workspace()` names the workspace mounted now (undefined before any).
 * - `mount(workspace, files)` replaces the container's files by `files`.
 * - `writeFile` / `remove` mirror one change; they create parent folders.
 * - `run` never throws for a failing command; `onOutput` receives the output
 *   as it arrives; the command is killed at `timeoutMs`.
 * - `files(skip)` lists every file below the workdir except under folders
 *   named in `skip`, with its bytes.
 * - Any method may reject when the container is gone (a crash, a reload):
 *   the backend then reports that the sandbox is unavailable.
 */
export interface ContainerHost {
  workspace(): Promise<string | undefined>;
  mount(workspace: string, files: ContainerFile[]): Promise<void>;
  writeFile(path: string, content: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
  run(command: string, options: { timeoutMs: number; maxOutputBytes: number; onOutput?: (chunk: string) => void }): Promise<ContainerRun>;
  files(skip: readonly string[]): Promise<ContainerFile[]>;
}

export interface WebContainerBackendOptions {
  host: ContainerHost;
  /** The workspace this backend's store holds (the thread), so the container is remounted when it changes. */
  workspace: string;
  files: FileStore | FileBackend;
  now?: () => string;
  defaultTimeout?: number;
  maxTimeout?: number;
  maxOutputBytes?: number;
  id?: string;
}

function isRebuildable(path: string): boolean {
  return path.split("/").some((segment) => (REBUILDABLE_DIRS as readonly string[]).includes(segment));
}

/** A store whose committed changes are also sent to the container. */
class MirroredStore implements FileStore {
  readonly #inner: FileStore;
  readonly #mirror: (changes: ReadonlyMap<string, Uint8Array | null>) => Promise<void>;

  constructor(inner: FileStore, mirror: (changes: ReadonlyMap<string, Uint8Array | null>) => Promise<void>) {
    this.#inner = inner;
    this.#mirror = mirror;
  }

  get(path: string) {
    return this.#inner.get(path);
  }

  snapshot() {
    return this.#inner.snapshot();
  }

  async mutate<T>(what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    const changes = new Map<string, Uint8Array | null>();
    const result = await this.#inner.mutate(what, (tx) =>
      body({
        get: (p) => tx.get(p),
        isDir: (d) => tx.isDir(d),
        below: (d) => tx.below(d),
        put: async (p, data) => {
          await tx.put(p, data);
          changes.set(p, fileDataToBytes(data));
        },
        delete: async (p) => {
          await tx.delete(p);
          changes.set(p, null);
        },
      }),
    );
    if (changes.size) await this.#mirror(changes);
    return result;
  }
}

export class WebContainerBackend extends FileBackend implements SandboxBackendProtocol {
  readonly id: string;
  readonly #host: ContainerHost;
  readonly #store: FileStore;
  readonly #options: WebContainerBackendOptions;

  constructor(options: WebContainerBackendOptions) {
    const inner = options.files instanceof FileBackend ? options.files.store : options.files;
    const host = options.host;
    // Mirror only when the container already holds this workspace; otherwise the next mount brings it.
    const mirrored = new MirroredStore(inner, async (changes) => {
      if ((await host.workspace().catch(() => undefined)) !== options.workspace) return;
      for (const [path, bytes] of changes) {
        if (bytes) await host.writeFile(path, bytes);
        else await host.remove(path);
      }
    });
    super(mirrored, options.now);
    this.id = options.id ?? "webcontainer";
    this.#host = host;
    this.#store = inner;
    this.#options = options;
  }

  #seconds(timeout: number | undefined): number {
    const max = this.#options.maxTimeout ?? DEFAULT_MAX_EXECUTE_TIMEOUT;
    if (timeout === undefined) return Math.min(this.#options.defaultTimeout ?? DEFAULT_EXECUTE_TIMEOUT, max);
    return timeout > 0 ? Math.min(timeout, max) : max;
  }

  /** Mounts the store's files unless the container holds this workspace already. */
  async #ensureMounted(): Promise<void> {
    if ((await this.#host.workspace()) === this.#options.workspace) return;
    const files = [...(await this.#store.snapshot()).entries()].map(([path, f]) => ({ path, content: fileDataToBytes(f.data) }));
    await this.#host.mount(this.#options.workspace, files);
  }

  /** Writes what the command changed back to the store, in one unit; returns how many files changed. */
  async #writeBack(): Promise<number> {
    const inContainer = new Map((await this.#host.files(REBUILDABLE_DIRS)).map((f) => [f.path, f.content]));
    const snapshot = await this.#store.snapshot();
    const now = (this.#options.now ?? (() => new Date().toISOString()))();
    const puts: Array<[string, Uint8Array]> = [];
    const deletes: string[] = [];
    for (const [path, content] of inContainer) {
      const stored = snapshot.get(path);
      if (!stored || !sameBytes(fileDataToBytes(stored.data), content)) puts.push([path, content]);
    }
    for (const [path] of snapshot.entries()) if (!inContainer.has(path) && !isRebuildable(path)) deletes.push(path);
    if (!puts.length && !deletes.length) return 0;
    await this.#store.mutate("write back container files", async (tx) => {
      for (const [path, content] of puts) await tx.put(path, fileDataFromBytes(content, now, (await tx.get(path))?.createdAt));
      for (const path of deletes) await tx.delete(path);
    });
    return puts.length + deletes.length;
  }

  async execute(command: string, timeout?: number, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const seconds = this.#seconds(timeout);
    try {
      await this.#ensureMounted();
      const run = await this.#host.run(command, {
        timeoutMs: seconds * 1000,
        maxOutputBytes: this.#options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        ...(options.onOutput ? { onOutput: options.onOutput } : {}),
      });
      await this.#writeBack();
      if (run.exitCode === null) {
        return {
          output:
            `${run.output}${run.output && !run.output.endsWith("\n") ? "\n" : ""}` +
            timeoutMessage(seconds, timeout, this.#options.maxTimeout ?? DEFAULT_MAX_EXECUTE_TIMEOUT),
          exitCode: null,
          truncated: run.truncated,
        };
      }
      return { output: run.output, exitCode: run.exitCode, truncated: run.truncated };
    } catch (err) {
      if (err instanceof Error && err.name === "StorageError") throw err;
      const why = err instanceof Error ? err.message : String(err);
      return {
        output:
          `The WebContainer sandbox is not available (${why}). ` +
          "Files are safe in the workspace; retry, or ask the user to switch to the offline shell.",
        exitCode: 1,
        truncated: false,
      };
    }
  }
}
