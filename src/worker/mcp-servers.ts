/**
 * MCP servers in the worker: the list Settings edits, their connections, and the tools runs get.
 *
 * - A server's URL, name, header name and tool choices persist in the IndexedDB store under ["mcp_servers"].
 * - A header's value (a bearer token) is kept as API keys are (settings.ts): in this worker's memory for the session;
 *   under ["mcp_secrets"] only when the person asks to remember it (otherwise only a mark that there was one, so
 *   after a reload the server says it needs the value again rather than connect without it). Values never leave
 *   the worker: no call returns one, and `redact` hides them in any text that leaves.
 * - The client (tools/mcp-*.ts) is imported when a server is first connected, so the worker starts without it.
 * - A run gets the enabled tools of the connected servers, and asks before those whose "ask" is on.
 */
import type { BaseStore } from "@langchain/langgraph/web";
import { toErrorInfo } from "../core/errors.ts";
import { redactSecrets } from "../core/redact.ts";
import { err, ok } from "../core/result.ts";
import type { AgentTool } from "../harness/types.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import type { McpConnection } from "../tools/mcp-tools.ts";
import type { McpResult, McpServersApi, McpServerView, McpToolChoice, McpToolView } from "./mcp-protocol.ts";

const SERVERS_NS = ["mcp_servers"];
const SECRETS_NS = ["mcp_secrets"];

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
  /** `text` with every header value hidden. */
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
  const readOnly = tool.mcp.annotations.readOnlyHint === true;
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
  let loaded: Promise<void> | undefined;

  const headerStatus = (id: string, stored: StoredServer) =>
    stored.headerName ? { header: { name: stored.headerName, set: secrets.has(id), remembered: remembered.has(id) } } : {};

  function baseView(id: string, stored: StoredServer, state: McpServerView["state"]): McpServerView {
    return { id, url: stored.url, name: stored.name, state, tools: [], skipped: [], ...headerStatus(id, stored) };
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
      const { connectMcpServer } = await import("../tools/mcp-tools.ts");
      const result = await connectMcpServer({
        url: stored.url,
        name: stored.name,
        fetch: fetchImpl,
        ...(stored.headerName && secret ? { headers: { [stored.headerName]: secret } } : {}),
      }).catch((e: unknown) => err({ ...toErrorInfo(e), code: "protocol" as const }));
      if (servers.get(id) !== live) {
        if (result.ok) await result.value.close();
        return;
      }
      if (!result.ok) {
        live.view = { ...baseView(id, stored, "failed"), error: { ...result.error, message: redact(result.error.message) } };
        return;
      }
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

  function redact(text: string): string {
    return redactSecrets(
      text,
      [...secrets.values()].flatMap((v) => [v, v.replace(/^Bearer\s+/i, "")]),
    );
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
      const { serverPrefix } = await import("../tools/mcp-names.ts");
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
    async removeMcpServer(id) {
      await load();
      const live = servers.get(id);
      if (!live) return notFound(id);
      servers.delete(id);
      await live.connection?.close().catch(() => undefined);
      secrets.delete(id);
      remembered.delete(id);
      await store?.delete(SERVERS_NS, id);
      await store?.delete(SECRETS_NS, id);
      return ok(null);
    },
  };

  return {
    api,
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
    },
  };
}
