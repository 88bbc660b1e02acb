/**
 * The agent loop as a LangGraph StateGraph on `@langchain/langgraph/web`:
 *
 *   START → before_agent → model ⇄ tools → END
 *
 * The model node runs the wrapModelCall chain; `tools` runs every pending tool
 * call of the last AI message concurrently through the wrapToolCall chain.
 * The loop ends when the last AI message has no tool calls. The run's
 * `config` is handed explicitly to every hook, tool and model call.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import {
  Annotation,
  Command,
  END,
  Overwrite,
  isGraphInterrupt,
  START,
  StateGraph,
  messagesStateReducer,
  type BaseCheckpointSaver,
  type BaseStore,
  type LangGraphRunnableConfig,
  type Messages,
  type StateDefinition,
} from "@langchain/langgraph/web";
import type { FileData, FilesUpdate } from "../backends/protocol.ts";
import type { BackendOption } from "../backends/runtime.ts";
import { createBackendRuntime, resolveBackend } from "../backends/runtime.ts";
import { filesReducer } from "../backends/state.ts";
import { composeModelCall, composeToolCall } from "./compose.ts";
import { bindToolsCached } from "./bind-tools.ts";
import { renderRequestMessages } from "./render-request.ts";
import { errorToolMessage, executeTool } from "./execute-tool.ts";
import type {
  AgentMiddleware,
  AgentState,
  AgentTool,
  ModelRequest,
  ModelResponse,
  StateField,
  StateUpdate,
  ToolCallResult,
} from "./types.ts";

export interface LoopSpec {
  model: BaseChatModel;
  systemPrompt: string;
  tools: readonly AgentTool[];
  /** Ordered: the first is outermost. */
  middleware: readonly AgentMiddleware[];
  backend: BackendOption;
  now: () => string;
  checkpointer?: BaseCheckpointSaver | undefined;
  store?: BaseStore | undefined;
  name?: string | undefined;
  /** Nodes to pause before (used by approvals). */
  interruptBefore?: string[] | undefined;
}

/** The built-in channels every agent has, typed. */
function coreChannels() {
  return {
    messages: Annotation<BaseMessage[], Messages>({ reducer: messagesStateReducer, default: () => [] }),
    files: Annotation<Record<string, FileData>, FilesUpdate>({ reducer: filesReducer, default: () => ({}) }),
  };
}
const CORE_FIELDS = new Set(["messages", "files"]);

/** Middleware state fields, checked for clashes with the core ones. */
export function collectStateFields(middleware: readonly AgentMiddleware[]): Record<string, StateField> {
  const fields: Record<string, StateField> = {};
  for (const mw of middleware) {
    for (const [key, field] of Object.entries(mw.stateSchema ?? {})) {
      if (CORE_FIELDS.has(key)) throw new Error(`Middleware ${mw.name} may not redefine state field '${key}'.`);
      fields[key] = field;
    }
  }
  return fields;
}

/** Core channels plus middleware fields; typed by the core (the rest are read through AgentState). */
function buildAnnotation(fields: Record<string, StateField>) {
  const extra: StateDefinition = {};
  for (const [key, field] of Object.entries(fields)) {
    extra[key] = Annotation<unknown>({ reducer: field.reducer ?? ((_a: unknown, b: unknown) => b), default: field.default });
  }
  const core = coreChannels();
  return Annotation.Root({ ...extra, ...core } as typeof core);
}

/** The AI message at the end of the history, if the history ends with one. */
export function lastAIMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  const last = messages[messages.length - 1];
  return last && AIMessage.isInstance(last) ? last : undefined;
}

type IdToolCall = ToolCall & { id: string };

/** Tool calls of the last AI message that have no result yet. */
export function pendingToolCalls(messages: readonly BaseMessage[]): IdToolCall[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = messages[i]!;
    if (!AIMessage.isInstance(msg)) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length; j++) {
      const m = messages[j]!;
      if (ToolMessage.isInstance(m)) answered.add(m.tool_call_id);
    }
    return (msg.tool_calls ?? []).filter((c): c is IdToolCall => typeof c.id === "string" && !answered.has(c.id));
  }
  return [];
}

/**
 * A new AI message must never replace an earlier one: the messages reducer
 * merges by id, and some providers (or proxies) reuse response ids.
 */
function freshId(message: AIMessage, history: readonly BaseMessage[]): AIMessage {
  if (!message.id || !history.some((m) => m.id === message.id)) return message;
  return new AIMessage({
    content: message.content,
    tool_calls: message.tool_calls ?? [],
    invalid_tool_calls: message.invalid_tool_calls ?? [],
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    ...(message.usage_metadata ? { usage_metadata: message.usage_metadata } : {}),
    ...(message.name ? { name: message.name } : {}),
    id: crypto.randomUUID(),
  });
}

export function buildAgentLoop(spec: LoopSpec) {
  const fields = collectStateFields(spec.middleware);
  const toolsByName = new Map(spec.tools.map((t) => [t.name, t]));
  const toolNames = spec.tools.map((t) => t.name);

  const callModel = composeModelCall(spec.middleware, async (request: ModelRequest): Promise<ModelResponse> => {
    const bound = bindToolsCached(request.model, request.tools);
    const out = await bound.invoke(renderRequestMessages(request), request.config);
    const message = AIMessage.isInstance(out) ? out : new AIMessage(out as unknown as ConstructorParameters<typeof AIMessage>[0]);
    return { message };
  });

  const callTool = composeToolCall(spec.middleware, executeTool);

  const beforeAgentHooks = spec.middleware.filter((mw) => mw.beforeAgent);

  /**
   * Runs the beforeAgent hooks in stack order, each seeing the state as the
   * earlier hooks left it. Message changes are folded into one Overwrite so
   * two hooks touching the history never conflict within the step.
   */
  async function beforeAgentNode(state: AgentState, config: LangGraphRunnableConfig) {
    let current: AgentState = state;
    let messagesChanged = false;
    const updates: Command[] = [];
    for (const mw of beforeAgentHooks) {
      const update = await mw.beforeAgent!(current, config);
      if (!update) continue;
      const { messages, ...rest } = update;
      if (messages !== undefined) {
        const next = Overwrite.isInstance<BaseMessage[]>(messages)
          ? messages.value
          : (messagesStateReducer(current.messages, messages as Messages) as BaseMessage[]);
        current = { ...current, messages: next };
        messagesChanged = true;
      }
      if (rest.files) current = { ...current, files: filesReducer(current.files, rest.files as FilesUpdate) };
      if (Object.keys(rest).length) updates.push(new Command({ update: rest }));
    }
    if (messagesChanged) updates.push(new Command({ update: { messages: new Overwrite(current.messages) } }));
    return updates.length ? updates : {};
  }

  async function modelNode(state: AgentState, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const response = await callModel({
      model: spec.model,
      systemPrompt: spec.systemPrompt,
      messages: state.messages,
      tools: spec.tools,
      state,
      config,
    });
    return { ...(response.update ?? {}), messages: [freshId(response.message, state.messages)] };
  }

  async function toolsNode(state: AgentState, config: LangGraphRunnableConfig) {
    const calls = pendingToolCalls(state.messages);
    // allSettled: when one call pauses or fails, its siblings finish first, so no
    // work keeps running detached from the step (a resume reruns the step).
    const settled = await Promise.allSettled(
      calls.map(async (call): Promise<ToolCallResult> => {
        const callConfig = { ...config, toolCall: call } as LangGraphRunnableConfig;
        const backendRuntime = createBackendRuntime(state.files, callConfig, spec.now);
        const backend = resolveBackend(spec.backend, backendRuntime);
        const runtime = { toolCall: call, state, config: callConfig, backend, backendRuntime };
        const result = await callTool({ toolCall: call, tool: toolsByName.get(call.name), runtime, siblings: calls, toolNames });
        const pending = backendRuntime.pendingFiles;
        if (Object.keys(pending).length === 0) return result;
        const files = { ...pending, ...((result.update?.files as object | undefined) ?? {}) };
        return { ...result, update: { ...(result.update ?? {}), files } };
      }),
    );
    const failures = settled.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
    if (failures.length) throw failures.find((e) => !isGraphInterrupt(e)) ?? failures[0];
    const results = settled.map((r) => (r as PromiseFulfilledResult<ToolCallResult>).value);
    return results.map((r) => new Command({ update: { ...(r.update ?? {}), messages: [r.message] } }));
  }

  const afterModelHooks = spec.middleware.filter((mw) => mw.afterModel);

  /** Runs the afterModel hooks in order (each may pause the run for approval). */
  async function afterModelNode(state: AgentState, config: LangGraphRunnableConfig) {
    const updates: Command[] = [];
    let current = state;
    for (const mw of afterModelHooks) {
      const update = await mw.afterModel!(current, config);
      if (!update || Object.keys(update).length === 0) continue;
      if (update.messages) current = { ...current, messages: messagesStateReducer(current.messages, update.messages as Messages) as BaseMessage[] };
      updates.push(new Command({ update }));
    }
    return updates.length ? updates : {};
  }

  /**
   * After the model (or the approval step): run pending tool calls; if the
   * last AI message's calls were all answered already (e.g. rejected), go back
   * to the model; with no tool calls, end.
   */
  function route(state: AgentState): "tools" | "model" | typeof END {
    if (pendingToolCalls(state.messages).length > 0) return "tools";
    const last = state.messages[state.messages.length - 1];
    return last && ToolMessage.isInstance(last) ? "model" : END;
  }

  const builder = new StateGraph(buildAnnotation(fields))
    .addNode("before_agent", beforeAgentNode as never)
    .addNode("model", modelNode as never)
    .addNode("tools", toolsNode as never)
    .addEdge(START, "before_agent")
    .addEdge("before_agent", "model")
    .addEdge("tools", "model");
  const graph = afterModelHooks.length
    ? builder
        .addNode("after_model", afterModelNode as never)
        .addEdge("model", "after_model")
        .addConditionalEdges("after_model", route as never, ["tools", "model", END])
    : builder.addConditionalEdges("model", route as never, ["tools", "model", END]);

  return graph
    .compile({
      checkpointer: spec.checkpointer,
      store: spec.store,
      name: spec.name ?? "deep-agent",
      interruptBefore: spec.interruptBefore as never,
    })
    .withConfig({ recursionLimit: 10_000 });
}

export { errorToolMessage };
