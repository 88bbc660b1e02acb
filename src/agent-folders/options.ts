/**
 * A loaded agent folder as createDeepAgent options, and the files a new thread starts with. The composition root
 * (the worker, a Node script) supplies what a folder never carries: the model the person chose (with their key), a
 * way to build the models subagents name, and the app's own approval rules, which an agent may add to but never
 * loosen (a link must not switch approvals off for `execute`).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { CreateDeepAgentOptions, ForkedSubAgent, SubAgent } from "../agent/create-deep-agent.ts";
import { rubricMiddleware } from "../middleware/rubric.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import type { AsyncSubAgent } from "../middleware/async-subagents.ts";
import type { AgentDefinition, ModelRef, SubagentDefinition } from "./definition.ts";
import { AGENT_SKILLS_DIR, SKILLS_FOLDER } from "./load.ts";

/** What the composition root brings. */
export interface AgentOptionsContext {
  /** The main agent's model: the person's choice (the manifest's `model` is a suggestion shown to them). */
  model: BaseChatModel;
  /**
   * The model a subagent names, built with the person's key for that provider; undefined (or no resolver): the
   * parent's model is used.
   */
  resolveModel?: (ref: ModelRef, subagent: SubagentDefinition) => BaseChatModel | undefined;
  /** The app's approval rules. The agent's rules are added; its `false` for a tool these pause is ignored. */
  interruptOn?: InterruptOnConfig;
}

/** The options createDeepAgent takes from an agent folder. */
export type AgentFolderOptions = Required<
  Pick<CreateDeepAgentOptions, "model" | "systemPrompt" | "subagents" | "interruptOn" | "permissions" | "skills">
> &
  Pick<CreateDeepAgentOptions, "allowedTools" | "disallowedTools" | "middleware" | "harnessProfile" | "pinnedSkills">;

/** The approval rules: the app's, plus the agent's, never fewer. */
export function mergeInterruptOn(app: InterruptOnConfig, agent: AgentDefinition["manifest"]["interruptOn"]): InterruptOnConfig {
  const merged: InterruptOnConfig = { ...app };
  for (const [tool, rule] of Object.entries(agent)) {
    if (rule === false && app[tool]) continue;
    if (rule === true && typeof app[tool] === "object") continue;
    merged[tool] = typeof rule === "object" ? { ...rule } : rule;
  }
  return merged;
}

/**
 * createDeepAgent options for an agent: its instructions as the system prompt, its subagents (each held to its
 * `tools` and given its `model` when the resolver builds one), its skills (from {@link AGENT_SKILLS_DIR}, where
 * {@link agentSeedFiles} puts them), approval and path rules, and its tool selection. Spread the result into the
 * options with the app's own (checkpointer, backend, middleware).
 */
export function agentOptions(agent: AgentDefinition, context: AgentOptionsContext): AgentFolderOptions {
  const { manifest } = agent;
  const subagents: (SubAgent | ForkedSubAgent)[] = agent.subagents.map((s) => {
    const model = s.model && context.resolveModel?.(s.model, s);
    const held = { ...(s.tools ? { allowedTools: s.tools } : {}), ...(model ? { model } : {}) };
    if (s.mode === "fork") {
      // A fork's body is appended to the agent's instructions (deepagentsjs 1.14).
      return {
        name: s.name,
        description: s.description,
        mode: "fork",
        ...(s.systemPrompt ? { systemPrompt: s.systemPrompt } : {}),
        ...held,
      };
    }
    return { name: s.name, description: s.description, systemPrompt: s.systemPrompt, ...held };
  });
  const remote: AsyncSubAgent[] = manifest.asyncSubagents.map((a) => ({
    name: a.name,
    description: a.description,
    graphId: a.graphId,
    url: a.url,
  }));
  return {
    model: context.model,
    systemPrompt: agent.instructions,
    subagents: [...subagents, ...remote],
    interruptOn: mergeInterruptOn(context.interruptOn ?? {}, manifest.interruptOn),
    permissions: manifest.permissions,
    skills: agent.skills.length ? [AGENT_SKILLS_DIR] : [],
    ...(manifest.tools?.allowed ? { allowedTools: manifest.tools.allowed } : {}),
    ...(manifest.tools?.disallowed.length ? { disallowedTools: manifest.tools.disallowed } : {}),
    // The rubric loop grades with the agent's own model.
    ...(manifest.rubric
      ? {
          middleware: [
            rubricMiddleware({ model: context.model, rubric: manifest.rubric.criteria, maxIterations: manifest.rubric.maxIterations ?? 3 }),
          ],
        }
      : {}),
    ...(manifest.harnessProfile ? { harnessProfile: manifest.harnessProfile } : {}),
    ...(manifest.pinnedSkills?.length ? { pinnedSkills: manifest.pinnedSkills } : {}),
  };
}

/**
 * The files a new thread of this agent starts with, workspace path → bytes: its starter files (`files/data/a.csv` →
 * `/data/a.csv`) and its skills' folders (`skills/report/SKILL.md` → `/agent-skills/report/SKILL.md`, in the thread's own workspace).
 */
export function agentSeedFiles(agent: AgentDefinition): Map<string, Uint8Array> {
  const seed = new Map<string, Uint8Array>();
  for (const { file, path } of agent.starterFiles) seed.set(path, agent.files.get(file)!);
  for (const skill of agent.skills) {
    for (const file of skill.files) seed.set(AGENT_SKILLS_DIR + file.slice(SKILLS_FOLDER.length), agent.files.get(file)!);
  }
  return seed;
}
