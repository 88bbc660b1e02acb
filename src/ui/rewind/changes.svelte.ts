/**
 * The Changes view's state: the files one turn (its subagents' included)
 * created, changed or deleted, and reverting one or all of them. A revert is
 * the person's change: the worker restores the files and adds a note the
 * agent reads at its next model call; the chat reloads to show it.
 */
import type { ErrorInfo } from "../../core/errors.ts";
import type { FileChange } from "../../protocol/rewind.ts";
import type { RewindHost } from "./rewind.svelte.ts";

export class TurnChanges {
  readonly #host: RewindHost;
  /** The user message whose turn is shown, while the view is open. */
  index: number | null = $state(null);
  changes: FileChange[] | null = $state(null);
  /** Paths reverted since the view opened (shown as reverted, no longer revertable). */
  reverted: string[] = $state([]);
  error: ErrorInfo | null = $state(null);
  reverting = $state(false);

  constructor(host: RewindHost) {
    this.#host = host;
  }

  get running(): boolean {
    return this.#host.running;
  }

  /** The changes not reverted yet. */
  get pending(): FileChange[] {
    return (this.changes ?? []).filter((c) => !this.reverted.includes(c.path));
  }

  async open(index: number): Promise<void> {
    this.index = index;
    this.changes = null;
    this.reverted = [];
    this.error = null;
    const listed = await this.#host.client.turnChanges(this.#host.threadId, index);
    if (this.index !== index) return;
    if (listed.ok) this.changes = listed.value;
    else this.error = listed.error;
  }

  close(): void {
    this.index = null;
    this.changes = null;
    this.error = null;
  }

  /** Puts `paths` back as they were before the turn. */
  async revert(paths: string[]): Promise<boolean> {
    const index = this.index;
    if (index === null || this.reverting || !paths.length) return false;
    this.reverting = true;
    this.error = null;
    try {
      const done = await this.#host.client.revertTurn(this.#host.threadId, index, paths);
      if (!done.ok) {
        this.error = done.error;
        return false;
      }
      this.reverted = [...this.reverted, ...paths];
      await this.#host.reload();
      return true;
    } finally {
      this.reverting = false;
    }
  }
}
