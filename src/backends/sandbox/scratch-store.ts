/**
 * ScratchStore: the offline shell's `/tmp`, a {@link MemoryFileStore} with a
 * cap on the bytes it holds altogether. A mutation that would take it over
 * the cap fails as a whole (`ENOSPC`, nothing of it applied), so a command
 * that doubles a file in `/tmp` until memory runs out stops at the cap with a
 * clear error instead of taking the worker down.
 */
import type { FileTx } from "../file-store.ts";
import { MemoryFileStore } from "../memory-store.ts";

/** `/tmp` of one shell session holds at most this many bytes (64 MiB). */
export const DEFAULT_MAX_SCRATCH_BYTES = 64 * 1024 * 1024;

export class ScratchStore extends MemoryFileStore {
  /** A unit that would take `/tmp` over `maxBytes` fails with an `ENOSPC` error (with `code`). */
  constructor(maxBytes = DEFAULT_MAX_SCRATCH_BYTES) {
    const mb = Math.round(maxBytes / 1024 / 1024);
    super(
      {},
      {
        maxBytes,
        full: (what) =>
          Object.assign(new Error(`ENOSPC: no space left on device: /tmp holds at most ${mb} MB, ${what}`), { code: "ENOSPC" }),
      },
    );
  }

  /**
   * At once, not one unit at a time: a /tmp unit runs inside the workspace's (ShellFileStore), which may hold an
   * IndexedDB transaction, and waiting there for another /tmp unit would let that transaction commit under it
   * (TransactionInactiveError). The workspace's unit around it keeps the file tools' units apart.
   */
  override mutate<T>(what: string, body: (tx: FileTx) => Promise<T>): Promise<T> {
    return this.mutateNow(what, body);
  }
}
