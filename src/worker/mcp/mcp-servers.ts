/**
 * MCP servers in the worker: the list Settings edits, their connections, and the tools runs get.
 *
 * - A server's URL, name, header name and tool choices persist in the IndexedDB store under ["mcp_servers"].
 * - A header's value (a bearer token) is kept as API keys are (settings.ts): in this worker's memory for the session;
 *   under ["mcp_secrets"] only when the person asks to remember it (otherwise only a mark that there was one, so
 *   after a reload the server says it needs the value again rather than connect without it). Values never leave
 *   the worker: no call returns one, and `redact` hides them in any text that leaves.
 * - A server without a header signs people in with OAuth when it asks (tools/mcp-oauth.ts): its registered client and
 *   tokens are kept as header values are (memory; under ["mcp_oauth"] only when the person chose Remember), hidden
 *   by `redact` too, and forgotten by Sign out and Remove.
 * - The client (tools/mcp-*.ts) is imported when a server is first connected, so the worker starts without it.
 * - A run gets the enabled tools of the connected servers, and asks before those whose "ask" is on.
 */
import type { BaseStore } from "@langchain/langgraph/web";
import { toErrorInfo } from "../../core/errors.ts";
import { redactSecrets } from "../../core/redact.ts";
import { err, ok } from "../../core/result.ts";
import type { AgentTool } from "../../harness/types.ts";
import type { InterruptOnConfig } from "../../middleware/hitl.ts";
import type { McpOAuthCredentials, McpOAuthProvider } from "../../tools/mcp-oauth.ts";
import { mcpRunsWithoutAsking } from "../../tools/mcp-annotations.ts";
import type { McpConnection } from "../../tools/mcp-tools.ts";
import type { McpResult, McpServerError, McpServersApi, McpServerView, McpToolChoice, McpToolView } from "../../protocol/mcp.ts";

const SERVERS_NS = ["mcp_servers"];
const SECRETS_NS = ["mcp_secrets"];
const OAUTH_NS = ["mcp_oauth"];

/** What is stored of a server (never its header's value). */
interface StoredServer {
  url: string;
  name: string;
  headerName?: string;
  /** The header's value was for a session only (a mark, not the value). */
  sessionOnly?: boolean;
  tools: Record<string, McpToolChoice>;
  added: number;
}

interface Live {
  stored: StoredServer;
  view: McpServerView;
  connection?: McpConnection;
  connecting?: Promise<void>;
  /** OAuth for a server without a header (created on first connect). */
  oauth?: McpOAuthProvider;
  /** The server asked for a sign-in at least once (Settings shows Sign in / Sign out). */
  asksSignIn?: boolean;
}

/** The tools of a run and which of them ask first. */
export interface McpRunTools {
  tools: AgentTool[];
  interruptOn: InterruptOnConfig;
}

export interface McpServersService {
  readonly api: McpServersApi;
  /** The enabled tools of the connected servers (waits for servers still connecting). */
  forRun(): Promise<McpRunTools>;
  /** The header values and sign-in tokens held, for the worker's one list of secrets to hide (app.ts `secrets`). */
  secrets(): string[];
  /** `text` with every form of every header value and sign-in token hidden (core/redact.ts). */
  redact(text: string): string;
  /** Disconnects and forgets every server and header value. */
  clear(): Promise<void>;
}

const notFound = (id: string) => err({ name: "McpError", code: "not_found" as const, message: `No MCP server ${id.slice(0, 60)}.` });

function headerValueFor(name: string, value: string): string {
  const trimmed = value.trim();
  return name.toLowerCase() === "authorization" && !/\s/.test(trimmed) ? `Bearer ${trimmed}` : trimmed;
}

function toolView(tool: McpConnection["tools"][number], choice: McpToolChoice | undefined): McpToolView {
  const readOnly = mcpRunsWithoutAsking(tool.mcp.annotations);
  return {
    name: tool.name,
    tool: tool.mcp.tool,
    ...(tool.mcp.title ? { title: tool.mcp.title } : {}),
    description: tool.description,
    readOnly,
    enabled: choice?.enabled ?? true,
    ask: choice?.ask ?? !readOnly,
  };
}

/** The MCP servers service over `store` (memory only without one); requests go through `fetchImpl` (the request log). */
export function createMcpServers(store: BaseStore | undefined, fetchImpl: typeof fetch): McpServersService {
  const servers = new Map<string, Live>();
  const secrets = new Map<string, string>();
  const remembered = new Set<string>();
  const credentials = new Map<string, McpOAuthCredentials>();
  const rememberedSignIns = new Set<string>();
  let loaded: Promise<void> | undefined;

  const headerStatus = (id: string, stored: StoredServer) =>
    stored.headerName ? { header: { name: stored.headerName, set: secrets.has(id), remembered: remembered.has(id) } } : {};

  function signInStatus(id: string): Pick<McpServerView, "signIn"> {
    const live = servers.get(id);
    if (!live?.asksSignIn && !credentials.get(id)?.tokens) return {};
    return { signIn: { signedIn: credentials.get(id)?.tokens !== undefined, remembered: rememberedSignIns.has(id) } };
  }

  function baseView(id: string, stored: StoredServer, state: McpServerView["state"]): McpServerView {
    return { id, url: stored.url, name: stored.name, state, tools: [], skipped: [], ...headerStatus(id, stored), ...signInStatus(id) };
  }

  /** The credentials store of server `id`: memory, and IndexedDB when the person chose Remember. */
  function oauthStore(id: string) {
    return {
      load: () => credentials.get(id) ?? {},
      async save(next: McpOAuthCredentials) {
        if (!next.client && !next.tokens) credentials.delete(id);
        else credentials.set(id, { ...next });
        if (rememberedSignIns.has(id) && (next.client || next.tokens)) await store?.put(OAUTH_NS, id, { ...next });
        else await store?.delete(OAUTH_NS, id);
      },
    };
  }

  async function oauthFor(id: string, live: Live): Promise<McpOAuthProvider> {
    if (!live.oauth) {
      const { McpOAuthProvider } = await import("../../tools/mcp-oauth.ts");
      live.oauth ??= new McpOAuthProvider(live.stored.url, oauthStore(id), fetchImpl);
    }
    return live.oauth;
  }

  async function save(id: string, stored: StoredServer): Promise<void> {
    await store?.put(SERVERS_NS, id, { ...stored });
  }

  function connect(id: string, live: Live): Promise<void> {
    const run = (async () => {
      await live.connection?.close().catch(() => undefined);
      delete live.connection;
      const { stored } = live;
      const secret = secrets.get(id);
      if (stored.headerName && !secret && stored.sessionOnly) {
        live.view = { ...baseView(id, stored, "needs_secret") };
        return;
      }
      live.view = baseView(id, stored, "connecting");
      const { connectMcpServer } = await import("../../tools/mcp-tools.ts");
      const authProvider = stored.headerName ? undefined : await oauthFor(id, live);
      // Each connection looks again at which authorization server the server names (tokens are bound to theirs).
      authProvider?.rebind();
      const result = await connectMcpServer({
        url: stored.url,
        name: stored.name,
        fetch: fetchImpl,
        ...(stored.headerName && secret ? { headers: { [stored.headerName]: secret } } : {}),
        ...(authProvider ? { authProvider } : {}),
      }).catch((e: unknown) => err({ ...toErrorInfo(e), code: "protocol" as const }));
      if (servers.get(id) !== live) {
        if (result.ok) await result.value.close();
        return;
      }
      if (!result.ok && result.error.code === "sign_in_required") {
        live.asksSignIn = true;
        live.view = baseView(id, stored, "needs_sign_in");
        return;
      }
      if (!result.ok) {
        live.view = { ...baseView(id, stored, "failed"), error: { ...result.error, message: redact(result.error.message) } };
        return;
      }
      if (authProvider?.signedIn) live.asksSignIn = true;
      live.connection = result.value;
      live.view = {
        ...baseView(id, stored, "connected"),
        transport: result.value.transport,
        tools: result.value.tools.map((t) => toolView(t, stored.tools[t.mcp.tool])),
        skipped: [...result.value.skipped],
      };
    })();
    live.connecting = run.finally(() => {
      if (live.connecting === run) delete live.connecting;
    });
    return run;
  }

  function load(): Promise<void> {
    loaded ??= (async () => {
      if (!store) return;
      for (const item of await store.search(OAUTH_NS, { limit: 1_000 })) {
        const { client, tokens } = item.value as McpOAuthCredentials;
        if (!client && !tokens) continue;
        credentials.set(item.key, { ...(client ? { client } : {}), ...(tokens ? { tokens } : {}) });
        rememberedSignIns.add(item.key);
      }
      for (const item of await store.search(SECRETS_NS, { limit: 1_000 })) {
        const value = (item.value as { value?: unknown }).value;
        if (typeof value === "string" && value) {
          secrets.set(item.key, value);
          remembered.add(item.key);
        }
      }
      const items = await store.search(SERVERS_NS, { limit: 1_000 });
      for (const item of items.sort((a, b) => (a.value as StoredServer).added - (b.value as StoredServer).added)) {
        const stored = item.value as StoredServer;
        if (typeof stored.url !== "string" || typeof stored.name !== "string") continue;
        const live: Live = { stored: { ...stored, tools: { ...stored.tools } }, view: baseView(item.key, stored, "connecting") };
        servers.set(item.key, live);
        void connect(item.key, live);
      }
    })().catch(() => undefined);
    return loaded;
  }

  function heldSecrets(): string[] {
    const oauth = [...credentials.values()].flatMap(({ client, tokens }) => [
      tokens?.access_token ?? "",
      tokens?.refresh_token ?? "",
      client?.client_secret ?? "",
    ]);
    return [...[...secrets.values()].flatMap((v) => [v, v.replace(/^Bearer\s+/i, "")]), ...oauth.filter(Boolean)];
  }

  function redact(text: string): string {
    return redactSecrets(text, heldSecrets());
  }

  function signInFailed(id: string, live: Live, message: string): void {
    const error: McpServerError = { name: "McpError", code: "sign_in_failed", message: redact(message).slice(0, 600) };
    live.view = { ...baseView(id, live.stored, "failed"), error };
  }

  async function setSecret(id: string, stored: StoredServer, value: string, remember: boolean): Promise<void> {
    if (!stored.headerName || !value.trim()) {
      secrets.delete(id);
      remembered.delete(id);
      delete stored.sessionOnly;
      await store?.delete(SECRETS_NS, id);
      return;
    }
    secrets.set(id, headerValueFor(stored.headerName, value));
    if (remember && store) {
      await store.put(SECRETS_NS, id, { value: secrets.get(id) });
      remembered.add(id);
      delete stored.sessionOnly;
    } else {
      remembered.delete(id);
      stored.sessionOnly = true;
      await store?.delete(SECRETS_NS, id);
    }
  }

  function uniqueName(wanted: string): string {
    const taken = new Set([...servers.values()].map((s) => s.stored.name.toLowerCase()));
    let name = wanted;
    for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${wanted}_${i}`;
    return name;
  }

  async function withServer(id: string, work: (live: Live) => Promise<void>): Promise<McpResult<McpServerView>> {
    await load();
    const live = servers.get(id);
    if (!live) return notFound(id);
    await work(live);
    return ok(live.view);
  }

  const api: McpServersApi = {
    async listMcpServers() {
      await load();
      return [...servers.values()].map((s) => s.view);
    },
    async addMcpServer(input) {
      await load();
      const { serverPrefix } = await import("../../tools/mcp-names.ts");
      let url: URL;
      try {
        url = new URL(input.url.trim());
        if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
      } catch {
        return err({ name: "McpError", code: "invalid_url" as const, message: "Enter the server's http:// or https:// URL." });
      }
      const id = crypto.randomUUID();
      const value = input.headerValue?.trim() ?? "";
      const headerName = (input.headerName?.trim() || (value ? "Authorization" : "")).slice(0, 100);
      const stored: StoredServer = {
        url: url.href,
        name: uniqueName(serverPrefix(input.name?.trim() || url.hostname)),
        ...(headerName ? { headerName } : {}),
        tools: {},
        added: Date.now(),
      };
      await setSecret(id, stored, value, input.remember === true);
      const live: Live = { stored, view: baseView(id, stored, "connecting") };
      servers.set(id, live);
      await save(id, stored);
      await connect(id, live);
      return ok(live.view);
    },
    reconnectMcpServer: (id) => withServer(id, (live) => connect(id, live)),
    setMcpHeader: (id, value, remember) =>
      withServer(id, async (live) => {
        live.stored.headerName ??= "Authorization";
        await setSecret(id, live.stored, value, remember);
        await save(id, live.stored);
        await connect(id, live);
      }),
    setMcpTool: (id, tool, choice) =>
      withServer(id, async (live) => {
        const next = { ...live.stored.tools[tool], ...choice };
        live.stored.tools = { ...live.stored.tools, [tool]: next };
        await save(id, live.stored);
        live.view = { ...live.view, tools: live.view.tools.map((t) => (t.tool === tool ? { ...t, ...next } : t)) };
      }),
    beginMcpSignIn: async (id, redirectUrl, remember) => {
      await load();
      const live = servers.get(id);
      if (!live) return notFound(id);
      if (live.stored.headerName) {
        return err({ name: "McpError", code: "sign_in_failed" as const, message: "This server uses a header value, not a sign-in." });
      }
      await live.connecting;
      const oauth = await oauthFor(id, live);
      if (remember) rememberedSignIns.add(id);
      else rememberedSignIns.delete(id);
      await oauthStore(id).save(credentials.get(id) ?? {});
      live.asksSignIn = true;
      try {
        const url = await oauth.begin(redirectUrl);
        if (url === null) {
          await connect(id, live);
          return ok({ url: null, server: live.view });
        }
        live.view = { ...baseView(id, live.stored, "signing_in") };
        return ok({ url: url.href, server: live.view });
      } catch (error) {
        signInFailed(id, live, `Sign-in could not start: ${toErrorInfo(error).message}`);
        return ok({ url: null, server: live.view });
      }
    },
    finishMcpSignIn: (id, callback) =>
      withServer(id, async (live) => {
        if (!live.oauth?.signingIn) {
          signInFailed(id, live, "No sign-in was in progress for this server: click Sign in again.");
          return;
        }
        try {
          await live.oauth.finish(callback);
        } catch (error) {
          signInFailed(id, live, toErrorInfo(error).message);
          return;
        }
        await connect(id, live);
      }),
    cancelMcpSignIn: (id, reason) =>
      withServer(id, async (live) => {
        if (live.stored.headerName || live.view.state === "connected") return;
        live.oauth?.cancel();
        signInFailed(id, live, reason);
      }),
    signOutMcpServer: (id) =>
      withServer(id, async (live) => {
        await live.connection?.close().catch(() => undefined);
        delete live.connection;
        await live.oauth?.signOut();
        credentials.delete(id);
        await store?.delete(OAUTH_NS, id);
        live.view = baseView(id, live.stored, "needs_sign_in");
      }),
    async removeMcpServer(id) {
      await load();
      const live = servers.get(id);
      if (!live) return notFound(id);
      servers.delete(id);
      await live.connection?.close().catch(() => undefined);
      secrets.delete(id);
      remembered.delete(id);
      credentials.delete(id);
      rememberedSignIns.delete(id);
      await store?.delete(SERVERS_NS, id);
      await store?.delete(SECRETS_NS, id);
      await store?.delete(OAUTH_NS, id);
      return ok(null);
    },
  };

  return {
    api,
    secrets: heldSecrets,
    redact,
    async forRun() {
      await load();
      const tools: AgentTool[] = [];
      const interruptOn: InterruptOnConfig = {};
      for (const live of servers.values()) {
        await live.connecting;
        if (!live.connection) continue;
        for (const tool of live.connection.tools) {
          const view = toolView(tool, live.stored.tools[tool.mcp.tool]);
          if (!view.enabled) continue;
          tools.push(tool);
          interruptOn[tool.name] = view.ask;
        }
      }
      return { tools, interruptOn };
    },
    async clear() {
      await load();
      for (const id of [...servers.keys()]) await api.removeMcpServer(id);
      secrets.clear();
      remembered.clear();
      credentials.clear();
      rememberedSignIns.clear();
    },
  };
}
