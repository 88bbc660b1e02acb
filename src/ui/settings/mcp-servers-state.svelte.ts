/**
 * Settings › MCP servers: the servers the worker keeps, their state and tools, and the Add MCP server form. A
 * header value (token) typed here goes to the worker and is forgotten: the field empties once it is sent.
 */
import type { McpServersApi, McpServerView, McpToolChoice } from "../../protocol/mcp.ts";
import { localNetworkNote } from "./model-form.ts";
import { guarded } from "../shared/guard.ts";
import { callbackUrl, openSignInWindow, waitForCallback } from "./mcp-sign-in.ts";

/** How long a list with servers still connecting is read again: every 500 ms, for at most 30 s. */
const POLL_MS = 500;
const POLL_LIMIT_MS = 30_000;

/** Words for a server's state. */
export function stateText(server: McpServerView): string {
  switch (server.state) {
    case "connecting":
      return "Connecting…";
    case "connected": {
      const count = `${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}`;
      return `Connected${server.transport === "sse" ? " (HTTP+SSE)" : ""}: ${count}`;
    }
    case "needs_secret":
      return `Needs its ${server.header?.name ?? "header"} value again: it was kept for the last session only.`;
    case "needs_sign_in":
      return "Needs sign-in: the server asks you to sign in before it lists its tools.";
    case "signing_in":
      return "Signing in… finish in the sign-in window.";
    case "failed":
      return `Failed: ${server.error?.message ?? "unknown error"}`;
  }
}

export class McpServersState {
  readonly #connect: () => Promise<McpServersApi>;
  #api: Promise<McpServersApi> | undefined;
  #servers: McpServerView[] = $state.raw([]);
  #error: string | null = $state.raw(null);
  #adding = $state(false);
  #disposed = false;
  /** Sign-ins waiting for their window, by server id: Cancel aborts them. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not state: nothing renders from it
  #signIns = new Map<string, AbortController>();
  url = $state("");
  name = $state("");
  headerName = $state("");
  headerValue = $state("");
  remember = $state(false);

  readonly #callbackUrl: () => string;

  /**
   * `connect` gives the worker's MCP calls (AgentWorkerApi.mcpServers); it is called once, on first use.
   * `callback` gives the sign-in callback page's URL (default: oauth-callback.html beside the page).
   */
  constructor(connect: () => Promise<McpServersApi>, callback: () => string | undefined = () => undefined) {
    this.#connect = connect;
    this.#callbackUrl = () => callback() ?? callbackUrl();
  }

  get #client(): Promise<McpServersApi> {
    return (this.#api ??= this.#connect());
  }

  get servers(): McpServerView[] {
    return this.#servers;
  }
  /** The last failure of a call, for the section to show. */
  get error(): string | null {
    return this.#error;
  }
  get adding(): boolean {
    return this.#adding;
  }
  /** The Local Network Access note for a server on this device or the local network, as for a provider's base URL. */
  get localNote(): string | null {
    return localNetworkNote(this.url, globalThis.location?.hostname ?? "");
  }

  dispose(): void {
    this.#disposed = true;
    for (const waiting of this.#signIns.values()) waiting.abort();
  }

  #guard<T>(call: () => Promise<T>): Promise<T | undefined> {
    return guarded(call, (message) => (this.#error = message));
  }

  #replace(view: McpServerView): void {
    this.#servers = this.#servers.some((s) => s.id === view.id)
      ? this.#servers.map((s) => (s.id === view.id ? view : s))
      : [...this.#servers, view];
  }

  /** Reads the list, again while a server is still connecting. */
  async load(): Promise<void> {
    const until = Date.now() + POLL_LIMIT_MS;
    for (;;) {
      const servers = await this.#guard(async () => (await this.#client).listMcpServers());
      if (this.#disposed || !servers) return;
      this.#servers = servers;
      if (!servers.some((s) => s.state === "connecting") || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Adds the server of the form; the form empties when the worker took it. */
  async add(): Promise<void> {
    if (this.#adding) return;
    this.#adding = true;
    const value = this.headerValue;
    this.headerValue = "";
    try {
      const result = await this.#guard(async () =>
        (await this.#client).addMcpServer({
          url: this.url,
          ...(this.name.trim() ? { name: this.name } : {}),
          ...(this.headerName.trim() ? { headerName: this.headerName } : {}),
          ...(value.trim() ? { headerValue: value } : {}),
          remember: this.remember,
        }),
      );
      if (!result || this.#disposed) return;
      if (!result.ok) {
        this.#error = result.error.message;
        return;
      }
      this.#replace(result.value);
      this.url = this.name = this.headerName = "";
      this.remember = false;
    } finally {
      this.#adding = false;
    }
  }

  async #update(call: () => Promise<{ ok: true; value: McpServerView } | { ok: false; error: { message: string } }>): Promise<void> {
    const result = await this.#guard(call);
    if (!result || this.#disposed) return;
    if (result.ok) this.#replace(result.value);
    else this.#error = result.error.message;
  }

  reconnect(id: string): Promise<void> {
    return this.#update(async () => (await this.#client).reconnectMcpServer(id));
  }

  setTool(id: string, tool: string, choice: McpToolChoice): Promise<void> {
    return this.#update(async () => (await this.#client).setMcpTool(id, tool, choice));
  }

  /** Sends a new header value (the caller empties its field). */
  setHeader(id: string, value: string, remember: boolean): Promise<void> {
    return this.#update(async () => (await this.#client).setMcpHeader(id, value, remember));
  }

  /**
   * Signs in to server `id` (OAuth): opens the sign-in window now (call it from the click, before any await, or
   * the browser blocks it), sends it where the worker says, and finishes with what the callback page passes back.
   * `remember` keeps the sign-in on this device.
   */
  async signIn(id: string, remember: boolean, open: () => Window | null = openSignInWindow): Promise<void> {
    const popup = open();
    const api = await this.#guard(() => this.#client);
    if (!api) return popup?.close();
    if (!popup) {
      // Say so through the worker, so the card shows it as the sign-in's failure.
      const why = "The browser blocked the sign-in window: allow pop-ups for this site, then click Sign in again.";
      await this.#update(() => api.cancelMcpSignIn(id, why));
      return;
    }
    const started = await this.#guard(() => api.beginMcpSignIn(id, this.#callbackUrl(), remember));
    if (!started || this.#disposed || !started.ok || started.value.url === null) {
      popup.close();
      if (started && !started.ok) this.#error = started.error.message;
      if (started?.ok) this.#replace(started.value.server);
      return;
    }
    this.#replace(started.value.server);
    const url = started.value.url;
    popup.location.href = url;
    const waiting = new AbortController();
    this.#signIns.get(id)?.abort();
    this.#signIns.set(id, waiting);
    const ended = await waitForCallback(URL.parse(url)?.searchParams.get("state") ?? "", popup, waiting.signal);
    if (this.#signIns.get(id) === waiting) this.#signIns.delete(id);
    if (this.#disposed) return;
    if (ended.kind === "answer") await this.#update(() => api.finishMcpSignIn(id, ended.callback));
    else {
      popup.close();
      const why = ended.kind === "closed" ? "The sign-in window was closed before the sign-in finished." : "Sign-in cancelled.";
      await this.#update(() => api.cancelMcpSignIn(id, why));
    }
  }

  /** Stops waiting for a sign-in's window. */
  cancelSignIn(id: string): void {
    this.#signIns.get(id)?.abort();
  }

  /** Forgets the server's sign-in (tokens and registration). */
  signOut(id: string): Promise<void> {
    return this.#update(async () => (await this.#client).signOutMcpServer(id));
  }

  async remove(id: string): Promise<void> {
    const result = await this.#guard(async () => (await this.#client).removeMcpServer(id));
    if (!result || this.#disposed) return;
    if (result.ok) this.#servers = this.#servers.filter((s) => s.id !== id);
    else this.#error = result.error.message;
  }
}
