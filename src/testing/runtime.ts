/** Helpers to call tools directly, outside a graph run, in tests. */
import type { LangGraphRunnableConfig } from "@langchain/langgraph/web";
import type { FileData } from "../backends/protocol.ts";
import { createBackendRuntime, resolveBackend, type BackendOption } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import type { AgentTool, ToolOutput, ToolRuntime } from "../harness/types.ts";

export const FIXED_NOW = "2026-01-01T00:00:00.000Z";

export function testRuntime(
  files: Record<string, FileData> = {},
  options: { backend?: BackendOption; toolCallId?: string; name?: string; args?: Record<string, unknown> } = {},
): ToolRuntime {
  const toolCall = {
    id: options.toolCallId ?? "call_test",
    name: options.name ?? "tool",
    args: options.args ?? {},
    type: "tool_call" as const,
  };
  const config: LangGraphRunnableConfig = { configurable: { thread_id: "test" } };
  const backendRuntime = createBackendRuntime(files, config, () => FIXED_NOW);
  const backend = resolveBackend(options.backend ?? ((rt) => new StateBackend(rt)), backendRuntime);
  return { toolCall, state: { messages: [], files }, config, backend, backendRuntime };
}

/** Runs a tool against the given files; returns its text, status and the files after. */
export async function runTool(
  tool: AgentTool,
  args: Record<string, unknown>,
  files: Record<string, FileData> = {},
): Promise<{ text: string; status: "success" | "error"; files: Record<string, FileData> }> {
  const rt = testRuntime(files, { name: tool.name, args });
  const out: ToolOutput = await tool.run(args, rt);
  const after: Record<string, FileData> = { ...files };
  for (const [p, d] of Object.entries(rt.backendRuntime.pendingFiles)) {
    if (d === null) delete after[p];
    else after[p] = d;
  }
  return typeof out === "string"
    ? { text: out, status: "success", files: after }
    : { text: out.content, status: out.status ?? "success", files: after };
}

export function textFile(content: string, at = FIXED_NOW): FileData {
  return { content, encoding: "utf-8", createdAt: at, modifiedAt: at };
}
