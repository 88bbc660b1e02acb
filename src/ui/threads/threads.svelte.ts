/**
 * The thread list's reactive state: the registry (refreshed on every
 * `thread_updated` broadcast), switching threads through the Chat, rename,
 * delete, export (a .json download) and import, and the origin's storage
 * usage. Components read it through context (context.ts).
 */
import { toErrorInfo } from "../../core/errors.ts";
import type { AgentClient } from "../../page/client.ts";
import type { ErrorInfo, ThreadResult } from "../../protocol/errors.ts";
import type { ThreadInfo } from "../../protocol/threads.ts";
import type { Chat } from "../chat/chat.svelte.ts";

/** Bytes used and available to the origin (`navigator.storage.estimate()`). */
export interface StorageUsage {
  usage: number;
  quota: number;
  persisted: boolean;
}

export class Threads {
  readonly #client: AgentClient;
  readonly #chat: Chat;
  readonly #onSelect: (threadId: string) => void;
  #items: ThreadInfo[] = $state.raw([]);
  #error: ErrorInfo | null = $state.raw(null);
  #storage: StorageUsage | null = $state.raw(null);
  #persistAsked = false;
  /** A deleted thread during its undo window. */
  #pending: { id: string; title: string; timer: ReturnType<typeof setTimeout> } | null = $state.raw(null);
  readonly #unsubscribe: () => void;

  constructor(client: AgentClient, chat: Chat, onSelect: (threadId: string) => void = () => undefined) {
    this.#client = client;
    this.#chat = chat;
    this.#onSelect = onSelect;
    this.#unsubscribe = client.onThreadEvent(() => void this.refresh());
  }

  /** Stops listening to thread updates. */
  dispose(): void {
    this.#unsubscribe();
  }

  /** Registered threads, newest first (a thread being deleted is hidden). */
  get items(): readonly ThreadInfo[] {
    const pending = this.#pending?.id;
    return pending ? this.#items.filter((t) => t.id !== pending) : this.#items;
  }
  /** The thread deleted a moment ago, while it can still be restored. */
  get pendingDelete(): { id: string; title: string } | null {
    return this.#pending;
  }
  get current(): string {
    return this.#chat.threadId;
  }
  /**
   * This tab runs the shown thread: another thread cannot be opened (nor this one deleted) until the run ends or is
   * stopped; {@link select}, {@link create} and {@link remove} of the shown thread do nothing meanwhile.
   */
  get locked(): boolean {
    return this.#chat.running;
  }
  /** The last failed thread action. */
  get error(): ErrorInfo | null {
    return this.#error;
  }
  get storage(): StorageUsage | null {
    return this.#storage;
  }

  async refresh(): Promise<void> {
    try {
      this.#items = await this.#client.listThreads();
      // Once there is data worth keeping, ask the browser not to evict it.
      if (this.#items.some((t) => t.messageCount > 0) && !this.#persistAsked && navigator.storage?.persist) {
        this.#persistAsked = true;
        await navigator.storage.persist();
      }
      await this.#estimate();
    } catch (err) {
      this.#error = toErrorInfo(err);
    }
  }

  async #estimate(): Promise<void> {
    if (!navigator.storage?.estimate) return;
    const { usage = 0, quota = 0 } = await navigator.storage.estimate();
    const persisted = navigator.storage.persisted ? await navigator.storage.persisted() : false;
    this.#storage = { usage, quota, persisted };
  }

  async select(threadId: string): Promise<void> {
    if (this.locked) return;
    await this.#chat.open(threadId);
    this.#onSelect(threadId);
  }

  /** Opens a new, empty thread (it is listed once its first run starts). */
  create(): Promise<void> {
    return this.select(crypto.randomUUID());
  }

  async rename(threadId: string, title: string): Promise<void> {
    if (!title.trim()) return;
    if (this.#check(await this.#client.renameThread(threadId, title))) await this.refresh();
  }

  /** Deletes a thread after an undo window (`undoMs`); the list hides it at once. Another delete commits the previous one. */
  async remove(threadId: string, undoMs = 6_000): Promise<void> {
    if (this.locked && threadId === this.current) return;
    await this.commitDelete();
    const title = this.#items.find((t) => t.id === threadId)?.title ?? "Thread";
    if (threadId === this.current) await this.create();
    this.#pending = { id: threadId, title, timer: setTimeout(() => void this.commitDelete(), undoMs) };
  }

  /** Restores the thread deleted a moment ago. */
  undoDelete(): void {
    if (!this.#pending) return;
    clearTimeout(this.#pending.timer);
    this.#pending = null;
  }

  /** Deletes the pending thread now. */
  async commitDelete(): Promise<void> {
    const pending = this.#pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending = null;
    if (this.#check(await this.#client.deleteThread(pending.id))) await this.refresh();
  }

  /** Downloads the thread as `<title>.json` through a Blob URL. */
  async exportThread(threadId: string): Promise<void> {
    const result = await this.#client.exportThread(threadId);
    if (!this.#check(result)) return;
    const blob = new Blob([JSON.stringify(result.value)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `${result.value.thread.title.replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || "thread"}.deeptab.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** Imports an export file and opens the new thread. */
  async importFile(file: File): Promise<void> {
    let data: unknown;
    try {
      data = JSON.parse(await file.text());
    } catch {
      this.#error = { name: "ThreadError", code: "invalid_export", message: "This file is not a deeptab thread export." };
      return;
    }
    const result = await this.#client.importThread(data);
    if (!this.#check(result)) return;
    await this.refresh();
    await this.select(result.value);
  }

  #check<T>(result: ThreadResult<T>): result is Extract<ThreadResult<T>, { ok: true }> {
    this.#error = result.ok ? null : result.error;
    return result.ok;
  }
}
