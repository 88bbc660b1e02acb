import { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { messageText } from "../core/messages.ts";
import { outputText } from "./execute-tool.ts";
import type { AgentTool, JsonSchema, ToolOutput } from "./types.ts";

export function isAgentTool(value: unknown): value is AgentTool {
  return typeof value === "object" && value !== null && typeof (value as AgentTool).run === "function";
}

/**
 * Wraps a LangChain tool (from `tool()` or a StructuredTool) as an AgentTool.
 * The tool validates its own input; it is invoked as a tool call with the
 * call's explicit config, so its callbacks and tracing see the right run.
 */
export function fromLangChainTool(lcTool: StructuredToolInterface): AgentTool {
  const schema = toJsonSchema(lcTool.schema as Parameters<typeof toJsonSchema>[0]) as JsonSchema;
  return {
    name: lcTool.name,
    description: lcTool.description,
    schema,
    async run(_args, runtime): Promise<ToolOutput> {
      const out: unknown = await lcTool.invoke({ ...runtime.toolCall, type: "tool_call" }, runtime.config);
      if (ToolMessage.isInstance(out)) {
        return { content: messageText(out), status: out.status === "error" ? "error" : "success" };
      }
      return outputText(out);
    },
  };
}
