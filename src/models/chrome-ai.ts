/**
 * ChatChromeAI: Chrome's built-in model (the Prompt API, `LanguageModel`,
 * Gemini Nano) behind the same LangChain chat-model interface, where the
 * browser has it. The Prompt API is exposed on windows only, so the page
 * serves it through a {@link PromptApiPort} (in the app, a Comlink proxy the
 * worker holds); feature detection is {@link promptApiAvailability}.
 *
 * Tool calls: the Prompt API has no tool-call format of its own that a
 * LangChain agent can drive (its tool use runs tools inside the browser), so
 * with bound tools every reply is constrained (`responseConstraint`, a JSON
 * schema) to either `{"answer": "…"}` or `{"tool_calls": [{ "name", "arguments" }]}`
 * with each tool's own argument schema, then mapped to an AIMessage.
 *
 * Not verified here: the model itself (no Chrome build on the test machine
 * ships Gemini Nano); the mapping is tested against a fake port.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { type BaseChatModelCallOptions, type BaseChatModelParams, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { ModelProfile } from "@langchain/core/language_models/profile";
import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { StreamingChatModel } from "./streaming-chat-model.ts";

/** A Prompt API message (`initialPrompts` and the prompt itself). */
export interface PromptMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface PromptRequest {
  /** The conversation before the last user turn (system message first). */
  initialPrompts: PromptMessage[];
  /** The last user turn. */
  input: string;
  /** A JSON schema the reply must match (structured output). */
  responseConstraint?: Record<string, unknown>;
}

/** What ChatChromeAI needs of the Prompt API (the page implements it over `LanguageModel`). */
export interface PromptApiPort {
  /** Streams the reply's text; rejects with AbortError when `signal` aborts. */
  prompt(request: PromptRequest, signal?: AbortSignal): Promise<ReadableStream<string>>;
  /** Tokens of a session's context window. */
  contextWindow(): Promise<number>;
}

export type PromptApiAvailability = "unavailable" | "downloadable" | "downloading" | "available";

interface LanguageModelStatic {
  availability(options?: unknown): Promise<PromptApiAvailability>;
}

/** Whether this context has Chrome's built-in model: "unavailable" wherever the Prompt API is missing. */
export async function promptApiAvailability(scope: unknown = globalThis): Promise<PromptApiAvailability> {
  const api = (scope as { LanguageModel?: LanguageModelStatic }).LanguageModel;
  if (!api || typeof api.availability !== "function") return "unavailable";
  try {
    return await api.availability({
      expectedInputs: [{ type: "text", languages: ["en"] }],
      expectedOutputs: [{ type: "text", languages: ["en"] }],
    });
  } catch {
    return "unavailable";
  }
}

interface OpenAITool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatChromeAICallOptions extends BaseChatModelCallOptions {
  tools?: OpenAITool[];
}

/** The reply schema with tools bound: an answer, or tool calls with each tool's own arguments. */
function replyConstraint(tools: readonly OpenAITool[]): Record<string, unknown> {
  const call = {
    anyOf: tools.map((t) => ({
      type: "object",
      properties: { name: { const: t.function.name }, arguments: t.function.parameters ?? { type: "object" } },
      required: ["name", "arguments"],
      additionalProperties: false,
    })),
  };
  return {
    anyOf: [
      { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false },
      {
        type: "object",
        properties: { tool_calls: { type: "array", items: call, minItems: 1 } },
        required: ["tool_calls"],
        additionalProperties: false,
      },
    ],
  };
}

function toolsPrompt(tools: readonly OpenAITool[]): string {
  const lines = tools.map(
    (t) => `- ${t.function.name}: ${t.function.description ?? ""} Arguments: ${JSON.stringify(t.function.parameters ?? {})}`,
  );
  return (
    `You can call these tools:\n${lines.join("\n")}\n` +
    'Reply with JSON: {"tool_calls": [{"name": …, "arguments": {…}}]} to call tools, or {"answer": "…"} to answer the user.'
  );
}

/** LangChain messages as a Prompt API request: history in `initialPrompts`, the last turn as `input`. */
export function toPromptRequest(messages: readonly BaseMessage[], tools: readonly OpenAITool[] = []): PromptRequest {
  const system = messages.filter((m) => m.getType() === "system").map((m) => m.text);
  if (tools.length) system.push(toolsPrompt(tools));
  const turns: PromptMessage[] = [];
  for (const m of messages) {
    if (m.getType() === "system") continue;
    if (ToolMessage.isInstance(m))
      turns.push({ role: "user", content: `Result of tool call ${m.tool_call_id}${m.name ? ` (${m.name})` : ""}:\n${m.text}` });
    else if (AIMessage.isInstance(m)) {
      const calls = m.tool_calls ?? [];
      const content = calls.length
        ? JSON.stringify({ tool_calls: calls.map((c) => ({ name: c.name, arguments: c.args })) })
        : tools.length
          ? JSON.stringify({ answer: m.text })
          : m.text;
      turns.push({ role: "assistant", content });
    } else turns.push({ role: "user", content: m.text });
  }
  // Consecutive user turns (results, then a question) become one prompt.
  let input = "";
  while (turns.length && turns[turns.length - 1]!.role === "user") input = `${turns.pop()!.content}${input ? `\n\n${input}` : ""}`;
  return {
    initialPrompts: [...(system.length ? [{ role: "system" as const, content: system.join("\n\n") }] : []), ...turns],
    input,
    ...(tools.length ? { responseConstraint: replyConstraint(tools) } : {}),
  };
}

/** A constrained reply as an AIMessage: text, or tool calls with fresh ids. */
export function parseReply(text: string, constrained: boolean): AIMessage {
  if (!constrained) return new AIMessage({ content: text });
  try {
    const value = JSON.parse(text) as { answer?: unknown; tool_calls?: Array<{ name?: unknown; arguments?: unknown }> };
    if (Array.isArray(value.tool_calls)) {
      return new AIMessage({
        content: "",
        tool_calls: value.tool_calls.map((c, i) => ({
          id: `chrome_${Date.now().toString(36)}_${i}`,
          name: String(c.name ?? ""),
          args:
            typeof c.arguments === "object" && c.arguments !== null && !Array.isArray(c.arguments)
              ? (c.arguments as Record<string, unknown>)
              : {},
          type: "tool_call" as const,
        })),
      });
    }
    return new AIMessage({ content: typeof value.answer === "string" ? value.answer : text });
  } catch {
    // A reply that is not the constrained JSON (it should not happen): an invalid call the harness reports to the model.
    return new AIMessage({
      content: "",
      invalid_tool_calls: [
        {
          name: "",
          args: text,
          id: `chrome_${Date.now().toString(36)}`,
          error: "the reply was not the expected JSON",
          type: "invalid_tool_call",
        },
      ],
    });
  }
}

export interface ChatChromeAIFields extends BaseChatModelParams {
  port: PromptApiPort;
  /** The context window (from the port's session), for summarization. */
  contextWindow: number;
}

export class ChatChromeAI extends StreamingChatModel<ChatChromeAICallOptions> {
  readonly port: PromptApiPort;
  readonly window: number;

  constructor(fields: ChatChromeAIFields) {
    super(fields);
    this.port = fields.port;
    this.window = fields.contextWindow;
  }

  static override lc_name(): string {
    return "ChatChromeAI";
  }

  _llmType(): string {
    return "chrome-ai";
  }

  override get profile(): ModelProfile {
    return { maxInputTokens: this.window, toolCalling: true };
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<ChatChromeAICallOptions>,
  ): Runnable<Parameters<this["invoke"]>[0], AIMessageChunk, ChatChromeAICallOptions> {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t) as OpenAITool), ...kwargs });
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const tools = options.tools ?? [];
    const stream = await this.port.prompt(toPromptRequest(messages, tools), options.signal);
    const reader = stream.getReader();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
      // With tools the reply is JSON: it is parsed whole at the end instead of streamed as text.
      if (tools.length) continue;
      const chunk = new ChatGenerationChunk({ text: value, message: new AIMessageChunk({ content: value }) });
      yield chunk;
      await runManager?.handleLLMNewToken(value, undefined, undefined, undefined, undefined, { chunk });
    }
    if (!tools.length) return;
    const reply = parseReply(text, true);
    yield new ChatGenerationChunk({
      text: reply.text,
      message: new AIMessageChunk({
        content: reply.content,
        tool_call_chunks: (reply.tool_calls ?? []).map((c, index) => ({
          index,
          id: c.id,
          name: c.name,
          args: JSON.stringify(c.args),
          type: "tool_call_chunk" as const,
        })),
      }),
    });
  }
}
