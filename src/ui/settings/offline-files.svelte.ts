const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Settings › Offline files: what the service worker keeps (src/ui/runtime/offline-files.ts), by part, read when the
 * section is opened and after a clear; clearing removes the parts fetched on first use, never the app shell.
 */
import { summarizeCache, type PartSummary } from "../runtime/offline-cache.ts";
import { clearOfflineParts, readOfflineCaches } from "../runtime/offline-files.ts";

export class OfflineFiles {
  #parts: PartSummary[] | null = $state.raw(null);
  #busy = $state(false);
  #error = $state("");
  readonly #base: string;

  /** `base`: the app's folder (the service worker's scope), which cached paths are named relative to. */
  constructor(base: string) {
    this.#base = base;
  }

  /** Each part kept, the app shell first; null until first read. */
  get parts(): PartSummary[] | null {
    return this.#parts;
  }

  get busy(): boolean {
    return this.#busy;
  }

  get error(): string {
    return this.#error;
  }

  /** Whether there is anything to clear (a part fetched on first use). */
  get clearable(): boolean {
    return (this.#parts ?? []).some((p) => p.part !== "shell");
  }

  get totalBytes(): number {
    return (this.#parts ?? []).reduce((n, p) => n + p.bytes, 0);
  }

  async refresh(): Promise<void> {
    try {
      const { shell, parts } = await readOfflineCaches(this.#base);
      this.#parts = summarizeCache(shell, parts);
      this.#error = "";
    } catch (err) {
      this.#error = message(err);
    }
  }

  async clear(): Promise<void> {
    this.#busy = true;
    try {
      await clearOfflineParts();
      await this.refresh();
    } catch (err) {
      this.#error = message(err);
    } finally {
      this.#busy = false;
    }
  }
}
