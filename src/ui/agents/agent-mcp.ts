/**
 * Adding an agent's own MCP servers (agent.yaml `mcp_servers`) to the person's, for the ones they ticked on the
 * agent's review: each is added under the agent's name for it (so the agent's rules for `<server>__<tool>` apply),
 * asking for the header the agent names (its value is given in Settings → MCP servers, never by the agent); a URL
 * already among the person's servers is left as it is. Gives the line the page shows afterwards.
 */
import type { McpServersApi } from "../../protocol/mcp.ts";
import type { AgentReview } from "../../protocol/agents.ts";

/** One of agent.yaml's `mcp_servers`, as the review carries it. */
export type AgentMcpServer = AgentReview["mcpServers"][number];

/** The key of a server's tick on one review (the agent's version and the server's name). */
export function mcpChoiceKey(hash: string | undefined, name: string): string {
  return `${hash ?? ""}\u0000${name}`;
}

/** Adds `chosen`; resolves with what happened, one sentence per server, and whether any failed. */
export async function addAgentServers(api: McpServersApi, chosen: readonly AgentMcpServer[]): Promise<{ text: string; error: boolean }> {
  const existing = await api.listMcpServers();
  const lines: string[] = [];
  let error = false;
  for (const spec of chosen) {
    const same = existing.find((s) => s.url === spec.url || s.url === URL.parse(spec.url)?.href);
    if (same) {
      lines.push(`MCP server ${spec.name} was already added (as ${same.name}).`);
      continue;
    }
    const headerName = spec.headers[0];
    const added = await api.addMcpServer({ url: spec.url, name: spec.name, ...(headerName ? { headerName } : {}) });
    if (!added.ok) {
      error = true;
      lines.push(`MCP server ${spec.name} could not be added: ${added.error.message}`);
    } else if (added.value.state === "connected") {
      lines.push(`Added MCP server ${spec.name}: connected.`);
    } else {
      const why = headerName ? `give its ${headerName} in Settings → MCP servers` : "see Settings → MCP servers";
      lines.push(`Added MCP server ${spec.name}: not connected yet (${why}).`);
    }
  }
  return { text: lines.join(" "), error };
}
