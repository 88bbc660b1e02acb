/**
 * The settings' reactive state: the worker's settings, which keys are set
 * (never the keys), the sandbox status, the in-tab models and their
 * downloads, the request log and provider model lists. The settings dialog
 * and the model manager render it and call its methods; nothing here keeps
 * a key: `setKey` passes it to the worker and forgets it.
 */
import { toErrorInfo } from "../../core/errors.ts";
import type { ErrorInfo } from "../../core/errors.ts";
import { err, fail, type Result } from "../../core/result.ts";
import { KEY_PROVIDERS } from "../../protocol/catalog.ts";
import type { AgentClient } from "../../page/client.ts";
import { guarded } from "../shared/guard.ts";
import type {
  CachedModel,
  DownloadProgress,
  KeyStatus,
  ModelChoice,
  ModelSource,
  ProviderId,
  RequestLogEntry,
  SandboxStatus,
  Settings,
} from "../../protocol/settings.ts";
import type { DownloadError } from "../../protocol/errors.ts";

/** A download of this page: its latest progress, and how it ended when it failed. */
export interface DownloadEntry {
  id: string;
  name: string;
  progress: DownloadProgress | null;
  error: DownloadError | null;
  /** True while the worker downloads it. */
  running: boolean;
}

/** What the provider lists (`/v1/models`), or why it cannot (a ModelListErrorCode, or the worker's own failure). */
export type ProviderModels = Result<string[], ErrorInfo>;

/** The cache key of a provider's model list: provider and base URL. */
function listKey(choice: ModelChoice): string {
  return `${choice.provider}|${choice.baseUrl ?? ""}`;
}

export class SettingsState {
  readonly #client: AgentClient;
  #settings: Settings | null = $state.raw(null);
  #keys: KeyStatus[] = $state.raw([]);
  #sandbox: SandboxStatus | null = $state.raw(null);
  #models: CachedModel[] = $state.raw([]);
  #downloads: Readonly<Record<string, DownloadEntry>> = $state.raw({});
  #log: RequestLogEntry[] = $state.raw([]);
  #lists: Readonly<Record<string, ProviderModels>> = $state.raw({});
  #error: string | null = $state.raw(null);
  /** Not reactive: requests in flight (one per list) and change listeners. */
  readonly #pendingLists: Record<string, Promise<ProviderModels> | undefined> = {};
  #listeners: Array<(settings: Settings) => void> = [];
  #disposed = false;
  /** Counts saves: a load that started before a save must not put the settings and sandbox back as they were. */
  #saves = 0;

  constructor(client: AgentClient) {
    this.#client = client;
  }

  /** The worker client, for parts of Settings with state of their own (MCP servers). */
  get client(): AgentClient {
    return this.#client;
  }

  /** The worker's settings; null until `load` answered. */
  get settings(): Settings | null {
    return this.#settings;
  }
  /** Key status of the providers that take one (whether set and remembered; never the key). */
  get keys(): KeyStatus[] {
    return this.#keys;
  }
  get sandbox(): SandboxStatus | null {
    return this.#sandbox;
  }
  /** Models on disk (complete or partial) and files dropped this session. */
  get models(): CachedModel[] {
    return this.#models;
  }
  /** Downloads started on this page, by model id. */
  get downloads(): Readonly<Record<string, DownloadEntry>> {
    return this.#downloads;
  }
  get log(): RequestLogEntry[] {
    return this.#log;
  }
  /** The last failure of a settings call, for the dialog to show. */
  get error(): string | null {
    return this.#error;
  }

  keyStatus(provider: ProviderId): KeyStatus | undefined {
    return this.#keys.find((k) => k.provider === provider);
  }

  /** The cached model list of a provider (and base URL), if `loadModels` fetched it. */
  providerModels(choice: ModelChoice): ProviderModels | undefined {
    return this.#lists[listKey(choice)];
  }

  /** Called with the settings after each load and save (the page boots a chosen WebContainer on it). Returns the unsubscribe. */
  onChange(listener: (settings: Settings) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Stops updating: later answers and download progress are dropped, listeners cleared. Downloads in the worker go on. */
  dispose(): void {
    this.#disposed = true;
    this.#listeners = [];
  }

  #changed(settings: Settings): void {
    this.#settings = settings;
    for (const listener of this.#listeners) listener(settings);
  }

  #guard<T>(call: () => Promise<T>): Promise<T | undefined> {
    return guarded(call, (message) => (this.#error = message));
  }

  /** Reads everything the dialog shows from the worker. */
  async load(): Promise<void> {
    await this.#guard(async () => {
      const saves = this.#saves;
      const [settings, keys, sandbox, models] = await Promise.all([
        this.#client.getSettings(),
        this.#client.keyStatus(),
        this.#client.sandboxStatus(),
        this.#client.listLocalModels(),
      ]);
      if (this.#disposed) return;
      this.#keys = keys;
      this.#models = models;
      // A save answered meanwhile (a quick choice while the dialog was still loading): its values are newer.
      if (saves !== this.#saves) return;
      this.#sandbox = sandbox;
      this.#changed(settings);
    });
  }

  /** Saves a change of the settings; the saved settings (null when the worker failed). */
  async save(patch: Partial<Settings>): Promise<Settings | null> {
    this.#saves++;
    const saved = await this.#guard(() => this.#client.updateSettings(patch));
    if (!saved || this.#disposed) return null;
    this.#changed(saved);
    await this.refreshSandbox();
    return saved;
  }

  /**
   * Hands a key to the worker (kept for the session, or remembered on this device), bound to the origin of `baseUrl`
   * (the provider's official URL when unset): it is sent nowhere else. The caller clears its input.
   */
  async setKey(provider: ProviderId, key: string, remember: boolean, baseUrl?: string): Promise<KeyStatus | null> {
    const status = await this.#guard(() => this.#client.setKey(provider, key, remember, baseUrl));
    if (!status) return null;
    this.#setStatus(status);
    return status;
  }

  async forgetKey(provider: ProviderId): Promise<KeyStatus | null> {
    const status = await this.#guard(() => this.#client.forgetKey(provider));
    if (!status) return null;
    this.#setStatus(status);
    return status;
  }

  #setStatus(status: KeyStatus): void {
    const others = this.#keys.filter((k) => k.provider !== status.provider);
    this.#keys = KEY_PROVIDERS.map((p) => (p === status.provider ? status : others.find((k) => k.provider === p))).filter(
      (k): k is KeyStatus => k !== undefined,
    );
    // A new key may list other models (or list at all).
    const lists = { ...this.#lists };
    for (const key of Object.keys(lists)) if (key.startsWith(`${status.provider}|`)) delete lists[key];
    this.#lists = lists;
  }

  /** The models a provider lists (cached per provider and base URL; `refresh` asks again). */
  async loadModels(choice: ModelChoice, refresh = false): Promise<ProviderModels> {
    const key = listKey(choice);
    const cached = this.#lists[key];
    if (cached && !refresh) return cached;
    let pending = this.#pendingLists[key];
    if (!pending) {
      pending = this.#client
        .listProviderModels({ provider: choice.provider, model: choice.model, ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}) })
        .catch((cause: unknown) => err(toErrorInfo(cause)))
        .finally(() => delete this.#pendingLists[key]);
      this.#pendingLists[key] = pending;
    }
    const listed = await pending;
    if (!this.#disposed) this.#lists = { ...this.#lists, [key]: listed };
    return listed;
  }

  /** The window the worker assumes for a model (its profile, deeptab's table or the server's), when known. */
  async defaultWindow(choice: ModelChoice): Promise<number | undefined> {
    return (await this.#guard(() => this.#client.defaultWindow(choice))) ?? undefined;
  }

  async refreshSandbox(): Promise<void> {
    const status = await this.#guard(() => this.#client.sandboxStatus());
    if (status && !this.#disposed) this.#sandbox = status;
  }

  /** Takes a status the sandbox host got from the worker (attachContainer's answer). */
  updateSandbox(status: SandboxStatus): void {
    if (!this.#disposed) this.#sandbox = status;
  }

  async refreshModels(): Promise<void> {
    const models = await this.#guard(() => this.#client.listLocalModels());
    if (models && !this.#disposed) this.#models = models;
  }

  #setDownload(id: string, patch: Partial<DownloadEntry>): void {
    if (this.#disposed) return;
    const current = this.#downloads[id] ?? { id, name: id, progress: null, error: null, running: false };
    this.#downloads = { ...this.#downloads, [id]: { ...current, ...patch } };
  }

  /**
   * Downloads a model (or the rest of it: a partial download resumes from
   * what is on disk). Progress shows in `downloads[source.id]`.
   */
  async download(source: ModelSource): Promise<Result<CachedModel, DownloadError>> {
    if (this.#downloads[source.id]?.running) return fail("invalid", `${source.name} is already downloading.`, "DownloadError");
    this.#setDownload(source.id, { name: source.name, error: null, running: true });
    let outcome: Result<CachedModel, DownloadError>;
    try {
      outcome = await this.#client.downloadModel(source, (progress) => this.#setDownload(source.id, { progress }));
    } catch (cause) {
      outcome = fail("storage", toErrorInfo(cause).message, "DownloadError");
    }
    this.#setDownload(source.id, { running: false, error: outcome.ok ? null : outcome.error });
    await this.refreshModels();
    return outcome;
  }

  /** Stops a download; what arrived stays on disk and a later download resumes from it. */
  async cancel(id: string): Promise<void> {
    await this.#guard(() => this.#client.cancelDownload(id));
  }

  /** Deletes a model from disk (or forgets a dropped file). */
  async deleteModel(id: string): Promise<void> {
    await this.#guard(() => this.#client.deleteLocalModel(id));
    if (this.#disposed) return;
    const { [id]: _gone, ...rest } = this.#downloads;
    this.#downloads = rest;
    await this.refreshModels();
  }

  /** Uses .gguf files from the user's disk for this session (read in place, never uploaded): the model id, or why not. */
  async useLocalFile(files: File[]): Promise<Result<string>> {
    const used = await this.#guard(() => this.#client.useLocalFile(files));
    if (!used) return fail("worker_failed", this.#error ?? "The worker did not answer.");
    await this.refreshModels();
    return used;
  }

  async refreshLog(): Promise<void> {
    const log = await this.#guard(() => this.#client.requestLog());
    if (log && !this.#disposed) this.#log = log;
  }

  /** Deletes keys, threads, files, memories and settings in the worker (downloaded models stay), then reloads. */
  async forgetEverything(): Promise<boolean> {
    const done = await this.#guard(async () => {
      await this.#client.forgetEverything();
      return true;
    });
    if (!done) return false;
    this.#lists = {};
    this.#log = [];
    await this.load();
    return true;
  }
}
