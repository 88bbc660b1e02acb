/**
 * Copying a thread across runtimes (the thread list's ⇄): while the tab runs threads and Settings → Runtime keeps a
 * server URL, a tab thread is copied to that server as a new server thread; while a server runs them, a server thread
 * is copied into the tab as a new tab thread. The original stays where it is. What happened (or why not) is the
 * `notice` or the `error`, in plain words.
 */
import type { ErrorInfo } from "../../core/errors.ts";
import type { AgentClient } from "../../page/client.ts";
import type { RuntimeState } from "../runtime/runtime.svelte.ts";

export type CopyTarget = "server" | "tab";

export class ThreadCopier {
  readonly #client: AgentClient;
  readonly #runtime: RuntimeState;
  #busy = $state.raw(false);
  #notice: string | null = $state.raw(null);
  #error: ErrorInfo | null = $state.raw(null);

  /** `client`: the page's client (its thread copies are the worker's in either runtime). */
  constructor(client: AgentClient, runtime: RuntimeState) {
    this.#client = client;
    this.#runtime = runtime;
  }

  /** Where the list's threads can be copied now, if anywhere. */
  get target(): CopyTarget | null {
    if (this.#runtime.route) return "tab";
    return this.#runtime.kind === "tab" && this.#runtime.url ? "server" : null;
  }
  get busy(): boolean {
    return this.#busy;
  }
  get notice(): string | null {
    return this.#notice;
  }
  get error(): ErrorInfo | null {
    return this.#error;
  }

  /** Copies the thread `threadId` (titled `title`) to {@link target}. */
  async copy(threadId: string, title: string): Promise<void> {
    const target = this.target;
    if (!target || this.#busy) return;
    this.#busy = true;
    this.#notice = this.#error = null;
    try {
      const server = await this.#runtime.server();
      if (!server.ok) return void (this.#error = server.error);
      const { connection, graphId } = server.value;
      if (target === "tab") {
        const copy = await connection.copy(threadId);
        if (!copy.ok) return void (this.#error = copy.error);
        const made = await this.#client.createThreadFrom(copy.value);
        if (!made.ok) return void (this.#error = made.error);
        this.#notice = `Copied “${title}” into this tab. Choose This tab in Settings → Runtime to open it there.`;
      } else {
        const copy = await this.#client.copyThread(threadId);
        if (!copy.ok) return void (this.#error = copy.error);
        const made = await connection.createThreadFrom(copy.value, graphId);
        if (!made.ok) return void (this.#error = made.error);
        const where = `the server at ${connection.url}`;
        this.#notice = `Copied “${title}” to ${where}. Choose LangGraph server in Settings → Runtime to open it there.`;
      }
    } finally {
      this.#busy = false;
    }
  }

  dismiss(): void {
    this.#notice = this.#error = null;
  }
}
