/**
 * A run of an agent folder: deeptab's own options (model, storage, memory, the app's approval rules, retries) with
 * the folder's added by agent-folders/options.ts. The system prompt is deeptab's base prompt followed by the folder's
 * AGENTS.md; each subagent's `model` is built with the person's key for its provider when it is at the origin the key
 * was entered for (models/key-endpoint.ts; on another origin it gets no key: an OpenAI-compatible server is called
 * without one, a provider that requires one is not called), or the subagent runs on the main model and its
 * description says why (a run never fails for it); approval rules are merged so the app's are
 * never loosened; the folder's skills come from the thread's own skills folder beside the shared one.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentDefinition, ModelRef } from "../../agent-folders/definition.ts";
import { agentOptions, type AgentFolderOptions } from "../../agent-folders/options.ts";
import type { CreateDeepAgentOptions } from "../../agent/create-deep-agent.ts";
import { err, type Result } from "../../core/result.ts";
import { isAsyncSubAgent } from "../../middleware/async-subagents.ts";
import { providerInfo } from "../../models/catalog.ts";
import { endpointOrigin } from "../../models/key-endpoint.ts";
import { createRemoteModel, type ModelChoice } from "../../models/providers.ts";
import { rulesBesideCommands, withPathApprovals } from "./agent-permissions.ts";
import { basePrompt } from "../../agent/deeptab-prompt.ts";
import { PYTHON_TOOL_NAME } from "../../tools/python.ts";
import type { SandboxKind } from "../../protocol/settings.ts";

/** What a folder's run needs of the worker besides deeptab's options. */
export interface FolderRunContext {
  /** The person's model choice for the thread (the main agent's). */
  choice: ModelChoice;
  sandbox: SandboxKind;
  /** The host Python's packages come from (the Python packages setting), if any. */
  pythonPackages?: string | undefined;
  /** The person's key for a request to `provider` at `baseUrl`: only for the origin it was entered with. */
  key(provider: ModelChoice["provider"], baseUrl?: string): Promise<string | undefined>;
  /** The origin `provider`'s key is bound to, when one is set. */
  keyOrigin?(provider: ModelChoice["provider"]): Promise<string | undefined>;
  /** The request log's fetch. */
  fetch: typeof fetch;
  /** The run replays a demo: its model (the main one) answers for every subagent, whatever model the folder names. */
  replaying?: boolean;
}

/**
 * The model a subagent names, built over the person's choice (its Web search switch too) with their key for that
 * provider, only when the model is at the origin the key was entered for. Elsewhere: no key (an OpenAI-compatible
 * server, whose key is optional, is called without one; OpenAI and Anthropic refuse, so the subagent falls back).
 */
export async function subagentModel(ref: ModelRef, context: FolderRunContext): Promise<Result<BaseChatModel, string>> {
  const { choice } = context;
  const provider = ref.provider ?? choice.provider;
  const same = provider === choice.provider;
  const info = providerInfo(provider);
  if (info.runsIn === "tab" || info.runsIn === "browser")
    return err(`${info.label} runs in the tab and cannot serve a subagent beside the main model`);
  const baseUrl = ref.baseUrl ?? (same ? choice.baseUrl : undefined);
  if (info.baseUrl === "required" && !baseUrl) return err(`${info.label} needs a base URL the agent does not give`);
  const key = await context.key(provider, baseUrl);
  if (info.key === "required" && !key) {
    const bound = await context.keyOrigin?.(provider);
    const target = endpointOrigin(provider, baseUrl);
    return err(
      bound && target !== bound
        ? `it calls ${target}, and your ${info.label} key is not sent there (it is sent only to ${bound})`
        : `no ${info.label} API key is set`,
    );
  }
  const model = ref.model ?? (same ? choice.model : info.defaultModel);
  // The thread's Web search switch holds for its subagents' models too (where their provider has a search of its own).
  const search = choice.webSearch ? { webSearch: true as const } : {};
  return createRemoteModel({ provider, model, ...(baseUrl ? { baseUrl } : {}), ...search }, key, context.fetch);
}

/**
 * The folder's tool lists without the tools of its MCP servers that this run does not have (`<server>__<tool>`: the
 * person has not added the server, or it is not connected): an agent is not refused for a server the person has not
 * consented to; it runs without that server's tools. Built-in names never hold `__` (tools/mcp-names.ts).
 */
function withoutAbsentMcpTools(options: AgentFolderOptions, present: ReadonlySet<string>): AgentFolderOptions {
  const keep = (names: readonly string[]) => names.filter((name) => !name.includes("__") || present.has(name));
  const lists = <L extends { allowedTools?: readonly string[]; disallowedTools?: readonly string[] }>(o: L): L => ({
    ...o,
    ...(o.allowedTools ? { allowedTools: keep(o.allowedTools) } : {}),
    ...(o.disallowedTools ? { disallowedTools: keep(o.disallowedTools) } : {}),
  });
  return { ...lists(options), subagents: options.subagents.map((s) => (isAsyncSubAgent(s) ? s : lists(s))) };
}

/**
 * deeptab's options for a run, with the agent folder's added. The system prompt is deeptab's own (basePrompt) for the
 * run's sandbox and the code-running tools the folder keeps, then the folder's instructions.
 */
export async function folderOptions(
  agent: AgentDefinition,
  base: CreateDeepAgentOptions,
  context: FolderRunContext,
): Promise<CreateDeepAgentOptions> {
  const models = new Map<string, BaseChatModel>();
  const fallbacks = new Map<string, string>();
  for (const sub of agent.subagents) {
    if (!sub.model || context.replaying) continue;
    const built = await subagentModel(sub.model, context).catch((cause: unknown) => err(String(cause)));
    if (built.ok) models.set(sub.name, built.value);
    else fallbacks.set(sub.name, built.error);
  }
  const appRules = { ...(base.interruptOn ?? {}) };
  const permissions = agent.manifest.permissions;
  // Path rules beside a shell: every command waits for approval (agent-permissions.ts).
  const guarded = permissions.length > 0 && context.sandbox !== "none";
  if (guarded && typeof appRules.execute !== "object") appRules.execute = true;
  // The python tool's code reaches every file as a shell command does: with path rules, it asks first too.
  const python = (base.tools ?? []).some((t) => t.name === PYTHON_TOOL_NAME);
  if (permissions.length > 0 && python && typeof appRules[PYTHON_TOOL_NAME] !== "object") appRules[PYTHON_TOOL_NAME] = true;
  const folder = withoutAbsentMcpTools(
    agentOptions(agent, { model: base.model, resolveModel: (_ref, sub) => models.get(sub.name), interruptOn: appRules }),
    new Set((base.tools ?? []).map((t) => t.name)),
  );
  for (const [name, why] of fallbacks) {
    const sub = folder.subagents.find((s) => s.name === name);
    if (!sub) continue;
    sub.description = `${sub.description} (It runs on the main agent's model here: ${why}.)`;
    console.warn(`deeptab: subagent '${name}' runs on the main model: ${why}`);
  }
  // A folder without python (or execute) is not told of it.
  const offered = (name: string) => (!folder.allowedTools || folder.allowedTools.includes(name)) && !folder.disallowedTools?.includes(name);
  const prompt = basePrompt(context.sandbox, {
    execute: offered("execute"),
    python: offered(PYTHON_TOOL_NAME),
    packages: context.pythonPackages,
  });
  const instructions = agent.instructions ? `${prompt}\n\n${agent.instructions}` : prompt;
  // Beside a shell the worker applies the path rules itself (agent-permissions.ts); otherwise createDeepAgent does.
  const rules =
    guarded && base.backend
      ? { backend: rulesBesideCommands(base.backend, permissions), interruptOn: withPathApprovals(folder.interruptOn, permissions) }
      : { interruptOn: folder.interruptOn, permissions: folder.permissions };
  return {
    ...base,
    ...rules,
    systemPrompt: instructions,
    subagents: folder.subagents,
    skills: [...(base.skills ?? []), ...folder.skills],
    ...(folder.allowedTools ? { allowedTools: folder.allowedTools } : {}),
    ...(folder.disallowedTools ? { disallowedTools: folder.disallowedTools } : {}),
    ...(folder.middleware ? { middleware: [...(base.middleware ?? []), ...folder.middleware] } : {}),
    ...(folder.harnessProfile ? { harnessProfile: folder.harnessProfile } : {}),
    ...(folder.pinnedSkills ? { pinnedSkills: folder.pinnedSkills } : {}),
  };
}
