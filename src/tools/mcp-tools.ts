/**
 * The library API for MCP servers: {@link connectMcpServer} connects to a remote server (mcp-client.ts) and turns
 * its tools into {@link AgentTool}s for `createDeepAgent({ tools })`, named `<server>__<tool>` (mcp-names.ts), their
 * JSON schemas checked as built-in tools' are (a tool whose schema cannot be used is left out and said why), their
 * results converted (mcp-results.ts) and their failures made tool errors the model can act on.
 * {@link mcpInterruptOn} says which tools ask before running: all but those annotated `readOnlyHint: true` (and not
 * `destructiveHint: true`: {@link mcpRunsWithoutAsking}).
 */
import type { ToolAnnotations } from "@modelcontextprotocol/client";
import { Validator } from "@langchain/core/utils/json_schema";
import { err, ok, type Result } from "../core/result.ts";
import { ToolError, type AgentTool, type JsonSchema, type ToolOutput, type ToolRuntime } from "../harness/types.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import { mcpRunsWithoutAsking } from "./mcp-annotations.ts";
import { McpSession, type McpServerOptions } from "./mcp-client.ts";
import type { McpError } from "./mcp-errors.ts";
import { mcpToolName, serverPrefix } from "./mcp-names.ts";
import { mcpResultOutput } from "./mcp-results.ts";

/** A tool description from a server is cut to this many characters (it is text the server chose, sent every turn). */
export const MAX_MCP_DESCRIPTION = 2_000;

/** What an MCP tool is, besides an AgentTool: where it comes from and what the server says of it. */
export interface McpToolInfo {
  /** The server's prefix in tool names. */
  server: string;
  /** The tool's own name on the server. */
  tool: string;
  title?: string;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, …): hints from the server, not guarantees. */
  annotations: ToolAnnotations;
}

/** An AgentTool backed by a tool of an MCP server. */
export interface McpAgentTool extends AgentTool {
  readonly mcp: McpToolInfo;
}

/** A tool of the server that is not offered, and why (e.g. a schema that is not a JSON object schema). */
export interface McpSkippedTool {
  tool: string;
  reason: string;
}

/** A connected server and its tools. */
export interface McpConnection {
  /** The server's prefix in tool names. */
  readonly server: string;
  /** `"http"` (Streamable HTTP) or `"sse"` (the older HTTP+SSE transport). */
  readonly transport: "http" | "sse";
  readonly tools: readonly McpAgentTool[];
  readonly skipped: readonly McpSkippedTool[];
  /** Ends the session; its tools then answer with an error. */
  close(): Promise<void>;
}

/** Options of {@link connectMcpServer}: the server's, and tool names already taken (by other servers' tools). */
export interface ConnectMcpOptions extends McpServerOptions {
  /** Names the tools must not take; the new names are added to it. */
  takenNames?: Set<string>;
}

function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "its input schema is not a JSON object";
  if ((schema as { type?: unknown }).type !== "object") return "its input schema does not describe an object";
  try {
    new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12", false).validate({});
    return undefined;
  } catch (error) {
    return `its input schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function mcpTool(session: McpSession, name: string, info: McpToolInfo, description: string, schema: JsonSchema): McpAgentTool {
  return {
    name,
    description,
    schema,
    mcp: info,
    async run(args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput> {
      const ready = await session.ready();
      if (!ready.ok) throw new ToolError(ready.error.message, `mcp_${ready.error.code}`);
      const result = await session.callTool(info.tool, args, runtime.config.signal);
      if (!result.ok) throw new ToolError(result.error.message, `mcp_${result.error.code}`);
      return mcpResultOutput(result.value, runtime.toolCall.id, runtime.backend);
    },
  };
}

/**
 * Connects to the MCP server at `options.url` and lists its tools. The tools call the server when run; a failure is
 * a tool error with a plain message (CORS, sign-in, a session reopened once, the server gone, a timeout).
 */
export async function connectMcpServer(options: ConnectMcpOptions): Promise<Result<McpConnection, McpError>> {
  const opened = await McpSession.open(options);
  if (!opened.ok) return opened;
  const session = opened.value;
  const listed = await session.listTools();
  if (!listed.ok) {
    await session.close();
    return err(listed.error);
  }
  const server = serverPrefix(options.name ?? session.serverName ?? new URL(options.url).hostname);
  const taken = options.takenNames ?? new Set<string>();
  const tools: McpAgentTool[] = [];
  const skipped: McpSkippedTool[] = [];
  for (const tool of listed.value) {
    const problem = schemaProblem(tool.inputSchema);
    if (problem) {
      skipped.push({ tool: tool.name, reason: problem });
      continue;
    }
    const name = mcpToolName(server, tool.name, taken);
    const text = (tool.description ?? tool.title ?? tool.name).slice(0, MAX_MCP_DESCRIPTION);
    const info: McpToolInfo = {
      server,
      tool: tool.name,
      annotations: { ...tool.annotations },
      ...(tool.title ? { title: tool.title } : {}),
    };
    tools.push(mcpTool(session, name, info, text, tool.inputSchema as JsonSchema));
  }
  return ok({ server, transport: session.transport, tools, skipped, close: () => session.close() });
}

/** Approvals for MCP tools: every tool asks before running unless `mcpRunsWithoutAsking` says otherwise. */
export function mcpInterruptOn(tools: readonly McpAgentTool[]): InterruptOnConfig {
  return Object.fromEntries(tools.map((t) => [t.name, !mcpRunsWithoutAsking(t.mcp.annotations)]));
}
