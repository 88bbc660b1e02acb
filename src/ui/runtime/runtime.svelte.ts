/**
 * Settings → Runtime: where threads run. "This tab" (the default: the agent worker) or "LangGraph server" (a server
 * URL, an optional API key sent as `x-api-key`, and one of the server's assistants). The choice, the URL and the
 * assistant are kept in this browser's storage; the key like the providers' keys: bound to the origin of the server
 * URL it was entered with (a server on another origin gets no key until one is entered for it), in this tab's memory
 * only, unless "Remember" is on (then in this site's IndexedDB, server-key-store.ts, not encrypted; never
 * `localStorage`: a key an earlier version left there is moved and removed at start). The page's client follows
 * {@link RuntimeState.route} (page/langgraph-runtime.ts); every change is announced so the page reloads.
 */
import type { ErrorInfo } from "../../core/errors.ts";
import { httpOrigin } from "../../core/http-url.ts";
import { redactSecrets } from "../../core/redact.ts";
import { connectLangGraph, type AssistantInfo, type LangGraphConnection, type LangGraphResult } from "../../page/langgraph-client.ts";
import type { LangGraphError } from "../../protocol/errors.ts";
import type { ServerRoute } from "../../page/langgraph-runtime.ts";
import { indexedDbServerKeyStore, type ServerKeyStore } from "./server-key-store.ts";

export type RuntimeKind = "tab" | "server";

const STORE = "deeptab:runtime";
/** Where an earlier version remembered the key (plain localStorage): read once, moved to IndexedDB and removed. */
const LEGACY_KEY_STORE = "deeptab:runtime-key";

/** The origin of a server URL, or undefined when it is not one. */
const originOf = (url: string) => httpOrigin(url.trim());

interface Stored {
  kind: RuntimeKind;
  url: string;
  assistantId?: string;
}

function readStored(storage: Storage | undefined): Stored {
  try {
    const raw = JSON.parse(storage?.getItem(STORE) ?? "null") as Partial<Stored> | null;
    return {
      kind: raw?.kind === "server" ? "server" : "tab",
      url: typeof raw?.url === "string" ? raw.url : "",
      ...(raw?.assistantId ? { assistantId: raw.assistantId } : {}),
    };
  } catch {
    return { kind: "tab", url: "" };
  }
}

/** The assistant to use: the one of `graphId`, else `assistantId`, else `deeptab`'s, else the first. */
function pickAssistant(
  assistants: readonly AssistantInfo[],
  prefer: { graphId?: string; assistantId?: string },
): AssistantInfo | undefined {
  return (
    (prefer.graphId ? assistants.find((a) => a.graphId === prefer.graphId) : undefined) ??
    assistants.find((a) => a.id === prefer.assistantId) ??
    assistants.find((a) => a.graphId === "deeptab") ??
    assistants[0]
  );
}

function noAssistant(url: string): LangGraphError {
  return { name: "LangGraphError", code: "not_found", message: `The server at ${url} serves no assistant (graph).` };
}

export class RuntimeState {
  readonly #storage: Storage | undefined;
  readonly #keys: ServerKeyStore;
  readonly #announce: () => void;
  /** The remembered key read (and an old localStorage one moved) at start: every use of the key waits on it. */
  readonly #loaded: Promise<void>;
  #kind: RuntimeKind = $state.raw("tab");
  #url = $state.raw("");
  #key = "";
  /** The origin of the server URL the key was entered with: the only one it is sent to. */
  #keyOrigin: string | undefined;
  #keySet = $state.raw(false);
  #remembered = $state.raw(false);
  #assistants: AssistantInfo[] = $state.raw([]);
  #assistantId = $state.raw("");
  #route: ServerRoute | null = $state.raw(null);
  #connecting = $state.raw(false);
  #error: ErrorInfo | null = $state.raw(null);

  /**
   * `announce`: tells the page's client the runtime changed (RoutedClient.announce). `storage` keeps the choice and
   * URL; `keys` a remembered key.
   */
  constructor(
    announce: () => void,
    storage: Storage | undefined = globalThis.localStorage,
    keys: ServerKeyStore = indexedDbServerKeyStore(),
  ) {
    this.#storage = storage;
    this.#keys = keys;
    this.#announce = announce;
    const stored = readStored(storage);
    this.#kind = stored.kind;
    this.#url = stored.url;
    this.#assistantId = stored.assistantId ?? "";
    this.#loaded = this.#load();
  }

  /** Reads the remembered key; a key an earlier version left in localStorage is bound to the URL kept beside it and moved. */
  async #load(): Promise<void> {
    let legacy: string | null = null;
    try {
      legacy = this.#storage?.getItem(LEGACY_KEY_STORE) ?? null;
      this.#storage?.removeItem(LEGACY_KEY_STORE);
    } catch {
      // Storage refused: nothing was kept there.
    }
    const origin = originOf(this.#url);
    const moved = legacy && origin ? { key: legacy, origin } : undefined;
    if (moved) await this.#keys.put(moved).catch(() => undefined);
    const kept = moved ?? (await this.#keys.get());
    if (!kept) return;
    this.#key = kept.key;
    this.#keyOrigin = kept.origin;
    this.#remembered = true;
    this.#keySet = this.#keyFor(this.#url) !== undefined;
  }

  /** `error` with the key hidden (redactSecrets), before it is kept and shown: a server may echo the key it was sent. */
  #hideKey(error: ErrorInfo | null): ErrorInfo | null {
    return error && this.#key ? { ...error, message: redactSecrets(error.message, [this.#key]) } : error;
  }

  /** The key for a server at `url`: only when it is on the origin the key was entered for. */
  #keyFor(url: string): string | undefined {
    return this.#key && this.#keyOrigin !== undefined && originOf(url) === this.#keyOrigin ? this.#key : undefined;
  }

  get kind(): RuntimeKind {
    return this.#kind;
  }
  get url(): string {
    return this.#url;
  }
  /** Whether a key is set for the server URL kept (never the key). */
  get keySet(): boolean {
    return this.#keySet;
  }
  get remembered(): boolean {
    return this.#remembered;
  }
  get assistants(): readonly AssistantInfo[] {
    return this.#assistants;
  }
  get assistantId(): string {
    return this.#assistantId;
  }
  get connecting(): boolean {
    return this.#connecting;
  }
  /** Why the last connection failed (plain words: unreachable, CORS, 401 …). */
  get error(): ErrorInfo | null {
    return this.#error;
  }
  /** The server the page's client uses now: null while the runtime is the tab, or not connected. */
  get route(): ServerRoute | null {
    return this.#kind === "server" ? this.#route : null;
  }

  /** Back to the tab's own runtime (the server's threads stay on the server). */
  useTab(): void {
    this.#kind = "tab";
    this.#error = null;
    this.#save();
    this.#announce();
  }

  /**
   * Connects to a server and uses it: lists its assistants and picks the one of `graphId`, or `assistantId` (or the one
   * kept, or `deeptab`, or the first). `key`: a key for this server, bound to its origin; undefined keeps the one set,
   * which is sent only if it was entered for this server's origin; "" drops it. False, with {@link error} set, when it
   * cannot.
   */
  async connect(url: string, options: { key?: string; remember?: boolean; assistantId?: string; graphId?: string } = {}): Promise<boolean> {
    this.#connecting = true;
    this.#error = null;
    try {
      await this.#loaded;
      if (options.key !== undefined) {
        this.#key = options.key.trim();
        this.#keyOrigin = this.#key ? originOf(url) : undefined;
      }
      if (options.remember !== undefined) this.#remembered = options.remember && this.#key !== "";
      // What the person entered holds whether or not the server answers (as a provider key saved in Settings does).
      if (options.key !== undefined || options.remember !== undefined) this.#saved = this.#saveKey();
      const key = this.#keyFor(url);
      this.#keySet = key !== undefined;
      const connected = await connectLangGraph({ url, ...(key ? { apiKey: key } : {}) });
      const listed = connected.ok ? await connected.value.assistants() : connected;
      this.#url = url.trim();
      if (!connected.ok || !listed.ok) {
        this.#error = this.#hideKey(connected.ok ? (listed.ok ? null : listed.error) : connected.error);
        this.#route = null;
        return false;
      }
      const assistants = listed.value;
      const chosen = pickAssistant(assistants, {
        ...(options.graphId ? { graphId: options.graphId } : {}),
        assistantId: options.assistantId ?? this.#assistantId,
      });
      if (!chosen) {
        this.#error = noAssistant(connected.value.url);
        return false;
      }
      this.#assistants = assistants;
      this.#assistantId = chosen.id;
      this.#kind = "server";
      this.#route = { connection: connected.value, assistantId: chosen.id, assistantName: chosen.name };
      this.#save();
      this.#announce();
      return true;
    } finally {
      this.#connecting = false;
    }
  }

  /** Uses another of the connected server's assistants. */
  chooseAssistant(assistantId: string): void {
    const chosen = this.#assistants.find((a) => a.id === assistantId);
    if (!chosen || !this.#route) return;
    this.#assistantId = chosen.id;
    this.#route = { ...this.#route, assistantId: chosen.id, assistantName: chosen.name };
    this.#save();
    this.#announce();
  }

  /**
   * The server in use, or else the one kept in Settings (its URL and key), connected without switching the runtime;
   * with the graph of the assistant in use or kept (or `deeptab`, or the first): where a tab thread is copied to.
   */
  async server(): Promise<LangGraphResult<{ connection: LangGraphConnection; graphId: string }>> {
    const route = this.route;
    const inUse = route && this.#assistants.find((a) => a.id === route.assistantId);
    if (route && inUse) return { ok: true, value: { connection: route.connection, graphId: inUse.graphId } };
    await this.#loaded;
    const key = this.#keyFor(this.#url);
    const connected = await connectLangGraph({ url: this.#url, ...(key ? { apiKey: key } : {}) });
    if (!connected.ok) return connected;
    const listed = await connected.value.assistants();
    if (!listed.ok) return listed;
    const chosen = pickAssistant(listed.value, { assistantId: this.#assistantId });
    if (!chosen) return { ok: false, error: noAssistant(connected.value.url) };
    return { ok: true, value: { connection: connected.value, graphId: chosen.graphId } };
  }

  /**
   * Settings → Forget everything: the key (this tab's memory and IndexedDB; an old localStorage one too), the server
   * URL, the assistant and the choice (localStorage) are forgotten, and the runtime is the tab again (announced when a
   * server was in use). Resolves once the stored key is deleted; a refused storage is not an error (nothing was kept).
   */
  async forget(): Promise<void> {
    await this.#loaded;
    const wasServer = this.#kind === "server";
    this.#key = "";
    this.#keyOrigin = undefined;
    this.#keySet = false;
    this.#remembered = false;
    this.#kind = "tab";
    this.#url = "";
    this.#assistants = [];
    this.#assistantId = "";
    this.#route = null;
    this.#error = null;
    this.#forgotten++;
    try {
      this.#storage?.removeItem(STORE);
      this.#storage?.removeItem(LEGACY_KEY_STORE);
    } catch {
      // Storage refused: nothing was kept there.
    }
    this.#saved = this.#keys.delete().catch(() => undefined);
    if (wasServer) this.#announce();
    await this.#saved;
  }

  /** How many times {@link forget} ran: a form showing this runtime starts over when it changes. */
  get forgotten(): number {
    return this.#forgotten;
  }
  #forgotten = $state.raw(0);

  /** At page load: reconnects to the server kept in storage, if that is the runtime (in the background). */
  async restore(): Promise<void> {
    await this.#loaded;
    if (this.#kind === "server" && this.#url) await this.connect(this.#url);
  }

  #save(): void {
    const stored: Stored = { kind: this.#kind, url: this.#url, ...(this.#assistantId ? { assistantId: this.#assistantId } : {}) };
    try {
      this.#storage?.setItem(STORE, JSON.stringify(stored));
    } catch {
      // Storage refused (private mode, quota): the choice holds for this tab.
    }
    this.#saved = this.#saveKey();
  }

  /** The remembered key written (or removed) by the last change: tests and callers that need it stored wait on it. */
  get saved(): Promise<void> {
    return this.#saved;
  }
  #saved: Promise<void> = Promise.resolve();

  async #saveKey(): Promise<void> {
    const origin = this.#keyOrigin;
    try {
      if (this.#remembered && this.#key && origin) await this.#keys.put({ key: this.#key, origin });
      else await this.#keys.delete();
    } catch {
      // IndexedDB refused: the key holds for this tab only.
    }
  }
}
