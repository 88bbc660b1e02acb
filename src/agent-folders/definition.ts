/**
 * An agent defined in files, as plain data (it crosses postMessage and is stored as it is): what the loader makes of
 * a folder, and what the composition roots turn into createDeepAgent options (options.ts). Nothing here is a key.
 */
import type { SandboxKind } from "../agent/sandbox-kinds.ts";
import type { FilesystemPermission } from "../backends/permissions.ts";
import type { DecisionType } from "../middleware/hitl.ts";
import type { ProviderId } from "../models/catalog.ts";
import type { DemoSummary } from "../models/replay/format.ts";
import type { AgentFiles } from "./file-map.ts";

/** Where an agent's commands run: the offline shell, a WebContainer (Node.js and npm), or nowhere (agent/sandbox-kinds.ts). */
export type AgentSandbox = SandboxKind;

/** A model named by an agent, as data: the composition root resolves it (the person's key, their provider's client). */
export interface ModelRef {
  /** Unset: the provider the person uses (a subagent's: its parent's). */
  provider?: ProviderId;
  /** Unset: the provider's default (or the parent's model). */
  model?: string;
  /** An OpenAI-compatible server's base URL (a host the agent asks to reach: a review screen shows it). */
  baseUrl?: string;
  /** The window the model works in, in tokens, when the agent suggests one. */
  contextWindow?: number;
}

/** An approval rule, as data (deepagents' `interrupt_on` values with camelCase keys). */
export interface AgentInterruptRule {
  allowedDecisions?: DecisionType[];
  description?: string;
}

/** Which tools are on, by name: `allowed` (unset: all) less `disallowed`. */
export interface AgentToolSelection {
  allowed?: string[];
  disallowed: string[];
}

/** An MCP server the agent wants (the MCP issue connects them): its URL and the names of headers a person fills in. */
export interface McpServerSpec {
  name: string;
  url: string;
  transport?: "http" | "sse";
  /** Header names only (`Authorization`); their values are asked of the person, never part of the agent. */
  headers: string[];
}

/** An async subagent: a graph on a LangGraph server (agent.yaml `async_subagents`), run by `start_async_task`. */
export interface AsyncSubagentSpec {
  name: string;
  description: string;
  url: string;
  graphId: string;
}

/** agent.yaml, validated (every field optional; the defaults are the app's). */
export interface AgentManifest {
  name?: string;
  description?: string;
  /** Starter prompts, shown as chips. */
  suggestions: string[];
  model?: ModelRef;
  sandbox?: AgentSandbox;
  /** Approval rules by tool name; `false` asks for none (the app's own rules still hold: see options.ts). */
  interruptOn: Record<string, boolean | AgentInterruptRule>;
  /** Path rules, deepagents' shape, first match wins. */
  permissions: FilesystemPermission[];
  tools?: AgentToolSelection;
  mcpServers: McpServerSpec[];
  /** Graphs on LangGraph servers the agent may start long tasks on (deepagents' async subagents). */
  asyncSubagents: AsyncSubagentSpec[];
  /** The rubric loop: every answer is graded against `criteria` (by the agent's model) before the run ends. */
  rubric?: { criteria: string; maxIterations?: number };
  /** A registered harness profile's key (`harness_profile`), checked at load; unset, the model's own profile. */
  harnessProfile?: string;
  /** Skills of the folder whose SKILL.md is in every request (`pinned_skills`), checked at load against skills/. */
  pinnedSkills?: string[];
}

/** A subagent from `agents/<file>.md`. */
export interface SubagentDefinition {
  name: string;
  description: string;
  /** The file's body: its system prompt; a fork's (may be empty) is appended to the agent's own instructions. */
  systemPrompt: string;
  /** `"fork"`: it starts from the conversation so far and the agent's instructions (deepagents' `mode: "fork"`). */
  mode?: "fork";
  /** Only these tools (by name); unset: the agent's. */
  tools?: string[];
  model?: ModelRef;
  /** Its file in the folder (`agents/critic.md`). */
  file: string;
}

/** A skill from `skills/<name>/SKILL.md` (Agent Skills), with the files beside it. */
export interface SkillDefinition {
  name: string;
  description: string;
  /** Its SKILL.md in the folder (`skills/report/SKILL.md`). */
  file: string;
  /** Every file of its folder, SKILL.md included, as folder paths. */
  files: string[];
}

/** A recorded demo the folder carries (`demos/<name>.json`), as its review lists it; the file holds the replies. */
export interface DemoDefinition extends DemoSummary {
  /** Its file in the folder (`demos/summarize.json`). */
  file: string;
}

/** A loaded agent folder. */
export interface AgentDefinition {
  manifest: AgentManifest;
  /** AGENTS.md ("" when there is none). */
  instructions: string;
  subagents: SubagentDefinition[];
  skills: SkillDefinition[];
  /** Starter files: folder path (`files/data/a.csv`) → workspace path (`/data/a.csv`). */
  starterFiles: Array<{ file: string; path: string }>;
  /** Every file of the folder (normalized, in order): what is hashed, exported and stored. */
  files: AgentFiles;
  /** Its recorded demos, in file order (unset in definitions stored before demos existed: none). */
  demos?: DemoDefinition[];
}
