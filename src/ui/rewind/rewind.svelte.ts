/**
 * The rewind dialog's state: which message it rewinds to, what the workspace
 * would change (the worker's preview), and the person's choice (files only,
 * or files and conversation). The chat reloads once the worker restored them.
 */
import type { ErrorInfo } from "../../core/errors.ts";
import type { AgentClient } from "../../page/client.ts";
import type { FileChange, RewindMode } from "../../protocol/rewind.ts";

/** What the rewind needs of the shown thread. */
export interface RewindHost {
  readonly client: AgentClient;
  readonly threadId: string;
  readonly running: boolean;
  reload(): Promise<void>;
}

export class Rewind {
  readonly #host: RewindHost;
  /** The message rewound to (its index in the shown branch), while the dialog is open. */
  index: number | null = $state(null);
  /** Whether the message is a workspace note (rewinding to before it undoes it). */
  undo = $state(false);
  changes: FileChange[] | null = $state(null);
  error: ErrorInfo | null = $state(null);
  /** A rewind is being applied. */
  applying = $state(false);

  constructor(host: RewindHost) {
    this.#host = host;
  }

  get running(): boolean {
    return this.#host.running;
  }

  /** Opens the dialog for the message at `index` and asks the worker what would change. */
  async open(index: number, undo = false): Promise<void> {
    this.index = index;
    this.undo = undo;
    this.changes = null;
    this.error = null;
    const preview = await this.#host.client.rewindPreview(this.#host.threadId, index);
    if (this.index !== index) return;
    if (preview.ok) this.changes = preview.value;
    else this.error = preview.error;
  }

  close(): void {
    this.index = null;
    this.changes = null;
    this.error = null;
  }

  /** Restores the workspace (and, for `conversation`, starts a new branch); the dialog closes when it worked. */
  async confirm(mode: RewindMode): Promise<boolean> {
    const index = this.index;
    if (index === null || this.applying) return false;
    this.applying = true;
    try {
      const done = await this.#host.client.rewind(this.#host.threadId, index, mode);
      if (!done.ok) {
        this.error = done.error;
        return false;
      }
      this.close();
      await this.#host.reload();
      return true;
    } finally {
      this.applying = false;
    }
  }
}
