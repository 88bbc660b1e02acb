/**
 * createDeepAgent: declarative options in, a compiled LangGraph graph out.
 * Runs once at construction; nothing here runs during a turn.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph/web";
import type { BackendOption } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import { assertShellSafe, normalizeRules, withPermissions, type FilesystemPermission } from "../backends/permissions.ts";
import { createBackendRuntime, resolveBackend } from "../backends/runtime.ts";
import { permissionInterruptRules } from "../middleware/fs-interrupt.ts";
import { filesystemMiddleware, FILESYSTEM } from "../middleware/filesystem.ts";
import { patchToolCallsMiddleware } from "../middleware/patch-tool-calls.ts";
import { promptCachingMiddleware } from "../middleware/prompt-caching.ts";
import { takesToolImages, toolImagesMiddleware } from "../middleware/tool-images.ts";
import { hitlMiddleware, type InterruptOnConfig } from "../middleware/hitl.ts";
import { summarizationMiddleware, type SummarizationOptions } from "../middleware/summarization.ts";
import { memoryMiddleware } from "../middleware/memory.ts";
import { skillsMiddleware } from "../middleware/skills.ts";
import { todosMiddleware, WRITE_TODOS } from "../middleware/todos.ts";
import { toolProfileFor, type ToolProfile } from "../context/budget.ts";
import { maxInputTokens } from "../context/model-windows.ts";
import { HarnessError } from "../harness/errors.ts";
import { fromLangChainTool, isAgentTool } from "../harness/langchain-tools.ts";
import { buildAgentLoop, collectStateFields, type Inbox } from "../harness/loop.ts";
import type { AgentMiddleware, AgentTool } from "../harness/types.ts";
import {
  GENERAL_PURPOSE,
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_PROMPT,
  forkTaskMiddleware,
  subagentMiddleware,
  type SubagentEntry,
} from "../middleware/subagents.ts";
import { asyncSubagentMiddleware, isAsyncSubAgent, type AsyncSubAgent } from "../middleware/async-subagents.ts";
import { keysOfModel, redactSecrets } from "../core/redact.ts";
import { oneRunPerThread } from "./one-run-per-thread.ts";
import { BUILTIN_TOOL_NAMES } from "../core/tool-names.ts";
import { checkResumes } from "./resume-gate.ts";
import { assembleStack, type BuiltinSlot } from "./stack.ts";
import { filterTools, toolAllowed, type ToolFilter } from "./tool-filter.ts";
import { applyProfilePrompt } from "./profiles/registry.ts";
import { toolExclusionMiddleware } from "./profiles/exclusion.ts";
import { pickHarnessProfile, withProfileDescriptions, withProfileMiddleware } from "./profiles/pick.ts";
import type { HarnessProfile, HarnessProfileOptions } from "./profiles/types.ts";

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
  /**
   * Where threads are kept. One run per thread at a time: a second concurrent
   * run is refused with `thread_busy`, across every checkpointer over the same
   * storage (IndexedDBSaver: the same database, in any tab or worker) or, for
   * others (MemorySaver), across agents sharing the object.
   */
  checkpointer?: BaseCheckpointSaver;
  store?: BaseStore;
  name?: string;
  /** The clock used for file timestamps; defaults to the system clock. */
  now?: () => string;
  /** Tool calls that pause for approval: `{ toolName: true | { allowedDecisions, description, when } }`. Needs a checkpointer. */
  interruptOn?: InterruptOnConfig;
  /** Skill source directories (each holds `<name>/SKILL.md`); later ones override earlier ones. Subagents get them too. */
  skills?: readonly string[];
  /** Tools disclosed only after a skill listing them has been read. */
  skillTools?: readonly AgentTool[];
  /**
   * Skills, by name, whose SKILL.md is in every request's system prompt (Python deepagents 0.7's `pinned_skills`):
   * followed without being read first, their tools disclosed from the start. For the main agent and the subagents
   * that use its `skills` (general-purpose and forks). A name no source has is listed in the `skillErrors` state.
   */
  pinnedSkills?: readonly string[];
  /** Memory files (e.g. ["/AGENTS.md", "/memories/AGENTS.md"]) injected into the main agent's prompt. */
  memory?: readonly string[];
  /** Adds the `write_todos` planning tool (off by default, as in deepagents). */
  todos?: boolean;
  /** Path rules enforced at the backend for every consumer; first match wins. */
  permissions?: readonly FilesystemPermission[];
  /**
   * Subagents for the `task` tool; a `general-purpose` one is added unless one has that name. An entry with a
   * `graphId` is an async subagent (deepagents' `AsyncSubAgent`): it runs on a LangGraph server and brings the
   * `start_async_task`, `check_async_task`, `update_async_task`, `cancel_async_task` and `list_async_tasks` tools.
   */
  subagents?: readonly (SubAgent | ForkedSubAgent | AsyncSubAgent)[];
  /** The fetch the async subagents' server requests go through (an app's request log); the global one by default. */
  fetch?: typeof fetch;
  /**
   * Only these tools, by name, built-ins included (`["read_file", "grep", "task"]`); unset, every tool. Subagents
   * inherit it unless they set their own. A name no tool has is an error, except a built-in tool's that this agent
   * happens not to have (`write_todos` without `todos`), so one list serves every configuration.
   */
  allowedTools?: readonly string[];
  /** Tools taken away by name, built-ins included (`["execute"]`), from the main agent and every subagent. */
  disallowedTools?: readonly string[];
  /** Summarization settings (trigger, keep, window override, summary model). */
  summarization?: Partial<Pick<SummarizationOptions, "trigger" | "keep" | "maxInputTokens" | "summaryModel" | "clearToolResults">>;
  /**
   * Tool texts: deepagents' (`"default"`) or short ones (`"compact"`: one-line
   * descriptions, no `compact_conversation`). Default: compact when the
   * model's window is under 16,384 tokens.
   */
  toolProfile?: ToolProfile;
  /**
   * The harness profile (deepagentsjs): a registered key (`"anthropic:claude-sonnet-4-6"`, `"compact"`) or a profile.
   * Unset, the one registered for the model's provider and name, if any. A key no profile has is an error.
   */
  harnessProfile?: string | HarnessProfile | HarnessProfileOptions;
  /**
   * Texts that must never be stored or sent: hidden, in every form (URL-encoded, base64, hex, JSON-escaped, long
   * pieces; core/redact.ts), from every error text (tool results, a failed step as the checkpointer stores it, the
   * thrown error) before it is kept anywhere, besides the `apiKey` of every model the agent uses and anything shaped
   * like a key (`sk-…`, `Bearer …`). A provider's error body is dropped there too (its status and message kept).
   * A function is asked each time (keys set later are hidden too).
   */
  secrets?: readonly string[] | (() => Iterable<string>);
  /**
   * Messages the person sends while a run works (steering), read before each of the top-level agent's model calls
   * (harness/loop.ts `Inbox`); subagents have none. Unset: the graph has no `inbox` step.
   */
  inbox?: Inbox;
  /**
   * Whether the model gets the images of tool results (an MCP tool's screenshot) as image blocks beside their text;
   * otherwise it reads only the text, which says where each image was saved. Default: for Anthropic models (OpenAI's
   * chat completions take text only in tool results).
   */
  toolImages?: boolean;
}

export type DeepAgent = ReturnType<typeof buildAgentLoop>;

/**
 * A declarative subagent, run by the `task` tool. `mode: "isolated"` (the default) starts from the task description
 * alone; `mode: "fork"` (see {@link ForkedSubAgent}) from the parent's conversation.
 */
export interface SubAgent {
  name: string;
  description: string;
  systemPrompt: string;
  /** `"isolated"` (the default): it sees only the task description. `"handoff"`, its name before deepagentsjs 1.14, still works. */
  mode?: "isolated" | "handoff";
  /** Defaults to the parent's tools. */
  tools?: ReadonlyArray<AgentTool | StructuredToolInterface>;
  /** Defaults to the parent's model. A model of its own brings the harness profile of that model. */
  model?: BaseChatModel;
  middleware?: readonly AgentMiddleware[];
  /** Defaults to the parent's interruptOn. */
  interruptOn?: InterruptOnConfig;
  /** Skill sources of this subagent (general-purpose defaults to the parent's). */
  skills?: readonly string[];
  /** Only these tools, by name, built-ins included (a subagent has no `task`); defaults to the parent's `allowedTools`. */
  allowedTools?: readonly string[];
  /** Tools this subagent goes without, besides the parent's `disallowedTools`. */
  disallowedTools?: readonly string[];
}

/**
 * A subagent that inherits the parent's conversation (as the parent's model last saw it) and the parent's system
 * prompt, skills and memory, as deepagentsjs' `mode: "fork"` (1.13; 1.14 merged `ForkedSubAgent` into `SubAgent`).
 * Its own `systemPrompt`, if any, is appended to the parent's after a blank line; it may not name `skills` (the
 * parent's are inherited). Its `task` tool refuses: a fork cannot delegate further.
 */
export interface ForkedSubAgent extends Omit<SubAgent, "systemPrompt" | "mode" | "skills"> {
  mode: "fork";
  /** Appended to the parent's system prompt (after a blank line), not in place of it. */
  systemPrompt?: string;
  /** Refused when set (non-empty): a fork inherits the parent's skills. */
  skills?: readonly [];
}

/** Subagent modes createDeepAgent takes (`"handoff"`: the old name of `"isolated"`). */
const MODES: readonly unknown[] = ["isolated", "handoff", "fork"];

/**
 * Is `sub` a fork? Refuses a mode that is none of {@link MODES} and a fork that names skills, with deepagentsjs'
 * words (1.14.1 `getSubagents`).
 */
function isFork(sub: SubAgent | ForkedSubAgent): sub is ForkedSubAgent {
  const mode: unknown = sub.mode;
  if (mode !== undefined && mode !== null && !MODES.includes(mode))
    throw new HarnessError("invalid_option", `SubAgent '${sub.name}' has invalid mode '${String(mode)}' — must be "isolated" or "fork".`);
  if (mode !== "fork") return false;
  const skills: unknown = sub.skills;
  if (Array.isArray(skills) && skills.length > 0)
    throw new HarnessError(
      "invalid_option",
      `SubAgent '${sub.name}' cannot set skills under mode: "fork"; the parent's skills are inherited instead.`,
    );
  return true;
}

/** A fork's system prompt: the parent's, then the fork's own (if any) after a blank line (deepagentsjs 1.14). */
function forkSystemPrompt(parent: string, own: string | undefined): string {
  if (!own) return parent;
  return parent ? `${parent}\n\n${own}` : own;
}

const defaultBackend: BackendOption = (rt) => new StateBackend(rt);

interface StackSpec {
  model: BaseChatModel;
  backend: BackendOption;
  now: () => string;
  options: Options;
  middleware: readonly AgentMiddleware[];
  interruptOn: InterruptOnConfig | undefined;
  skills: readonly string[] | undefined;
  /** The memory middleware (the main agent and fork children). */
  memory: boolean;
  /** The main agent's task tool, or a fork's (which refuses); isolated children get none. */
  subagents?: AgentMiddleware;
  /** The async subagents' tools (main agent only, as upstream). */
  asyncSubagents?: AgentMiddleware | undefined;
  /** The model's context window, when known (it sizes results and picks the tool profile). */
  window: number | undefined;
  profile: ToolProfile;
  tools: ToolFilter;
  /** The harness profile of this agent's model (a subagent with a model of its own has that model's). */
  harness: HarnessProfile;
}

/** The ordered built-ins for one agent (main or child); see stack.ts for the order. */
function builtinSlots(spec: StackSpec): BuiltinSlot[] {
  const { model, backend, now, options, window, profile } = spec;
  const slots: BuiltinSlot[] = [];
  if (options.todos && toolAllowed(spec.tools, WRITE_TODOS)) slots.push({ middleware: todosMiddleware(), position: "head" });
  const readFormat = spec.harness.readFormat;
  slots.push({
    middleware: filesystemMiddleware({ backend, now, window, profile, ...(readFormat ? { readFormat } : {}) }),
    required: true,
    position: "head",
  });
  if (spec.subagents) slots.push({ middleware: spec.subagents, required: true, position: "head" });
  slots.push(
    {
      middleware: summarizationMiddleware({ model, backend, now, compactTool: profile === "default", ...options.summarization }),
      position: "head",
    },
    { middleware: patchToolCallsMiddleware(), position: "head" },
  );
  if (spec.asyncSubagents) slots.push({ middleware: spec.asyncSubagents, position: "head" });
  if (spec.skills?.length || options.skillTools?.length) {
    slots.push({
      middleware: skillsMiddleware({
        sources: [...(spec.skills ?? [])],
        backend,
        now,
        skillTools: options.skillTools ?? [],
        // Pinned skills are named in the agent's own sources: they go where those sources go.
        ...(options.pinnedSkills?.length && spec.skills === options.skills ? { pinnedSkills: options.pinnedSkills } : {}),
        compact: profile === "compact",
      }),
      position: "tail",
    });
  }
  slots.push({ middleware: promptCachingMiddleware(), position: "tail" });
  if (options.toolImages ?? takesToolImages(model)) slots.push({ middleware: toolImagesMiddleware(), position: "tail" });
  if (spec.memory && options.memory?.length) {
    slots.push({ middleware: memoryMiddleware({ sources: [...options.memory], backend, now }), position: "tail" });
  }
  const permissionRules = permissionInterruptRules(options.permissions ?? []);
  if ((spec.interruptOn && Object.keys(spec.interruptOn).length) || permissionRules.length) {
    if (!options.checkpointer)
      throw new HarnessError(
        "invalid_option",
        "Approvals (interruptOn or interrupt permissions) need a checkpointer so a paused run can be resumed.",
      );
    slots.push({ middleware: hitlMiddleware(spec.interruptOn ?? {}, permissionRules), position: "tail" });
  }
  if (spec.harness.excludedTools.size) {
    slots.push({ middleware: toolExclusionMiddleware(spec.harness.excludedTools), required: true, position: "tail" });
  }
  return slots;
}

function assemble(spec: StackSpec): AgentMiddleware[] {
  const exclude = [...(spec.options.excludeMiddleware ?? []), ...spec.harness.excludedMiddleware];
  const stack = assembleStack(builtinSlots(spec), withProfileMiddleware(spec.harness, spec.middleware), exclude);
  if (!stack.some((mw) => mw.name === FILESYSTEM)) throw new HarnessError("required_middleware", `${FILESYSTEM} is required.`);
  return stack;
}

export function createDeepAgent(given: CreateDeepAgentOptions): DeepAgent {
  if (!given?.model) throw new HarnessError("invalid_option", "createDeepAgent needs a `model` (a LangChain chat model).");
  refuseBuiltinNames(given.tools ?? [], "");
  const remote = (given.subagents ?? []).filter((s): s is AsyncSubAgent => isAsyncSubAgent(s));
  const local = (given.subagents ?? []).filter((s): s is SubAgent | ForkedSubAgent => !isAsyncSubAgent(s));
  for (const sub of local) refuseBuiltinNames(sub.tools ?? [], `Subagent '${sub.name}': `);
  // Rules are checked and normalized once: one that could never match is an error now, not a silent hole.
  const options: Options = {
    ...given,
    subagents: local,
    ...(given.permissions?.length ? { permissions: normalizeRules(given.permissions) } : {}),
  };
  const asyncSubagents = remote.length
    ? asyncSubagentMiddleware({ asyncSubAgents: remote, ...(given.fetch ? { fetch: given.fetch } : {}) })
    : undefined;
  const now = options.now ?? (() => new Date().toISOString());
  const rawBackend = options.backend ?? defaultBackend;
  if (options.permissions?.length) {
    // Refuse a shell backend with path rules now, not on the first tool call.
    assertShellSafe(resolveBackend(rawBackend, createBackendRuntime({}, {}, now)), options.permissions);
  }
  const backend = withPermissions(rawBackend, options.permissions ?? []);
  // A remote server's headers (an API key) are secrets too.
  const redact = redactorFor({ ...options, secrets: withHeaderSecrets(options.secrets, remote) });
  const harness = pickHarnessProfile(options.model, options.harnessProfile);
  const base = { backend, now, options };
  /** The window a model works in (it sizes results and picks the tool profile unless one is set or named). */
  const sizing = (model: BaseChatModel, profile: HarnessProfile) => {
    const window = options.summarization?.maxInputTokens ?? maxInputTokens(model);
    return { window, profile: toolProfileFor(window, options.toolProfile ?? profile.toolProfile) };
  };
  /** A subagent's harness profile: the parent's on the parent's model, else its own model's (deepagentsjs 1.14). */
  const profileOf = (model: BaseChatModel | undefined) =>
    model === undefined || model === options.model ? harness : pickHarnessProfile(model, undefined);
  const systemPrompt = applyProfilePrompt(harness, options.systemPrompt ?? "");
  const main = sizing(options.model, harness);

  const specs: (SubAgent | ForkedSubAgent)[] = [...(options.subagents ?? [])];
  const gp = harness.generalPurposeSubagent;
  if (!specs.some((s) => s.name === GENERAL_PURPOSE) && gp?.enabled !== false) {
    specs.unshift({
      name: GENERAL_PURPOSE,
      description: gp?.description ?? GENERAL_PURPOSE_DESCRIPTION,
      // A profile's own general-purpose prompt is taken as it is (deepagentsjs 1.14.1).
      systemPrompt: gp?.systemPrompt ?? applyProfilePrompt(harness, GENERAL_PURPOSE_PROMPT),
    });
  }
  const names = new Set<string>();
  // A user's `general-purpose` replaces the built-in one above; any other shared name is refused (deepagentsjs 1.14.1).
  const listing = specs.map((sub) => {
    if (names.has(sub.name))
      throw new HarnessError("invalid_option", `Duplicate subagent name '${sub.name}'; each subagent must have a unique name.`);
    names.add(sub.name);
    return { name: sub.name, description: sub.description, fork: isFork(sub) };
  });
  const denied = options.disallowedTools ?? [];
  // The profile's exclusions take tools away like disallowedTools, but a name no tool has is no error (upstream).
  const disallowed = [...denied, ...harness.excludedTools];
  const entries: SubagentEntry[] = specs.map((sub, i) => {
    const { fork } = listing[i]!;
    const model = sub.model ?? options.model;
    const profile = profileOf(sub.model);
    const skills = fork ? options.skills : (sub.skills ?? (sub.name === GENERAL_PURPOSE ? options.skills : undefined));
    const tools = {
      allowed: sub.allowedTools ?? options.allowedTools,
      disallowed: [...denied, ...profile.excludedTools, ...(sub.disallowedTools ?? [])],
    };
    const stack = assemble({
      ...base,
      ...sizing(model, profile),
      harness: profile,
      model,
      middleware: sub.middleware ?? [],
      interruptOn: sub.interruptOn ?? options.interruptOn,
      skills,
      memory: fork,
      // A fork keeps the parent's task tool, which refuses (deepagentsjs 1.14); an isolated child has none.
      ...(fork ? { subagents: forkTaskMiddleware(listing, main.profile === "compact") } : {}),
      tools,
    });
    const agent = buildAgentLoop({
      model,
      systemPrompt: fork ? forkSystemPrompt(systemPrompt, sub.systemPrompt) : (sub.systemPrompt ?? ""),
      tools: withProfileDescriptions(
        profile,
        filterTools(collectTools(stack, sub.tools ?? options.tools ?? []), tools, `Subagent '${sub.name}'`, [
          ...(sub.allowedTools ?? []),
          ...(sub.disallowedTools ?? []),
        ]),
      ),
      middleware: stack,
      backend,
      now,
      checkpointer: options.checkpointer,
      store: options.store,
      name: sub.name,
      redact,
    });
    return { name: sub.name, description: sub.description, agent, fork };
  });

  let stack: AgentMiddleware[] = [];
  const tools = { allowed: options.allowedTools, disallowed };
  const subagents = subagentMiddleware({
    subagents: entries,
    stateFields: () => collectStateFields(stack),
    checkpointer: options.checkpointer,
    compact: main.profile === "compact",
  });
  stack = assemble({
    ...base,
    ...main,
    harness,
    model: options.model,
    middleware: options.middleware ?? [],
    interruptOn: options.interruptOn,
    skills: options.skills,
    subagents,
    asyncSubagents,
    memory: true,
    tools,
  });

  const agent = buildAgentLoop({
    model: options.model,
    systemPrompt,
    tools: withProfileDescriptions(
      harness,
      filterTools(collectTools(stack, options.tools ?? []), tools, "The agent's allowedTools/disallowedTools", [
        ...(options.allowedTools ?? []),
        ...denied,
      ]),
    ),
    middleware: stack,
    backend,
    now,
    checkpointer: options.checkpointer,
    store: options.store,
    name: options.name,
    redact,
    inbox: options.inbox,
  });
  // Resumes are checked inside the one-run guard: nothing changes the pause between the check and the run.
  return oneRunPerThread(options.checkpointer ? checkResumes(agent) : agent, options.checkpointer);
}

/** The options once async subagents are set apart: `subagents` holds only the ones the `task` tool runs. */
type Options = Omit<CreateDeepAgentOptions, "subagents"> & { subagents: readonly (SubAgent | ForkedSubAgent)[] };

/** `secrets` plus the header values of the async subagents' servers. */
function withHeaderSecrets(
  secrets: CreateDeepAgentOptions["secrets"],
  remote: readonly AsyncSubAgent[],
): CreateDeepAgentOptions["secrets"] {
  const headers = remote.flatMap((r) => Object.values(r.headers ?? {})).filter((v) => v.length >= 8);
  if (!headers.length) return secrets;
  return () => [...(typeof secrets === "function" ? secrets() : (secrets ?? [])), ...headers];
}

/**
 * The redaction of error texts for an agent: every form of the given secrets and of the keys of its models (read
 * when an error is redacted, so a key changed later counts), plus key-shaped tokens (core/redact.ts).
 */
function redactorFor(options: Options): (text: string) => string {
  const models = [options.model, options.summarization?.summaryModel, ...(options.subagents ?? []).map((s) => s.model)];
  const given = options.secrets;
  return (text) => {
    const secrets: string[] = typeof given === "function" ? [...given()] : [...(given ?? [])];
    for (const model of models) secrets.push(...keysOfModel(model));
    return redactSecrets(text, secrets);
  };
}

/**
 * A user tool named like a built-in tool is refused when the agent is built, whether or not this agent offers that
 * built-in (it may later: a sandbox brings `execute`, todos bring `write_todos`), with deepagentsjs' words
 * (agent.ts, TOOL_NAME_COLLISION).
 */
function refuseBuiltinNames(tools: ReadonlyArray<AgentTool | StructuredToolInterface>, where: string): void {
  const colliding = tools.map((t) => t.name).filter((name) => BUILTIN_TOOL_NAMES.includes(name));
  if (colliding.length === 0) return;
  throw new HarnessError(
    "tool_name_collision",
    `${where}Tool name(s) [${colliding.join(", ")}] conflict with built-in tools. Rename your custom tools to avoid this.`,
  );
}

/** Middleware tools first, then user tools; any duplicate name is an error. */
function collectTools(stack: readonly AgentMiddleware[], userTools: ReadonlyArray<AgentTool | StructuredToolInterface>): AgentTool[] {
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
