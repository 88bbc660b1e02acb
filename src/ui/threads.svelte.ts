/**
 * The thread list's reactive state: the registry (refreshed on every
 * `thread_updated` broadcast), switching threads through the Chat, rename,
 * delete, export (a .json download) and import, and the origin's storage
 * usage. Components read it through context (context.ts).
 */
import { toErrorInfo } from "../core/errors.ts";
import type { AgentClient } from "../worker/client.ts";
import type { ErrorInfo, ThreadInfo, ThreadResult } from "../worker/protocol.ts";
import type { Chat } from "./chat.svelte.ts";

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

  /** Registered threads, newest first. */
  get items(): readonly ThreadInfo[] {
    return this.#items;
  }
  get current(): string {
    return this.#chat.threadId;
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
    if (this.#chat.running) return;
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

  async remove(threadId: string): Promise<void> {
    if (!this.#check(await this.#client.deleteThread(threadId))) return;
    if (threadId === this.current) await this.create();
    await this.refresh();
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
