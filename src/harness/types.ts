/**
 * The harness contracts: tools, middleware, requests and responses.
 * Everything the loop passes around is plain data plus the run's explicit
 * `config`; nothing is read from ambient context.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { LangGraphRunnableConfig } from "@langchain/langgraph/web";
import type { BackendProtocol, FileData } from "../backends/protocol.ts";
import type { BackendRuntime } from "../backends/runtime.ts";
import { DeeptabError } from "../core/errors.ts";
import type { ToolImage } from "../core/tool-images.ts";

/** JSON schema of a tool's arguments (an object schema). */
export type JsonSchema = Record<string, unknown>;

/** The graph state every deep agent has; middleware add their own fields. */
export interface AgentState {
  messages: BaseMessage[];
  files: Record<string, FileData>;
  [field: string]: unknown;
}

/** A partial state update; fields are merged by their channel's reducer. */
export type StateUpdate = Record<string, unknown>;

/** What a tool call sees of its run. One per call; never shared. */
export interface ToolRuntime {
  readonly toolCall: ToolCall & { id: string };
  readonly state: Readonly<AgentState>;
  /** The run's config, with `toolCall` set to this call. */
  readonly config: LangGraphRunnableConfig;
  /** The backend, built for this call (its file writes are collected here). */
  readonly backend: BackendProtocol;
  readonly backendRuntime: BackendRuntime;
}

/**
 * A tool's result: text, or text plus a state update and images. `images` are kept beside the text (a model that
 * takes images gets them with it, through toolImagesMiddleware; the page shows them in the tool card); one that
 * fails `toolImageProblem` (core/tool-images.ts) is dropped, so the text must stand alone (say where the image was
 * saved).
 */
export type ToolOutput =
  | string
  | {
      content: string;
      status?: "success" | "error";
      update?: StateUpdate;
      images?: readonly ToolImage[];
    };

/**
 * A tool the harness can run. `schema` is a JSON object schema; arguments are
 * validated against it before `run` (a mismatch becomes an error result), and
 * `run` receives only arguments that fit it.
 *
 * `run` contract: return expected failures as `{ content, status: "error" }`
 * (the model sees them and can act). Whatever else `run` does, the model gets
 * a result and the run goes on: a thrown value of any kind (a
 * {@link ToolError}, an Error, a string, `undefined`) becomes an error result
 * keeping its text; a return value that is not a {@link ToolOutput} becomes
 * content faithfully (JSON for other values). Only an abort of the run, an
 * approval pause and storage that stopped working end the run.
 */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
  /**
   * Other names models use for an argument, alias → argument (`{ path: "file_path" }`). A call sending an alias
   * and not the argument is read as sending the argument; with both, the argument wins and the alias is dropped
   * (deepagentsjs #659). Resolved as the model's message arrives, so approvals and the history see the argument.
   */
  readonly argAliases?: Readonly<Record<string, string>>;
  run(args: Record<string, unknown>, runtime: ToolRuntime): Promise<ToolOutput>;
}

/** An expected tool failure, thrown from `run`: reported to the model as an error result. */
export class ToolError extends DeeptabError {
  constructor(message: string, code = "tool_error") {
    super(code, message);
    this.name = "ToolError";
  }
}

/** One model call as middleware shape it. Changing it never touches stored state. */
export interface ModelRequest {
  readonly model: BaseChatModel;
  /** The stable part of the system prompt. */
  readonly systemPrompt: string;
  /**
   * Volatile system text (memory, for example), appended after the stable
   * part and after any prompt-cache breakpoint, so changing it keeps the
   * cached prefix valid.
   */
  readonly systemPromptVolatile?: string;
  /** Mark prompt-cache breakpoints (Anthropic): after the stable system text and on the last message. */
  readonly cacheBreakpoints?: boolean;
  readonly messages: readonly BaseMessage[];
  readonly tools: readonly AgentTool[];
  readonly state: Readonly<AgentState>;
  readonly config: LangGraphRunnableConfig;
}

export interface ModelResponse {
  readonly message: AIMessage;
  /** State updates contributed by middleware (e.g. a summarization event). */
  readonly update?: StateUpdate;
}

export type ModelHandler = (request: ModelRequest) => Promise<ModelResponse>;

export interface ToolCallRequest {
  readonly toolCall: ToolCall & { id: string };
  /** Undefined when the model called a tool that does not exist. */
  readonly tool: AgentTool | undefined;
  readonly runtime: ToolRuntime;
  /** All tool calls of the AI message this call belongs to. */
  readonly siblings: readonly (ToolCall & { id: string })[];
  /** Names of the tools the agent has (for error messages). */
  readonly toolNames: readonly string[];
}

export interface ToolCallResult {
  readonly message: ToolMessage;
  readonly update?: StateUpdate;
}

export type ToolHandler = (request: ToolCallRequest) => Promise<ToolCallResult>;

/**
 * A state field contributed by a middleware. Declare it with
 * `defineStateField` (harness/state.ts) to get typed access.
 */
export interface StateField<T = unknown, U = T> {
  /** Merge of current value and update; without it the last write wins. */
  reducer?(current: T, update: U): T;
  default(): T;
  /** Private fields never cross into or out of subagents. */
  private?: boolean;
}

/**
 * A middleware: one capability hooked into fixed points of the loop.
 *
 * - `beforeAgent` runs once per invocation, before the first model call; it
 *   returns a state update (or nothing). It may throw only on a broken setup.
 * - `wrapModelCall` receives a request and the next handler; it may reshape
 *   the request (prompt, messages, tools), retry, or add `update`. It must not
 *   mutate the request or state in place.
 * - `wrapToolCall` wraps each tool execution; it may short-circuit with its own
 *   result (e.g. an error ToolMessage) or post-process the handler's result.
 *
 * Hooks are async and receive everything through their arguments.
 */
export interface AgentMiddleware {
  readonly name: string;
  readonly tools?: readonly AgentTool[];
  readonly stateSchema?: Readonly<Record<string, StateField>>;
  beforeAgent?(state: Readonly<AgentState>, config: LangGraphRunnableConfig): Promise<StateUpdate | void> | StateUpdate | void;
  /**
   * Runs after each model call, in its own graph node, before any tool runs.
   * It may pause the run for approvals with `interruptWithConfig` (harness/interrupt.ts) and
   * return an update: e.g. an edited AI message (same id) and synthetic
   * ToolMessages for calls that must not run. Calls that get a ToolMessage
   * here are not executed.
   */
  afterModel?(state: Readonly<AgentState>, config: LangGraphRunnableConfig): Promise<StateUpdate | void> | StateUpdate | void;
  /**
   * Runs when the agent would finish (the model answered without tool calls), in its own graph node. It may return
   * an update; an update that adds a message (a HumanMessage with feedback, as the rubric loop does) sends the run
   * back to the model instead of ending it. Hooks run in stack order; the first that adds a message wins the turn.
   */
  afterAgent?(state: Readonly<AgentState>, config: LangGraphRunnableConfig): Promise<StateUpdate | void> | StateUpdate | void;
  wrapModelCall?(request: ModelRequest, next: ModelHandler): Promise<ModelResponse>;
  wrapToolCall?(request: ToolCallRequest, next: ToolHandler): Promise<ToolCallResult>;
}
