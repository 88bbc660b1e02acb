/**
 * The innermost tool handler: argument checks, execution, and turning
 * whatever the tool did into a ToolMessage. A tool cannot end the run by
 * misbehaving (see the AgentTool contract in types.ts).
 */
import { ToolMessage } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph/web";
import { describeThrown } from "../core/errors.ts";
import { jsonText, safeString } from "../core/json-text.ts";
import { redactSecrets } from "../core/redact.ts";
import { TOOL_IMAGES_KEY, type ToolImage } from "../core/tool-images.ts";
import { invalidCallProblem } from "./tool-calls.ts";
import { checkArgs } from "./validate-args.ts";
import type { StateUpdate, ToolCallRequest, ToolCallResult } from "./types.ts";
import { isRecord } from "../core/is-record.ts";

export function errorToolMessage(toolCallId: string, name: string, content: string): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, status: "error" });
}

/**
 * Errors that must end the run rather than become a result: the run's abort,
 * a pause for approval (GraphInterrupt and other bubble-ups), and storage that
 * stopped working (the model cannot fix a full disk).
 */
function endsRun(err: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  try {
    if (isGraphBubbleUp(err)) return true;
    return err instanceof Error && err.name === "StorageError";
  } catch {
    // A thrown value whose getters or Proxy traps throw is no signal of ours: it becomes a result.
    return false;
  }
}

/** The text of a thrown value for the model: expected failures as they are, others with their kind. Never throws. */
function thrownText(err: unknown): string {
  try {
    if (err instanceof Error) {
      const name = safeString(err.name);
      const message = safeString(err.message);
      const expected = name === "ToolError" || name === "ToolException" || name === "ToolInputParsingException";
      return expected || name === "Error" ? `Error: ${message}` : `Error: ${name}: ${message}`;
    }
  } catch {
    // An Error-like value whose getters or Proxy traps throw: shown as a value.
  }
  return `Error: the tool failed: ${describeThrown(err)}`;
}

/** Any value as tool-result text: strings as they are, everything else as JSON. */
export function outputText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "(the tool returned no output)";
  return jsonText(value);
}

/**
 * Runs the tool of `request` and reports anything it does as a result. A
 * thrown error's text passes through `redact` first (a provider error inside
 * a subagent can echo a key): by default key-shaped tokens are hidden.
 */
export async function executeTool(
  request: ToolCallRequest,
  redact: (text: string) => string = (text) => redactSecrets(text),
): Promise<ToolCallResult> {
  const { toolCall, tool, runtime } = request;
  const invalid = invalidCallProblem(runtime.state.messages, toolCall.id);
  if (invalid) return { message: errorToolMessage(toolCall.id, toolCall.name, invalid) };
  if (!tool) {
    return {
      message: errorToolMessage(
        toolCall.id,
        toolCall.name,
        `Error: ${toolCall.name} is not a valid tool, try one of [${request.toolNames.join(", ")}].`,
      ),
    };
  }
  const checked = checkArgs(tool.schema, toolCall.args);
  if (!checked.ok) {
    return {
      message: errorToolMessage(
        toolCall.id,
        tool.name,
        `Error invoking tool '${tool.name}' with kwargs ${outputText(toolCall.args)} ` +
          `with error: ${checked.error}\n Please fix your mistakes.`,
      ),
    };
  }
  let output: unknown;
  try {
    output = await tool.run(checked.value, runtime);
  } catch (err) {
    if (endsRun(err, runtime.config.signal)) throw err;
    return { message: errorToolMessage(toolCall.id, tool.name, redact(thrownText(err))) };
  }
  return normalizeOutput(output, toolCall.id, tool.name, await checkedImages(output));
}

/** The images of a ToolOutput that pass the check (its code loads only when a tool returns images). */
async function checkedImages(output: unknown): Promise<ToolImage[]> {
  const images = toolOutputFields(output)?.images;
  if (!Array.isArray(images) || images.length === 0) return [];
  return (await import("../core/tool-image-check.ts")).toolImagesOf({ [TOOL_IMAGES_KEY]: images });
}

/**
 * A tool's return value as a result: a ToolOutput as it says, any other value as its JSON text; `kept`: its images
 * that passed the check, kept in the message's `response_metadata`.
 */
function normalizeOutput(output: unknown, toolCallId: string, name: string, kept: readonly ToolImage[] = []): ToolCallResult {
  const asToolOutput = toolOutputFields(output);
  if (asToolOutput) {
    const { content, status, update } = asToolOutput;
    const message = new ToolMessage({
      content,
      tool_call_id: toolCallId,
      name,
      status: status === "error" ? "error" : "success",
      ...(kept.length ? { response_metadata: { [TOOL_IMAGES_KEY]: kept } } : {}),
    });
    return isRecord(update) ? { message, update: update as StateUpdate } : { message };
  }
  return { message: new ToolMessage({ content: outputText(output), tool_call_id: toolCallId, name, status: "success" }) };
}

/** The fields of a ToolOutput, read once each; undefined for any other value, or one whose fields cannot be read. */
function toolOutputFields(output: unknown): { content: string; status: unknown; update: unknown; images: unknown } | undefined {
  try {
    if (!isRecord(output)) return undefined;
    const content = output.content;
    return typeof content === "string" ? { content, status: output.status, update: output.update, images: output.images } : undefined;
  } catch {
    return undefined;
  }
}
