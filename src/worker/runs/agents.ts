/**
 * Builds the agent a run uses, from the thread's model choice and the
 * settings: the chat model (a provider client with the session's key, the
 * demo, llama.cpp in the tab, or Chrome's built-in model), the filesystem
 * layout with the active sandbox, approvals for `execute` and `fetch_url`,
 * `fetch_url` and the MCP servers' tools, todos, memory, skills, visible retries. Built per run (cheap: the heavy parts, the
 * checkpointer, storage and a loaded model, are shared). The code of a
 * model other than the demo (provider clients, ChatWllama, Chrome's model)
 * is imported when a run first uses it, so the worker starts without it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph/web";
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import { createDeepAgent, type CreateDeepAgentOptions, type DeepAgent } from "../../agent/create-deep-agent.ts";
import type { BackendFactory } from "../../backends/runtime.ts";
import { toErrorInfo } from "../../core/errors.ts";
import { once } from "../../core/once.ts";
import { err, ok, type Result } from "../../core/result.ts";
import { CHANGING_TOOLS } from "../../core/tool-names.ts";
import type { Inbox } from "../../harness/loop.ts";
import type { InterruptOnConfig } from "../../middleware/hitl.ts";
import { providerRetryMiddleware } from "../../middleware/provider-retry.ts";
import { RUBRIC_STATE_READER } from "../../middleware/rubric-events.ts";
import { ASYNC_TASKS_READER } from "../../middleware/async-subagents.ts";
import type { PromptApiPort } from "../../models/chrome-ai.ts";
import { providerInfo, webSearchToolOf } from "../../models/catalog.ts";
import { createDemoModel } from "../../models/demo.ts";
import { createRemoteModel, type ModelChoice, type ServerWindow } from "../../models/providers.ts";
import type { LocalModels } from "../models/local-models.ts";
import type { McpRunTools } from "../mcp/mcp-servers.ts";
import type { RunPhase } from "../../protocol/events.ts";
import type { SandboxKind, ToolProfileChoice } from "../../protocol/settings.ts";
import type { RunStatus } from "./run-status.ts";
import type { Demo } from "../../models/replay/format.ts";
import type { ReplayInfo } from "../../protocol/messages.ts";
import { basePrompt, MEMORY_FILE, SKILLS_DIR } from "../../agent/deeptab-prompt.ts";
import { modelWindow } from "../models/windows.ts";

/**
 * The code every run needs that the worker starts without (fetch_url; js_eval's middleware, whose interpreter loads
 * on its first call; the MCP servers' service), imported side by side and once. The worker starts it as it boots
 * (agent.worker.ts), so that a first run does not wait for one import after another.
 */
export const preloadRunCode = once(() =>
  Promise.all([
    import("../../tools/fetch-url.ts"),
    import("../../tools/js-eval.ts"),
    import("../mcp/mcp-servers.ts"),
    // Every run records its model calls (runs.ts).
    import("../../models/replay/recorder.ts"),
  ]),
);

export interface AgentDeps {
  checkpointer: BaseCheckpointSaver;
  store?: BaseStore | undefined;
  /** The whole filesystem (workspace with the sandbox, plus the shared routes) for a sandbox kind. */
  backend(kind: SandboxKind): BackendFactory;
  /** The person's key for a request to `provider` at `baseUrl`: only for the origin it was entered with (settings.ts). */
  key(provider: ModelChoice["provider"], baseUrl?: string): Promise<string | undefined>;
  /** The origin `provider`'s key is bound to, when one is set. */
  keyOrigin?(provider: ModelChoice["provider"]): Promise<string | undefined>;
  local: Pick<LocalModels, "engine">;
  promptApi(): PromptApiPort | undefined;
  /** The fetch provider clients and `fetch_url` use (the request log). */
  fetch: typeof fetch;
  /** The window of an OpenAI-compatible server's loaded model, when it tells (cached by the caller). */
  serverWindow(choice: ModelChoice): Promise<ServerWindow | undefined>;
  /** The enabled tools of the connected MCP servers, and which ask first (mcp-servers.ts). */
  mcpTools?(): Promise<McpRunTools>;
  /** The worker's secrets (keys, MCP header values and tokens), read when an error is redacted (app.ts `secrets`). */
  secrets?(): Iterable<string>;
}

export interface AgentSpec {
  choice: ModelChoice;
  sandbox: SandboxKind;
  approveExecute: boolean;
  approveWrites?: boolean;
  /** Tool descriptions; `auto` (or missing): by the window. */
  toolProfile?: ToolProfileChoice;
  /** A harness profile's key, over the agent folder's; `auto` (or missing): the folder's, else by provider and model. */
  harnessProfile?: string;
  /** The page's shared stop flag for the thread (AgentWorkerApi.attachStopFlag), cleared for this run: Stop sets it. */
  stopFlag?: Int32Array | undefined;
  /** The thread's agent folder; none: deeptab's general agent. */
  agent?: AgentDefinition | undefined;
  /** The host Python's packages come from (the Python packages setting); none: the standard library only. */
  pythonPackages?: string | undefined;
  /** The run's steering messages (harness/loop.ts `Inbox`), read before each of the top-level agent's model calls. */
  inbox?: Inbox | undefined;
  /**
   * A recorded demo to replay: its model answers for the main agent, every subagent and the summaries (no key, no
   * request), and summaries are sized to its window when it has one.
   */
  replay?: { demo: Demo; speed?: number | undefined; info: ReplayInfo } | undefined;
}

export interface BuiltAgent {
  agent: DeepAgent;
  /** The window the agent works in (summarization is sized to it), when known. */
  window: number | undefined;
  /** What the model's calls wait on before their first token (the status the page shows); none for the demo. */
  phase?: RunPhase;
  /** The run replays a recorded demo: what the turn's user message is marked with. */
  replay?: ReplayInfo;
}

async function chatModel(
  choice: ModelChoice,
  deps: AgentDeps,
  onStatus: (status: RunStatus) => void,
  replay?: AgentSpec["replay"],
): Promise<Result<{ model: BaseChatModel; window: number | undefined; phase?: RunPhase }, string>> {
  if (replay) {
    // Loaded only for a replay (the worker's startup code does not carry it).
    const { ReplayChatModel } = await import("../../models/replay/replay-chat-model.ts");
    const speed = replay.speed ?? 1;
    return ok({ model: new ReplayChatModel({ demo: replay.demo, speed }), window: replay.demo.window });
  }
  // What builds the model follows where it runs (the provider table's `runsIn`), never a provider's name.
  const { runsIn } = providerInfo(choice.provider);
  if (runsIn === "tab") {
    if (!choice.model) return err("Choose or download a model for this tab in Settings.");
    const engine = await deps.local.engine(choice.model, choice.contextWindow, (progress) =>
      onStatus({ phase: "loading_model", progress }),
    );
    if (!engine.ok) return engine;
    const { ChatWllama } = await import("../../models/wllama/chat-wllama.ts");
    // The context the engine was loaded with (modelWindow's value, unless llama.cpp capped it at the model's training context).
    return ok({ model: new ChatWllama({ engine: engine.value }), window: engine.value.contextSize(), phase: "reading_prompt" });
  }
  if (runsIn === "browser") {
    const port = deps.promptApi();
    if (!port) return err("Chrome's built-in model is not available in this browser.");
    const window = (await modelWindow(choice, deps)).tokens ?? (await port.contextWindow());
    const { ChatChromeAI } = await import("../../models/chrome-ai.ts");
    return ok({ model: new ChatChromeAI({ port, contextWindow: window }), window, phase: "waiting" });
  }
  const model = await createRemoteModel(choice, await deps.key(choice.provider, choice.baseUrl), deps.fetch);
  if (!model.ok) return model;
  const window = (await modelWindow(choice, deps)).tokens;
  return ok({ model: model.value, window, ...(runsIn === "scripted" ? {} : { phase: "waiting" as const }) });
}

/** Builds a run's agent; `onStatus` hears what takes a while before it exists (loading a model in the tab). */
export async function buildAgent(
  spec: AgentSpec,
  deps: AgentDeps,
  onStatus: (status: RunStatus) => void = () => undefined,
): Promise<Result<BuiltAgent, string>> {
  // The run's code and the MCP servers' tools load beside the model (awaited below; after an early return their
  // failure is of no interest, never an unhandled rejection).
  const code = preloadRunCode();
  const servers = deps.mcpTools?.();
  void code.catch(() => undefined);
  void servers?.catch(() => undefined);
  const built = await chatModel(spec.choice, deps, onStatus, spec.replay);
  if (!built.ok) return built;
  const interruptOn: InterruptOnConfig = {};
  // The same rule asks before the person's commands in the terminal (terminal/command-rule.ts).
  if (spec.approveExecute && spec.sandbox !== "none") interruptOn.execute = true;
  if (spec.choice.provider === "demo") interruptOn.delete = true;
  if (spec.approveWrites) for (const name of CHANGING_TOOLS) interruptOn[name] = true;
  // fetch_url asks first: a URL the model writes can carry what it read to any host (the person sees the URL).
  interruptOn.fetch_url = true;
  const mcpTools = await servers;
  // Without the provider's own search, a search MCP server's tool is offered as `web_search` (its code loads only then).
  const mcp =
    mcpTools?.tools.length && !webSearchToolOf(spec.choice)
      ? (await import("../../tools/web-search-mcp.ts")).withMcpWebSearch(mcpTools)
      : mcpTools;
  Object.assign(interruptOn, mcp?.interruptOn);
  // fetch_url's requests go through the request log.
  const [{ createFetchUrlTool }, { jsEvalMiddleware }] = await code;
  // Where the sandbox has no python3 (none chosen, or WebContainer), Python is a tool of its own over the offline shell.
  const python =
    spec.sandbox === "shell"
      ? []
      : [(await import("../../tools/python.ts")).createPythonTool({ shell: deps.backend("shell"), packages: spec.pythonPackages })];
  if (python.length > 0 && spec.approveExecute) interruptOn.python = true;
  const base: CreateDeepAgentOptions = {
    model: built.value.model,
    checkpointer: deps.checkpointer,
    store: deps.store,
    backend: deps.backend(spec.sandbox),
    systemPrompt: basePrompt(spec.sandbox, { packages: spec.pythonPackages }),
    interruptOn,
    tools: [createFetchUrlTool({ fetch: deps.fetch }), ...python, ...(mcp?.tools ?? [])],
    todos: true,
    memory: [MEMORY_FILE],
    skills: [SKILLS_DIR],
    middleware: [providerRetryMiddleware()],
    toolImages: providerInfo(spec.choice.provider).toolResultImages === true,
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
    ...(built.value.window ? { summarization: { maxInputTokens: built.value.window } } : {}),
    ...(spec.toolProfile && spec.toolProfile !== "auto" ? { toolProfile: spec.toolProfile } : {}),
  };
  // An agent folder's options (and the loader's code behind them) load only for a thread that has one.
  const folder = spec.agent
    ? await (
        await import("../agents/agent-run.ts")
      ).folderOptions(spec.agent, base, {
        choice: spec.choice,
        sandbox: spec.sandbox,
        pythonPackages: spec.pythonPackages,
        ...deps,
        // A replay's model answers for every subagent: the folder's subagent models are not built (nor called).
        ...(spec.replay ? { replaying: true } : {}),
      })
    : base;
  const chosen = spec.harnessProfile && spec.harnessProfile !== "auto" ? { ...folder, harnessProfile: spec.harnessProfile } : folder;
  // js_eval (tools/js-eval.ts) is on for every agent (a folder may drop it); QuickJS's code and wasm load on its first call.
  // Tools called from its code ask as the run's approvals say (after the folder's), so it gets the final interruptOn and permissions.
  const js = jsEvalMiddleware({ interruptOn: chosen.interruptOn ?? {}, permissions: chosen.permissions ?? [], stopFlag: spec.stopFlag });
  // An agent folder's async subagents talk to their servers through the request log, as every request of a run does.
  const options: CreateDeepAgentOptions = {
    ...chosen,
    middleware: [...(chosen.middleware ?? []), js],
    fetch: deps.fetch,
    ...(spec.inbox ? { inbox: spec.inbox } : {}),
  };
  try {
    const agent = createDeepAgent(options);
    return ok({
      agent,
      window: built.value.window,
      ...(built.value.phase ? { phase: built.value.phase } : {}),
      ...(spec.replay ? { replay: spec.replay.info } : {}),
    });
  } catch (cause) {
    return err(`This agent cannot run: ${toErrorInfo(cause).message}`);
  }
}

const NO_INBOX: Inbox = { take: () => [] };

/** An agent over the same checkpointer for reading and editing state (its model is never called). */
export function readerAgent(deps: Pick<AgentDeps, "checkpointer" | "store" | "backend">): DeepAgent {
  return createDeepAgent({
    model: createDemoModel(),
    checkpointer: deps.checkpointer,
    store: deps.store,
    backend: deps.backend("none"),
    interruptOn: { execute: true, delete: true },
    todos: true,
    memory: [MEMORY_FILE],
    skills: [SKILLS_DIR],
    // Threads an agent folder's rubric loop ran on keep their grades in a channel of its own.
    middleware: [RUBRIC_STATE_READER, ASYNC_TASKS_READER],
    // The runs' graph has an inbox step; the reader's has one too (never holding anything), so it reads their
    // checkpoints' next step (a run cut off before its inbox step is interrupted, and can be continued).
    inbox: NO_INBOX,
  });
}
