/**
 * The hosts an agent asks deeptab to contact, for the screen a person sees before using an agent from a link: the
 * OpenAI-compatible servers its models name, its MCP servers and the LangGraph servers of its async subagents. The
 * person's own provider (chosen in Settings) is not among them; nothing else in a folder makes a request.
 */
import type { AgentDefinition } from "./definition.ts";

/** One host and why it would be contacted. */
export interface AgentHost {
  /** The URL's origin (`https://mcp.example.org`). */
  origin: string;
  /** What names it: `model`, `agents/critic.md model`, `mcp_servers docs`. */
  by: string[];
}

/** Every host the agent names, by origin, in the order first named. */
export function agentHosts(agent: AgentDefinition): AgentHost[] {
  const hosts = new Map<string, string[]>();
  const add = (url: string | undefined, by: string) => {
    if (url === undefined) return;
    const origin = new URL(url).origin;
    hosts.set(origin, [...(hosts.get(origin) ?? []), by]);
  };
  add(agent.manifest.model?.baseUrl, "agent.yaml model");
  for (const s of agent.subagents) add(s.model?.baseUrl, `${s.file} model`);
  for (const m of agent.manifest.mcpServers) add(m.url, `agent.yaml mcp_servers ${m.name}`);
  for (const a of agent.manifest.asyncSubagents) add(a.url, `agent.yaml async_subagents ${a.name}`);
  return [...hosts].map(([origin, by]) => ({ origin, by }));
}
