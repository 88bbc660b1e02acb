/**
 * The page side of the WebContainer sandbox: boots one WebContainer per page
 * (it needs the main thread and cross-origin isolation) and serves the
 * worker's {@link ContainerHost} calls over it. The worker holds a Comlink
 * proxy of the host.
 *
 * `boot()` hangs forever when StackBlitz cannot be reached (offline, a
 * blocked network), so {@link bootWebContainer} races it against a timeout
 * and says why it failed instead of hanging.
 */
import type { FileSystemTree, WebContainer, WebContainerProcess } from "@webcontainer/api";
import type { ContainerFile, ContainerHost, ContainerRun } from "../backends/sandbox/container.ts";
import { err, ok, type Result } from "../core/result.ts";

/** What the host needs of a WebContainer (a structural type, so tests can pass a fake). */
export type WebContainerLike = Pick<WebContainer, "fs" | "spawn" | "mount" | "on">;

/** How long a boot may take before the app falls back to the offline shell. */
export const BOOT_TIMEOUT_MS = 20_000;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][A-Za-z0-9]|\u001b[=>]/g;

/** Terminal output as plain text: escape codes removed, CRLF as LF, carriage-return redraws kept as their last state. */
export function plainTerminalText(chunk: string): string {
  return chunk
    .replace(ANSI, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.slice(line.lastIndexOf("\r") + 1))
    .join("\n");
}

/**
 * Turns a terminal's output chunks into plain text line by line: a pty
 * splits escape codes and CRLF pairs across chunks, so the unfinished last
 * line is held until its newline (or the end) arrives.
 */
export function terminalLines(): { push(chunk: string): string; end(): string } {
  let pending = "";
  return {
    push(chunk) {
      pending += chunk;
      const cut = pending.lastIndexOf("\n");
      if (cut < 0) return "";
      const done = pending.slice(0, cut + 1);
      pending = pending.slice(cut + 1);
      return plainTerminalText(done);
    },
    end() {
      const rest = plainTerminalText(pending);
      pending = "";
      return rest;
    },
  };
}

const encoder = new TextEncoder();

/** The longest text of at most `max` bytes of `bytes` (UTF-8), cut on a character boundary. */
function bytePrefix(bytes: Uint8Array, max: number): string {
  if (max <= 0) return "";
  return new TextDecoder().decode(bytes.subarray(0, max)).replace(/\uFFFD$/, "");
}

/** `/src/a.ts` → `src/a.ts` (container paths are relative to its workdir). */
function relative(path: string): string {
  return path.replace(/^\/+/, "");
}

function treeOf(files: readonly ContainerFile[]): FileSystemTree {
  const root: FileSystemTree = {};
  for (const { path, content } of files) {
    const parts = relative(path).split("/");
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      const node = dir[part];
      if (!node || !("directory" in node)) dir[part] = { directory: {} };
      dir = (dir[part] as { directory: FileSystemTree }).directory;
    }
    dir[parts.at(-1)!] = { file: { contents: content.slice() } };
  }
  return root;
}

export interface ServerInfo {
  port: number;
  url: string;
}

/** A {@link ContainerHost} over a booted container, plus the events the page shows (servers started). */
export function createContainerHost(container: WebContainerLike, onServer: (server: ServerInfo) => void = () => undefined): ContainerHost {
  let workspace: string | undefined;
  container.on("server-ready", (port, url) => onServer({ port, url }));

  async function clear(): Promise<void> {
    for (const name of await container.fs.readdir(".")) await container.fs.rm(name, { recursive: true, force: true });
  }

  async function walk(dir: string, skip: readonly string[], out: ContainerFile[]): Promise<void> {
    for (const entry of await container.fs.readdir(dir || ".", { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) await walk(path, skip, out);
      } else if (entry.isFile()) {
        out.push({ path: `/${path}`, content: await container.fs.readFile(path) });
      }
    }
  }

  return {
    async workspace() {
      return workspace;
    },

    async mount(name, files) {
      workspace = undefined;
      await clear();
      await container.mount(treeOf(files));
      workspace = name;
    },

    async writeFile(path, content) {
      const rel = relative(path);
      const parent = rel.slice(0, Math.max(0, rel.lastIndexOf("/")));
      if (parent) await container.fs.mkdir(parent, { recursive: true });
      await container.fs.writeFile(rel, content);
    },

    async remove(path) {
      await container.fs.rm(relative(path), { force: true, recursive: true });
    },

    async run(command, { timeoutMs, maxOutputBytes, onOutput }): Promise<ContainerRun> {
      const process: WebContainerProcess = await container.spawn("jsh", ["-c", command], { terminal: { cols: 200, rows: 50 } });
      let output = "";
      let bytes = 0;
      let truncated = false;
      const lines = terminalLines();
      // What streams to the page is what the result keeps: at most maxOutputBytes, then nothing more.
      const take = (text: string) => {
        if (!text || truncated) return;
        const room = maxOutputBytes - bytes;
        const encoded = encoder.encode(text);
        const kept = encoded.length <= room ? text : bytePrefix(encoded, room);
        if (kept !== text) truncated = true;
        if (!kept) return;
        bytes += kept === text ? encoded.length : encoder.encode(kept).length;
        output += kept;
        onOutput?.(kept);
      };
      const reading = process.output.pipeTo(
        new WritableStream<string>({ write: (raw) => take(lines.push(raw)), close: () => take(lines.end()) }),
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<null>((resolve) => {
        timer = setTimeout(() => {
          process.kill();
          resolve(null);
        }, timeoutMs);
      });
      const exitCode = await Promise.race([process.exit, timedOut]);
      clearTimeout(timer);
      // The output stream closes once the process is gone; do not wait forever for a killed one.
      await Promise.race([reading.catch(() => undefined), new Promise((r) => setTimeout(r, 200))]);
      take(lines.end());
      return { output, exitCode, truncated };
    },

    async files(skip) {
      const out: ContainerFile[] = [];
      await walk("", skip, out);
      return out;
    },
  };
}

/** Why WebContainer is not available, for the user ("no WebContainer: …"). */
export type BootFailure = { reason: string };

/**
 * Boots WebContainer on this page, or says why not within `timeoutMs`:
 * not cross-origin isolated, not a window, the API failed to load, boot
 * rejected, or boot did not finish in time (StackBlitz unreachable).
 */
export async function bootWebContainer(
  timeoutMs = BOOT_TIMEOUT_MS,
  boot: () => Promise<WebContainerLike> = async () =>
    (await import("@webcontainer/api")).WebContainer.boot({ coep: "require-corp", workdirName: "workspace" }),
): Promise<Result<WebContainerLike, BootFailure>> {
  if (typeof window === "undefined") return err({ reason: "WebContainer boots only on a page's main thread" });
  if (!globalThis.crossOriginIsolated)
    return err({
      reason:
        "the page is not cross-origin isolated (no COOP/COEP headers, and deeptab's service worker has not isolated it yet: reload once)",
    });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
  try {
    const outcome = await Promise.race([boot(), timeout]);
    if (outcome === "timeout")
      return err({
        reason: `boot did not finish within ${Math.round(timeoutMs / 1000)} s (StackBlitz may be unreachable: offline or blocked)`,
      });
    return ok(outcome);
  } catch (cause) {
    return err({ reason: `boot failed: ${cause instanceof Error ? cause.message : String(cause)}` });
  } finally {
    clearTimeout(timer);
  }
}
