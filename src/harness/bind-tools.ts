import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HarnessError } from "./errors.ts";
import type { AgentTool } from "./types.ts";

/** What the model is called through: the model itself or its tool-bound form. */
export interface Invokable {
  invoke: BaseChatModel["invoke"];
}

/** An OpenAI-style tool definition, accepted by every LangChain chat model's `bindTools`. */
function toToolDefinition(tool: AgentTool) {
  return {
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.schema },
  };
}

/** A tool the provider runs on its own servers (Anthropic's web search, OpenAI's): bound, never called by the harness. */
export type ServerToolDefinition = Readonly<Record<string, unknown>>;

const serverTools = new WeakMap<BaseChatModel, readonly ServerToolDefinition[]>();

/**
 * Marks `model` as offering `tools`, which its provider runs itself: every binding of the model's tools adds them
 * (the results come back inside the model's own message, as provider blocks). Returns the model.
 */
export function withServerTools<M extends BaseChatModel>(model: M, tools: readonly ServerToolDefinition[]): M {
  if (tools.length) serverTools.set(model, tools);
  return model;
}

/** The provider-run tools `model` offers (none unless {@link withServerTools} marked it). */
export function serverToolsOf(model: BaseChatModel): readonly ServerToolDefinition[] {
  return serverTools.get(model) ?? [];
}

interface Bound {
  tools: readonly AgentTool[];
  runnable: Invokable;
}

const cache = new WeakMap<BaseChatModel, Map<string, Bound>>();
/** The same cache by tool-list object: a step usually passes the very list the previous one did. */
const byList = new WeakMap<BaseChatModel, WeakMap<readonly AgentTool[], Invokable>>();

/**
 * `model.bindTools(tools)` (plus the provider-run tools the model offers), memoized per model and exact tool list:
 * binding happens once per distinct visible tool set, not on every call.
 */
export function bindToolsCached(model: BaseChatModel, tools: readonly AgentTool[]): Invokable {
  const server = serverToolsOf(model);
  if (tools.length === 0 && server.length === 0) return model;
  if (typeof model.bindTools !== "function") {
    throw new HarnessError("unsupported_model", `The model ${model.getName()} does not support tool calling (no bindTools).`);
  }
  let lists = byList.get(model);
  const known = lists?.get(tools);
  if (known) return known;
  let perModel = cache.get(model);
  if (!perModel) {
    perModel = new Map();
    cache.set(model, perModel);
  }
  const key = tools.map((t) => t.name).join("\u0000");
  const hit = perModel.get(key);
  let runnable: Invokable;
  if (hit && hit.tools.length === tools.length && hit.tools.every((t, i) => t === tools[i])) runnable = hit.runnable;
  else {
    runnable = model.bindTools([...tools.map(toToolDefinition), ...server]) as Invokable;
    if (perModel.size > 64) perModel.clear();
    perModel.set(key, { tools, runnable });
  }
  if (!lists) byList.set(model, (lists = new WeakMap()));
  lists.set(tools, runnable);
  return runnable;
}
