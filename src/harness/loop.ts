/**
 * The agent loop as a LangGraph StateGraph on `@langchain/langgraph/web`:
 *
 *   START → before_agent → model ⇄ tools → END        (+ after_model when a middleware has afterModel)
 *                                           ↘ after_agent → model | END   (when a middleware has afterAgent)
 *
 * With an {@link Inbox} (the top-level agent of a run that can be steered), every way into `model` goes through an
 * `inbox` step first, which commits the messages sent meanwhile in a checkpoint of their own.
 *
 * The model node runs the wrapModelCall chain; `tools` runs every pending tool
 * call of the last AI message concurrently through the wrapToolCall chain,
 * streaming each call's result as it finishes (TOOL_RESULT_EVENT).
 * The loop ends when the last AI message has no tool calls. The run's
 * `config` is handed explicitly to every hook, tool and model call.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  Command,
  END,
  GraphInterrupt,
  Overwrite,
  isGraphBubbleUp,
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
import { callLabel, stepFileNoteText } from "../backends/step-file-notes.ts";
import { StepFiles } from "../backends/step-files.ts";
import { parentStep } from "../backends/step-ledger.ts";
import { copyAIMessage, pendingToolCalls, TOOL_DURATION_KEY } from "../core/messages.ts";
import { redactError, redactSecrets } from "../core/redact.ts";
import { bindToolsCached } from "./bind-tools.ts";
import { composeModelCall, composeToolCall } from "./compose.ts";
import { HarnessError } from "./errors.ts";
import { DirectNode } from "./direct-node.ts";
import { executeTool } from "./execute-tool.ts";
import { appendMessages } from "./messages-reducer.ts";
import { OptionalValueChannel } from "./optional-channel.ts";
import { renderRequestMessages } from "./render-request.ts";
import { historyIds, normalizeToolCalls, resolveArgAliases } from "./tool-calls.ts";
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
  /**
   * Hides keys in an error's text (core/redact.ts) before it becomes a tool
   * result, or a node's failure that the checkpointer stores and the caller
   * sees. Default: key-shaped tokens only.
   */
  redact?: ((text: string) => string) | undefined;
  /**
   * Messages the person sent while the run works (steering): taken before each model call, by an `inbox` step of its
   * own. Only a run's top-level agent has one (subagents are never steered; the parent reads the message at its next
   * call). Without it the graph has no `inbox` node.
   */
  inbox?: Inbox | undefined;
}

/** The step that commits a run's steering messages (present only with an {@link Inbox}). */
export const INBOX_NODE = "inbox";

/**
 * Where a run's steering messages wait. `take` removes and returns every message waiting for `threadId` (the run's
 * thread), in the order sent (or a promise of them: the step waits); each keeps its id, so whoever queued it can tell
 * where it landed.
 */
export interface Inbox {
  take(threadId: string): BaseMessage[] | Promise<BaseMessage[]>;
}

/** The built-in channels every agent has, typed. */
function coreChannels() {
  return {
    messages: Annotation<BaseMessage[], Messages>({ reducer: appendMessages, default: () => [] }),
    files: Annotation<Record<string, FileData>, FilesUpdate>({ reducer: filesReducer, default: () => ({}) }),
  };
}
const CORE_FIELDS = new Set(["messages", "files"]);

/** Middleware state fields, checked for clashes with the core ones. */
export function collectStateFields(middleware: readonly AgentMiddleware[]): Record<string, StateField> {
  const fields: Record<string, StateField> = {};
  for (const mw of middleware) {
    for (const [key, field] of Object.entries(mw.stateSchema ?? {})) {
      if (CORE_FIELDS.has(key)) throw new HarnessError("invalid_option", `Middleware ${mw.name} may not redefine state field '${key}'.`);
      fields[key] = field;
    }
  }
  return fields;
}

/** Core channels plus middleware fields; the core ones typed, the rest read through their StateKeys. */
function buildAnnotation(fields: Record<string, StateField>) {
  const extra: StateDefinition = {};
  for (const [key, field] of Object.entries(fields)) {
    const reducer = (a: unknown, b: unknown) => (field.reducer ? field.reducer(a, b) : b);
    // A field with no value by default would be an empty channel, read by throwing (see optional-channel.ts).
    extra[key] =
      field.default() === undefined
        ? new OptionalValueChannel<unknown>(reducer, () => undefined)
        : Annotation<unknown>({ reducer, default: () => field.default() });
  }
  return Annotation.Root({ ...extra, ...coreChannels() } as ReturnType<typeof coreChannels>);
}

/**
 * A new AI message must never replace an earlier one: the messages reducer
 * merges by id, and some providers (or proxies) reuse response ids.
 */
function freshId(message: AIMessage, history: readonly BaseMessage[]): AIMessage {
  if (!message.id || !historyIds(history).messageIds.has(message.id)) return message;
  return copyAIMessage(message, { id: crypto.randomUUID() });
}

/**
 * Custom stream event (`streamMode: "custom"`): one tool call of the step
 * finished, `{ type, threadId, message }` with its ToolMessage as the step
 * will commit it (same id) and the thread it runs in. The step's calls run
 * together and its update comes only when all have finished; this lets a UI
 * show each call done as it ends.
 */
export const TOOL_RESULT_EVENT = "deeptab:tool_result";

/**
 * The result with how long its call ran in `response_metadata.deeptab_duration_ms`
 * (the UI shows it), and an id, so the early event and the step's update name one message.
 */
function withDuration(result: ToolCallResult, ms: number): ToolCallResult {
  const m = result.message;
  m.id ??= crypto.randomUUID();
  if (m.response_metadata?.[TOOL_DURATION_KEY] !== undefined) return result;
  m.response_metadata = { ...m.response_metadata, [TOOL_DURATION_KEY]: Math.round(ms) };
  return result;
}

/** The result with `notes` appended to what the model reads (a text block when the content is a list). */
function withNotes(message: ToolMessage, notes: readonly string[]): ToolMessage {
  if (notes.length === 0) return message;
  const text = notes.join("\n");
  const content = message.content;
  message.content = typeof content === "string" ? (content ? `${content}\n\n${text}` : text) : [...content, { type: "text", text }];
  return message;
}

/** Node results: a state update, or several Commands (LangGraph merges them in order). */
type NodeResult = StateUpdate | Command[];

/** Calls started between two turns of the event loop (see {@link settleInSlices}). */
const CALLS_PER_SLICE = 64;

/** Resolves in a later task of the event loop, after whatever is queued (a Stop, a message from the page). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * `Promise.allSettled(calls.map(run))`, but starting at most
 * {@link CALLS_PER_SLICE} calls between turns of the event loop: calls that
 * only compute (thousands of writes in one message) would otherwise hold the
 * loop for the whole step, and a Stop could not come through. All calls
 * still run concurrently (those waiting on I/O keep running while later ones
 * start), and every outcome is taken as soon as its call starts. Calls not
 * started yet when `signal` aborts are not started.
 */
async function settleInSlices<T, R>(
  calls: readonly T[],
  run: (call: T) => Promise<R>,
  signal: AbortSignal | undefined,
): Promise<PromiseSettledResult<R>[]> {
  const settled: Promise<PromiseSettledResult<R>>[] = [];
  for (let i = 0; i < calls.length; i++) {
    if (i > 0 && i % CALLS_PER_SLICE === 0) await nextTask();
    // Stopped while the step was starting its calls: the rest never start.
    if (signal?.aborted) {
      settled.push(Promise.resolve({ status: "rejected", reason: signal.reason as unknown }));
      continue;
    }
    settled.push(
      run(calls[i]!).then(
        (value): PromiseFulfilledResult<R> => ({ status: "fulfilled", value }),
        (reason: unknown): PromiseRejectedResult => ({ status: "rejected", reason }),
      ),
    );
  }
  return Promise.all(settled);
}

/**
 * The update of a tools step: every result message in one write, and the
 * step's file changes (see step-files.ts) in one, so a message with
 * thousands of calls runs each reducer once, not once per call; other fields
 * a result updates follow as Commands, in call order.
 */
function stepUpdate(results: readonly ToolCallResult[], files: FilesUpdate | undefined): Command[] {
  const others: Command[] = [];
  for (const r of results) {
    const { messages: _replaced, files: _merged, ...rest } = r.update ?? {};
    if (Object.keys(rest).length) others.push(new Command({ update: rest }));
  }
  const update: StateUpdate = { messages: results.map((r) => r.message) };
  if (files) update.files = files;
  return [new Command({ update }), ...others];
}

/** Whether a model's message may hold a provider-run tool's blocks (a web search's; see server-blocks.ts). */
function mayHoldProviderBlocks(message: AIMessage): boolean {
  const outputs: unknown = message.additional_kwargs?.tool_outputs;
  if (Array.isArray(outputs) && outputs.length) return true;
  return (
    Array.isArray(message.content) && message.content.some((b) => b.type === "server_tool_use" || "citations" in b || "annotations" in b)
  );
}

export function buildAgentLoop(spec: LoopSpec) {
  const fields = collectStateFields(spec.middleware);
  const toolsByName = new Map(spec.tools.map((t) => [t.name, t]));
  const toolNames = spec.tools.map((t) => t.name);

  const callModel = composeModelCall(spec.middleware, async (request: ModelRequest): Promise<ModelResponse> => {
    const bound = bindToolsCached(request.model, request.tools);
    const out: BaseMessage = await bound.invoke(renderRequestMessages(request), request.config);
    const message = AIMessage.isInstance(out) ? out : new AIMessage({ content: out.content });
    // A provider-run search (streamed in parts) is made whole before anything reads its tool calls; its code loads then.
    return { message: mayHoldProviderBlocks(message) ? (await import("./server-blocks.ts")).settleProviderBlocks(message) : message };
  });

  const redact = spec.redact ?? ((text: string) => redactSecrets(text));
  const callTool = composeToolCall(spec.middleware, (request) => executeTool(request, redact));
  const beforeAgentHooks = spec.middleware.filter((mw) => mw.beforeAgent);
  const afterModelHooks = spec.middleware.filter((mw) => mw.afterModel);
  const afterAgentHooks = spec.middleware.filter((mw) => mw.afterAgent);

  /**
   * Runs the beforeAgent hooks in stack order, each seeing the state as the
   * earlier hooks left it. Message changes are folded into one Overwrite so
   * two hooks touching the history never conflict within the step.
   */
  async function beforeAgentNode(state: AgentState, config: LangGraphRunnableConfig): Promise<NodeResult> {
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

  async function modelNode(state: AgentState, config: LangGraphRunnableConfig): Promise<NodeResult> {
    const response = await callModel({
      model: spec.model,
      systemPrompt: spec.systemPrompt,
      messages: state.messages,
      tools: spec.tools,
      state,
      config,
    });
    const message = resolveArgAliases(normalizeToolCalls(freshId(response.message, state.messages), state.messages), toolsByName);
    return { ...(response.update ?? {}), messages: [message] };
  }

  async function toolsNode(state: AgentState, config: LangGraphRunnableConfig): Promise<NodeResult> {
    const calls = pendingToolCalls(state.messages);
    // One view of the state's files for the whole step: each call's writes are seen by the calls after it, and
    // changes a call made on its own copy (a subagent's) are merged into it as the call finishes.
    // A subagent's step runs inside its task call's step: sibling subagents' changes to shared stores meet there.
    const stepFiles = new StepFiles(state.files, parentStep(config.configurable));
    // allSettled: when one call pauses or fails, its siblings finish first, so no
    // work keeps running detached from the step (a resume reruns the step).
    const settled = await settleInSlices(
      calls,
      async (call): Promise<ToolCallResult> => {
        const callConfig: LangGraphRunnableConfig = { ...config, toolCall: call } as LangGraphRunnableConfig;
        const backendRuntime = createBackendRuntime(state.files, callConfig, spec.now, stepFiles);
        const backend = resolveBackend(spec.backend, backendRuntime);
        const runtime = { toolCall: call, state, config: callConfig, backend, backendRuntime };
        const started = performance.now();
        let result = withDuration(
          await callTool({ toolCall: call, tool: toolsByName.get(call.name), runtime, siblings: calls, toolNames }),
          performance.now() - started,
        );
        if (result.update && "files" in result.update) {
          const { files, ...rest } = result.update;
          // Changes made through the step's view are in it already; the rest were made against the step's start.
          const pending = backendRuntime.pendingFiles;
          const own = Object.entries((files as FilesUpdate | undefined) ?? {}).filter(([path, data]) => pending[path] !== data);
          const notes = own.length ? await stepFiles.add(callLabel(call), Object.fromEntries(own)) : [];
          result = { message: withNotes(result.message, notes.map(stepFileNoteText)), update: rest };
        }
        config.writer?.({ type: TOOL_RESULT_EVENT, threadId: config.configurable?.thread_id, message: result.message });
        return result;
      },
      config.signal,
    );
    const failures = settled.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
    if (failures.length) {
      const other = failures.findIndex((e) => !isGraphInterrupt(e));
      if (other >= 0) throw failures[other];
      // Every call that paused (parallel subagents each asking for approval) is surfaced, in call order.
      throw new GraphInterrupt(failures.flatMap((e) => (e as GraphInterrupt).interrupts));
    }
    return stepUpdate(
      settled.map((r) => (r as PromiseFulfilledResult<ToolCallResult>).value),
      await stepFiles.update(),
    );
  }

  /** Commits the messages waiting in the inbox (none: an empty update), so the model call after it reads them. */
  async function inboxNode(_state: AgentState, config: LangGraphRunnableConfig): Promise<NodeResult> {
    const threadId = config.configurable?.thread_id;
    const taken = spec.inbox && typeof threadId === "string" ? await spec.inbox.take(threadId) : [];
    return taken.length ? { messages: taken } : {};
  }

  /** Runs the afterModel hooks in order (each may pause the run for approval). */
  async function afterModelNode(state: AgentState, config: LangGraphRunnableConfig): Promise<NodeResult> {
    const updates: Command[] = [];
    let current = state;
    for (const mw of afterModelHooks) {
      const update = await mw.afterModel!(current, config);
      if (!update || Object.keys(update).length === 0) continue;
      if (update.messages)
        current = { ...current, messages: messagesStateReducer(current.messages, update.messages as Messages) as BaseMessage[] };
      updates.push(new Command({ update }));
    }
    return updates.length ? updates : {};
  }

  /**
   * Runs the afterAgent hooks in order when the agent would finish; the first that adds a message (feedback for
   * another turn) ends the round, and the run goes back to the model (see {@link routeAfterAgent}).
   */
  async function afterAgentNode(state: AgentState, config: LangGraphRunnableConfig): Promise<NodeResult> {
    const updates: Command[] = [];
    for (const mw of afterAgentHooks) {
      const update = await mw.afterAgent!(state, config);
      if (!update || Object.keys(update).length === 0) continue;
      updates.push(new Command({ update }));
      if (update.messages !== undefined) break;
    }
    return updates.length ? updates : {};
  }

  /** After the afterAgent hooks: back to the model when one added a message after the final answer, else the end. */
  function routeAfterAgent(state: AgentState): "model" | typeof END {
    const last = state.messages[state.messages.length - 1];
    return last && !AIMessage.isInstance(last) ? "model" : END;
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

  const annotation = buildAnnotation(fields);
  type State = typeof annotation.State;
  // The graph's state is the core channels plus the middleware fields, which AgentState's index signature covers.
  const asAgentState = (s: State): AgentState => s as State & AgentState;
  // A node's failure is stored by the checkpointer (its message) and seen by the caller: a provider's error body is
  // dropped (its status and plain message kept) and its text redacted first. The code that drops it loads with the
  // first failure (the worker's startup code does not carry it).
  const node =
    (fn: (state: AgentState, config: LangGraphRunnableConfig) => Promise<NodeResult>) =>
    async (s: State, config: LangGraphRunnableConfig): Promise<NodeResult> => {
      try {
        return await fn(asAgentState(s), config);
      } catch (err) {
        if (isGraphBubbleUp(err)) throw err;
        const { dropErrorBody } = await import("../core/error-body.ts");
        throw redactError(dropErrorBody(err), redact);
      }
    };

  // Optional steps are nodes of their own only when some middleware has the hook: the approval step (afterModel),
  // and the end (afterAgent), which then goes through its node first.
  // With an inbox, every way into the model goes through it.
  type NodeName = "before_agent" | "inbox" | "model" | "tools" | "after_model" | "after_agent";
  const nodes: Array<[NodeName, DirectNode<State, NodeResult>]> = [];
  const add = (name: NodeName, fn: (state: AgentState, config: LangGraphRunnableConfig) => Promise<NodeResult>) =>
    nodes.push([name, new DirectNode(node(fn), name)]);
  add("before_agent", beforeAgentNode);
  add("model", modelNode);
  add("tools", toolsNode);
  const enter: NodeName = spec.inbox ? INBOX_NODE : "model";
  if (spec.inbox) add(INBOX_NODE, inboxNode);
  if (afterModelHooks.length) add("after_model", afterModelNode);
  if (afterAgentHooks.length) add("after_agent", afterAgentNode);
  const graph = new StateGraph(annotation).addNode(nodes);
  graph.addEdge(START, "before_agent").addEdge("before_agent", enter).addEdge("tools", enter);
  if (spec.inbox) graph.addEdge(INBOX_NODE, "model");
  const finish: NodeName | typeof END = afterAgentHooks.length ? "after_agent" : END;
  const routeState = (s: State) => {
    const next = route(asAgentState(s));
    return next === END ? finish : next === "model" ? enter : next;
  };
  const targets: Array<NodeName | typeof END> = ["tools", enter, finish];
  const routing = new DirectNode(routeState, "route");
  if (afterModelHooks.length) graph.addEdge("model", "after_model").addConditionalEdges("after_model", routing, targets);
  else graph.addConditionalEdges("model", routing, targets);
  const afterAgentRoute = (s: State) => (routeAfterAgent(asAgentState(s)) === END ? END : enter);
  if (afterAgentHooks.length) graph.addConditionalEdges("after_agent", new DirectNode(afterAgentRoute, "route_after_agent"), [enter, END]);
  const compiled = graph.compile({ checkpointer: spec.checkpointer, store: spec.store, name: spec.name ?? "deep-agent" });
  // Durability "sync": a step starts only once the step before it is saved, so tools never run for an AI message that a
  // storage fault could still lose, and a tools step re-run after a fault runs from the same checkpoint (the same
  // task id, which file stores use to recognize a call's completed effects: backends/runtime.ts, callIdentity).
  return compiled.withConfig({ recursionLimit: 10_000, durability: "sync" });
}
