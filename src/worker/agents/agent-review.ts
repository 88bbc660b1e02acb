/**
 * What the page shows of an agent, from its loaded folder: the summary the gallery and picker list, and the review a
 * person reads before using an agent from a link, a drop or a picker. Pure: the library (agent-library.ts) fetches,
 * stores and hashes; this only describes.
 */
import type { AgentDefinition } from "../../agent-folders/definition.ts";
import { agentHosts } from "../../agent-folders/hosts.ts";
import { fail } from "../../core/result.ts";
import type { AgentError, AgentErrorCode, AgentResult } from "../../protocol/errors.ts";
import type { AgentOrigin, AgentReview, AgentSummary } from "../../protocol/agents.ts";
import { GENERAL_AGENT_ID } from "../../protocol/agents.ts";

/** The id of a site's agent (`site:<folder>`). */
export const siteAgentId = (folder: string): string => `site:${folder}`;
/** The id of an agent stored in this browser (`agent:<hash>`). */
export const storedAgentId = (hash: string): string => `agent:${hash}`;

/** What an agent id names: the general agent, a site folder, or a stored hash; undefined when it is none of them. */
export function parseAgentId(
  id: string,
): { kind: "general" } | { kind: "site"; folder: string } | { kind: "stored"; hash: string } | undefined {
  if (id === GENERAL_AGENT_ID) return { kind: "general" };
  if (id.startsWith("site:") && id.length > 5) return { kind: "site", folder: id.slice(5) };
  if (/^agent:[0-9a-f]{64}$/.test(id)) return { kind: "stored", hash: id.slice(6) };
  return undefined;
}

/** Where an agent came from, for its summary. */
export interface AgentPlace {
  id: string;
  origin: AgentOrigin;
  hash: string;
  /** The name when agent.yaml gives none (a site folder's name, a zip's). */
  fallbackName: string;
  url?: string;
  addedAt?: string;
}

/** The summary of a loaded agent. */
export function agentSummary(agent: AgentDefinition, place: AgentPlace): AgentSummary {
  const { manifest } = agent;
  return {
    id: place.id,
    origin: place.origin,
    name: manifest.name ?? place.fallbackName,
    description: manifest.description ?? "",
    suggestions: [...manifest.suggestions],
    hash: place.hash,
    ...(place.url ? { url: place.url } : {}),
    ...(manifest.model ? { model: { ...manifest.model } } : {}),
    ...(manifest.sandbox ? { sandbox: manifest.sandbox } : {}),
    ...(place.addedAt ? { addedAt: place.addedAt } : {}),
    // Definitions stored before demos existed have none.
    demos: (agent.demos ?? []).map((d) => structuredClone(d)),
  };
}

/** Everything an agent brings, as text (the page never renders it as HTML). */
export function agentReview(
  agent: AgentDefinition,
  summary: AgentSummary,
  extra: { changedFrom?: string; stored?: boolean; keyOrigins?: ReadonlySet<string> } = {},
): AgentReview {
  // A subagent's model on a host none of the person's keys is bound to is called without a key (agent-run.ts).
  const keyNotSent = (baseUrl: string | undefined) => {
    const origin = baseUrl === undefined ? undefined : new URL(baseUrl).origin;
    return origin && !extra.keyOrigins?.has(origin) ? { keyNotSent: origin } : {};
  };
  const size = (file: string) => agent.files.get(file)?.length ?? 0;
  const { manifest } = agent;
  return {
    summary,
    instructions: agent.instructions,
    ...(manifest.rubric ? { rubric: { ...manifest.rubric } } : {}),
    subagents: agent.subagents.map((s) => ({
      name: s.name,
      description: s.description,
      ...(s.tools ? { tools: [...s.tools] } : {}),
      ...(s.model ? { model: { ...s.model } } : {}),
      ...keyNotSent(s.model?.baseUrl),
      ...(s.mode === "fork" ? { fork: true } : {}),
      file: s.file,
    })),
    skills: agent.skills.map((s) => ({
      name: s.name,
      description: s.description,
      file: s.file,
      ...(manifest.pinnedSkills?.includes(s.name) ? { pinned: true } : {}),
    })),
    files: agent.starterFiles.map(({ file, path }) => ({ path, size: size(file) })),
    ...(manifest.tools ? { tools: { ...manifest.tools } } : {}),
    interruptOn: structuredClone(manifest.interruptOn),
    permissions: structuredClone(manifest.permissions),
    hosts: agentHosts(agent),
    mcpServers: structuredClone(manifest.mcpServers),
    asyncSubagents: structuredClone(manifest.asyncSubagents),
    allFiles: [...agent.files].map(([path, bytes]) => ({ path, size: bytes.length })),
    ...(extra.changedFrom ? { changedFrom: extra.changedFrom } : {}),
    ...(extra.stored ? { stored: true } : {}),
  };
}

/** A coded agent error, as the protocol carries it. */
export function agentFail<T>(code: Exclude<AgentErrorCode, "invalid_agent">, message: string): AgentResult<T> {
  return fail(code, message, "AgentError");
}

/** A loader's refusal as the protocol's error (every problem kept). */
export function invalidAgent(error: { message: string; problems: AgentError["problems"] }): AgentResult<never> {
  return { ok: false, error: { name: "AgentError", code: "invalid_agent", message: error.message, problems: error.problems ?? [] } };
}
