import { ToolMessage } from "@langchain/core/messages";
import { validateArgs } from "./validate-args.ts";
import type { ToolCallRequest, ToolCallResult, ToolOutput } from "./types.ts";

export function errorToolMessage(toolCallId: string, name: string, content: string): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, status: "error" });
}

/** Is this a thrown expected failure (our ToolError, LangChain's ToolException / input parsing)? */
function isExpectedToolFailure(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  return err.name === "ToolError" || err.name === "ToolException" || err.name === "ToolInputParsingException";
}

/** The innermost tool handler: validation, execution, normalization. */
export async function executeTool(request: ToolCallRequest): Promise<ToolCallResult> {
  const { toolCall, tool, runtime } = request;
  if (!tool) {
    return {
      message: errorToolMessage(
        toolCall.id,
        toolCall.name,
        `Error: ${toolCall.name} is not a valid tool, try one of [${request.toolNames.join(", ")}].`,
      ),
    };
  }
  const problem = validateArgs(tool.schema, toolCall.args);
  if (problem) {
    return {
      message: errorToolMessage(
        toolCall.id,
        tool.name,
        `Error invoking tool '${tool.name}' with kwargs ${JSON.stringify(toolCall.args)} with error: ${problem}\n Please fix your mistakes.`,
      ),
    };
  }
  let output: ToolOutput;
  try {
    output = await tool.run(toolCall.args, runtime);
  } catch (err) {
    if (isExpectedToolFailure(err)) {
      return { message: errorToolMessage(toolCall.id, tool.name, `Error: ${err.message}`) };
    }
    throw err;
  }
  return normalizeOutput(output, toolCall.id, tool.name);
}

export function normalizeOutput(output: ToolOutput, toolCallId: string, name: string): ToolCallResult {
  if (typeof output === "string") {
    return { message: new ToolMessage({ content: output, tool_call_id: toolCallId, name, status: "success" }) };
  }
  const message = new ToolMessage({
    content: output.content,
    tool_call_id: toolCallId,
    name,
    status: output.status ?? "success",
  });
  return output.update ? { message, update: output.update } : { message };
}
