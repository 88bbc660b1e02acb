/**
 * `web_search` through a configured MCP server, where the provider's own search is not on: the first enabled MCP
 * tool whose own name on its server is `web_search` or `search` (also `web-search`, `web.search`, any case) is
 * offered to the model as `web_search` (deepagents' name) instead of its namespaced name, with the same schema,
 * approval and results. Nothing changes when no such tool exists, or a tool is already called `web_search`: then the
 * model is offered no `web_search` of ours.
 */
import type { AgentTool } from "../harness/types.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import type { McpAgentTool } from "./mcp-tools.ts";

export const WEB_SEARCH_TOOL = "web_search";

const SEARCH_NAMES = /^(?:web[_.-]?search|search)$/i;

const isSearchTool = (tool: AgentTool): tool is McpAgentTool => "mcp" in tool && SEARCH_NAMES.test((tool as McpAgentTool).mcp.tool);

export interface RunTools {
  tools: AgentTool[];
  interruptOn: InterruptOnConfig;
}

/** `mcp`'s tools with the first MCP search tool renamed `web_search` (and its approval moved with it). */
export function withMcpWebSearch(mcp: RunTools): RunTools {
  if (mcp.tools.some((t) => t.name === WEB_SEARCH_TOOL)) return mcp;
  const search = mcp.tools.find(isSearchTool);
  if (!search) return mcp;
  const renamed: McpAgentTool = {
    name: WEB_SEARCH_TOOL,
    description: `Searches the web (the MCP server ${search.mcp.server}'s tool \`${search.mcp.tool}\`). ${search.description}`.trim(),
    schema: search.schema,
    ...(search.argAliases ? { argAliases: search.argAliases } : {}),
    mcp: search.mcp,
    run: (args, runtime) => search.run(args, runtime),
  };
  const { [search.name]: ask, ...interruptOn } = mcp.interruptOn;
  return {
    tools: mcp.tools.map((t) => (t === search ? renamed : t)),
    interruptOn: ask === undefined ? interruptOn : { ...interruptOn, [WEB_SEARCH_TOOL]: ask },
  };
}
