/**
 * A shell session: the state the offline shell keeps between commands (its
 * `/tmp` and its empty directories), one per thread's workspace. Apart from
 * the shell's filesystem (shell-fs.ts) so that holding a session does not load
 * it: the filesystem loads with the first command.
 */
import { DEFAULT_MAX_SCRATCH_BYTES, ScratchStore } from "./scratch-store.ts";

/** State a shell keeps between commands: its /tmp and its empty directories. */
export interface ShellSession {
  /** `/tmp`: files by full path ("/tmp/a.txt"), capped in bytes. */
  readonly tmp: ScratchStore;
  /** Empty directories (workspace and `/tmp`), each with the time it was made. */
  readonly dirs: Map<string, string>;
  /** When the session began (the time of `/`, `/tmp` and `/dev` while they hold nothing newer). */
  readonly createdAt: string;
}

export interface ShellSessionOptions {
  /** Bytes `/tmp` may hold altogether. Default 64 MiB. */
  maxScratchBytes?: number;
  now?: () => string;
}

export function newShellSession(options: ShellSessionOptions = {}): ShellSession {
  const now = options.now ?? (() => new Date().toISOString());
  return { tmp: new ScratchStore(options.maxScratchBytes ?? DEFAULT_MAX_SCRATCH_BYTES), dirs: new Map(), createdAt: now() };
}
