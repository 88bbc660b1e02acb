/**
 * What an MCP server's tool annotations decide: whether the tool runs without asking by default. One rule for the
 * library's `mcpInterruptOn` (mcp-tools.ts) and the app's tool list (worker/mcp/mcp-servers.ts); a small module so the
 * worker reads it without loading the MCP client.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/client";

/**
 * Does an MCP tool run without asking by default? Only when its server annotates it `readOnlyHint: true` and not
 * `destructiveHint: true`: a tool that says both asks (destructive wins; hints are the server's word, and the
 * cautious one is kept).
 */
export function mcpRunsWithoutAsking(annotations: ToolAnnotations): boolean {
  return annotations.readOnlyHint === true && annotations.destructiveHint !== true;
}
