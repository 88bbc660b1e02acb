/**
 * Settings → Runtime: where threads run. "This tab" (the default: the agent worker) or "LangGraph server" (a server
 * URL, an optional API key sent as `x-api-key`, and one of the server's assistants). The choice, the URL and the
 * assistant are kept in this browser's storage; the key like the providers' keys: in this tab's memory only, unless
 * "Remember" is on (then in this browser's storage for this site, not encrypted). The page's client follows
 * {@link RuntimeState.route} (worker/langgraph-runtime.ts); every change is announced so the page reloads.
 */
import type { ErrorInfo } from "../core/errors.ts";
import {
  connectLangGraph,
  type AssistantInfo,
  type LangGraphConnection,
  type LangGraphError,
  type LangGraphResult,
} from "../worker/langgraph-client.ts";
import type { ServerRoute } from "../worker/langgraph-runtime.ts";

export type RuntimeKind = "tab" | "server";

const STORE = "deeptab:runtime";
const KEY_STORE = "deeptab:runtime-key";

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
  readonly #announce: () => void;
  #kind: RuntimeKind = $state.raw("tab");
  #url = $state.raw("");
  #key = "";
  #keySet = $state.raw(false);
  #remembered = $state.raw(false);
  #assistants: AssistantInfo[] = $state.raw([]);
  #assistantId = $state.raw("");
  #route: ServerRoute | null = $state.raw(null);
  #connecting = $state.raw(false);
  #error: ErrorInfo | null = $state.raw(null);

  /** `announce`: tells the page's client the runtime changed (RoutedClient.announce). */
  constructor(announce: () => void, storage: Storage | undefined = globalThis.localStorage) {
    this.#storage = storage;
    this.#announce = announce;
    const stored = readStored(storage);
    this.#kind = stored.kind;
    this.#url = stored.url;
    this.#assistantId = stored.assistantId ?? "";
    this.#key = storage?.getItem(KEY_STORE) ?? "";
    this.#keySet = this.#remembered = this.#key !== "";
  }

  get kind(): RuntimeKind {
    return this.#kind;
  }
  get url(): string {
    return this.#url;
  }
  /** Whether a key is set (never the key). */
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
   * kept, or `deeptab`, or the first). `key`: undefined keeps the one set, "" drops it. False, with {@link error} set, when it cannot.
   */
  async connect(url: string, options: { key?: string; remember?: boolean; assistantId?: string; graphId?: string } = {}): Promise<boolean> {
    this.#connecting = true;
    this.#error = null;
    try {
      if (options.key !== undefined) this.#key = options.key.trim();
      if (options.remember !== undefined) this.#remembered = options.remember && this.#key !== "";
      this.#keySet = this.#key !== "";
      const connected = await connectLangGraph({ url, ...(this.#key ? { apiKey: this.#key } : {}) });
      const listed = connected.ok ? await connected.value.assistants() : connected;
      this.#url = url.trim();
      if (!connected.ok || !listed.ok) {
        this.#error = connected.ok ? (listed.ok ? null : listed.error) : connected.error;
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
    const connected = await connectLangGraph({ url: this.#url, ...(this.#key ? { apiKey: this.#key } : {}) });
    if (!connected.ok) return connected;
    const listed = await connected.value.assistants();
    if (!listed.ok) return listed;
    const chosen = pickAssistant(listed.value, { assistantId: this.#assistantId });
    if (!chosen) return { ok: false, error: noAssistant(connected.value.url) };
    return { ok: true, value: { connection: connected.value, graphId: chosen.graphId } };
  }

  /** At page load: reconnects to the server kept in storage, if that is the runtime (in the background). */
  async restore(): Promise<void> {
    if (this.#kind === "server" && this.#url) await this.connect(this.#url);
  }

  #save(): void {
    const stored: Stored = { kind: this.#kind, url: this.#url, ...(this.#assistantId ? { assistantId: this.#assistantId } : {}) };
    try {
      this.#storage?.setItem(STORE, JSON.stringify(stored));
      if (this.#remembered && this.#key) this.#storage?.setItem(KEY_STORE, this.#key);
      else this.#storage?.removeItem(KEY_STORE);
    } catch {
      // Storage refused (private mode, quota): the choice holds for this tab.
    }
  }
}
