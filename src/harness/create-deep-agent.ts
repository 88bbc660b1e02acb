/**
 * createDeepAgent: declarative options in, a compiled LangGraph graph out.
 * Runs once at construction; nothing here runs during a turn.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph/web";
import type { BackendOption } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import { filesystemMiddleware, FILESYSTEM } from "../middleware/filesystem.ts";
import { patchToolCallsMiddleware } from "../middleware/patch-tool-calls.ts";
import { promptCachingMiddleware } from "../middleware/prompt-caching.ts";
import { hitlMiddleware, type InterruptOnConfig } from "../middleware/hitl.ts";
import { summarizationMiddleware, type SummarizationOptions } from "../middleware/summarization.ts";
import { HarnessError } from "./errors.ts";
import { fromLangChainTool, isAgentTool } from "./langchain-tools.ts";
import { buildAgentLoop } from "./loop.ts";
import { assembleStack, type BuiltinSlot } from "./stack.ts";
import type { AgentMiddleware, AgentTool } from "./types.ts";

export interface CreateDeepAgentOptions {
  model: BaseChatModel;
  /** Extra tools: LangChain tools or AgentTools. Names must not collide with built-ins. */
  tools?: ReadonlyArray<AgentTool | StructuredToolInterface>;
  systemPrompt?: string;
  /** Added after the core stack; one named like a built-in replaces it in place. */
  middleware?: readonly AgentMiddleware[];
  /** Built-in middleware to drop, by name (required ones cannot be dropped). */
  excludeMiddleware?: readonly string[];
  /** Where files live; defaults to a StateBackend (files in graph state). */
  backend?: BackendOption;
  checkpointer?: BaseCheckpointSaver;
  store?: BaseStore;
  name?: string;
  /** The clock used for file timestamps; defaults to the system clock. */
  now?: () => string;
  /** Tool calls that pause for approval: `{ toolName: true | { allowedDecisions, description, when } }`. Needs a checkpointer. */
  interruptOn?: InterruptOnConfig;
  /** Summarization settings (trigger, keep, window override, summary model). */
  summarization?: Partial<Pick<SummarizationOptions, "trigger" | "keep" | "maxInputTokens" | "summaryModel">>;
}

export type DeepAgent = ReturnType<typeof buildAgentLoop>;

const defaultBackend: BackendOption = (rt) => new StateBackend(rt);

export function createDeepAgent(options: CreateDeepAgentOptions): DeepAgent {
  if (!options?.model) throw new HarnessError("invalid_option", "createDeepAgent needs a `model` (a LangChain chat model).");
  const backend = options.backend ?? defaultBackend;
  const now = options.now ?? (() => new Date().toISOString());

  const builtins: BuiltinSlot[] = [
    { middleware: filesystemMiddleware({ backend, now }), required: true, position: "head" },
    { middleware: summarizationMiddleware({ model: options.model, backend, now, ...options.summarization }), position: "head" },
    { middleware: patchToolCallsMiddleware(), position: "head" },
    { middleware: promptCachingMiddleware(), position: "tail" },
  ];
  if (options.interruptOn && Object.keys(options.interruptOn).length) {
    if (!options.checkpointer) throw new HarnessError("invalid_option", "interruptOn needs a checkpointer so a paused run can be resumed.");
    builtins.push({ middleware: hitlMiddleware(options.interruptOn), position: "tail" });
  }
  const stack = assembleStack(builtins, options.middleware ?? [], options.excludeMiddleware ?? []);
  if (!stack.some((mw) => mw.name === FILESYSTEM)) {
    throw new HarnessError("required_middleware", `${FILESYSTEM} is required.`);
  }

  const tools = collectTools(stack, options.tools ?? []);
  return buildAgentLoop({
    model: options.model,
    systemPrompt: options.systemPrompt ?? "",
    tools,
    middleware: stack,
    backend,
    now,
    checkpointer: options.checkpointer,
    store: options.store,
    name: options.name,
  });
}

/** Middleware tools first, then user tools; any duplicate name is an error. */
export function collectTools(
  stack: readonly AgentMiddleware[],
  userTools: ReadonlyArray<AgentTool | StructuredToolInterface>,
): AgentTool[] {
  const owners = new Map<string, string>();
  const tools: AgentTool[] = [];
  for (const mw of stack) {
    for (const t of mw.tools ?? []) {
      const owner = owners.get(t.name);
      if (owner) throw new HarnessError("tool_name_collision", `Tool '${t.name}' is defined by both ${owner} and ${mw.name}.`);
      owners.set(t.name, mw.name);
      tools.push(t);
    }
  }
  for (const raw of userTools) {
    const t = isAgentTool(raw) ? raw : fromLangChainTool(raw);
    const owner = owners.get(t.name);
    if (owner) {
      throw new HarnessError(
        "tool_name_collision",
        owner === "tools"
          ? `Two tools are named '${t.name}'; tool names must be unique.`
          : `Tool '${t.name}' collides with the built-in tool of ${owner}; rename your tool.`,
      );
    }
    owners.set(t.name, "tools");
    tools.push(t);
  }
  return tools;
}
